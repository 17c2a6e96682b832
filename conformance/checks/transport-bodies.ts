// Bodies no operation can take, sent (with --allow-writes) to every reachable operation that
// takes a body: JSON cut off mid-document, a body of another media type than the operation's, and
// a JSON body one byte over the contract's `info.x-body-limit-bytes`. Each must be refused with
// the catalog's code of its HTTP status (transport-failures.ts) as the operation documents that
// status, not with a framework's HTML page or a 5xx. A check runs only where the operation
// documents the status; the size check only for JSON bodies, which the contract's limit is for
// (an upload's limit is its file ceiling).
import { buildUrl } from '../../generated/runtime/client-url.js';
import { documentedResponses } from '../contract/document.js';
import type { RunContext } from '../context.js';
import { sendRaw, type RawRequest } from '../http/raw-request.js';
import { logExpectedError } from './judge-call.js';
import { reachableTargets, type Target } from './targets.js';
import { expectedError, transportStatuses, type TransportFailure } from './transport-failures.js';

const json = 'application/json';

interface BadBody {
  failure: TransportFailure;
  /** What was sent, for the row's reason. */
  sent: string;
  contentType: string;
  body: string;
  /** Refused on its announced length, perhaps before it is read: sent paced. */
  paced?: boolean;
}

export async function checkTransportBodies(context: RunContext): Promise<void> {
  for (const target of reachableTargets(context, (_family, route) => route.body !== undefined)) {
    for (const bad of badBodies(target)) await sendBadBody(context, target, bad);
  }
}

function badBodies({ family, route }: Target): BadBody[] {
  const takesJson = route.body?.contentType === json;
  const limit = family.bodyLimitBytes;
  const bodies: BadBody[] = [{ failure: 'media-type', sent: `a body as text/plain (${route.body?.contentType ?? ''} expected)`, contentType: 'text/plain', body: '{}' }];
  if (takesJson) bodies.unshift({ failure: 'malformed-body', sent: 'JSON cut off mid-document', contentType: json, body: '{"conformance": ' });
  if (takesJson && limit !== undefined) bodies.push({ failure: 'body-too-large', sent: `a JSON body of ${limit + 1} bytes (limit ${limit})`, contentType: json, body: jsonOfSize(limit + 1), paced: true });
  const documented = documentedResponses(family.contract, route.operationId);
  return bodies.filter((bad) => documented.has(String(transportStatuses[bad.failure])));
}

/** A well-formed JSON object of exactly `bytes` bytes: only its size is wrong. */
function jsonOfSize(bytes: number): string {
  const frame = '{"padding":""}';
  return `{"padding":"${'x'.repeat(Math.max(0, bytes - frame.length))}"}`;
}

async function sendBadBody(context: RunContext, target: Target, bad: BadBody): Promise<void> {
  const { family, route, path } = target;
  const expected = expectedError(context, family, route.operationId, bad.failure);
  if (expected === undefined) return;
  const url = buildUrl(context.options.baseUrl, family.basePath, route.path, path, {}, [], route.operationId);
  const request: RawRequest = { method: route.method.toUpperCase(), url, contentType: bad.contentType, body: bad.body, paced: bad.paced === true };
  const { exchange } = await sendRaw(context, family, request);
  logExpectedError(context, family, route.operationId, `transport:${bad.failure}`, exchange, { ...expected, sent: bad.sent });
}
