// Bodies no operation can take, sent (with --allow-writes) to every reachable operation that
// takes a body: JSON cut off mid-document, a body of another media type than the operation's, and
// a JSON body one byte over the contract's `info.x-body-limit-bytes`. Each must be refused with
// the catalog's code of its HTTP status (transport-failures.ts) as the operation documents that
// status, not with a framework's HTML page or a 5xx. A check runs only where the operation
// documents the status; the size checks only for JSON bodies, which the contract's limit is for
// (an upload's limit is its file ceiling). The limit is inclusive: a body of exactly that many
// bytes must get past the size check to the operation's own answer (`transport:body-at-limit`),
// so a server whose limit is one byte short is found.
import { buildUrl } from '../../generated/runtime/client-url.js';
import { documentedResponses } from '../contract/document.js';
import type { RunContext } from '../context.js';
import { sendRaw, type RawRequest } from '../http/raw-request.js';
import { errorSummary, judgeResponse, problemsOf } from '../judge/response.js';
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
    await sendBodyAtLimit(context, target);
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
  const { family, route } = target;
  const expected = expectedError(context, family, route.operationId, bad.failure);
  if (expected === undefined) return;
  const { exchange } = await sendRaw(context, family, requestOf(context, target, bad.contentType, bad.body, bad.paced === true));
  logExpectedError(context, family, route.operationId, `transport:${bad.failure}`, exchange, { ...expected, sent: bad.sent });
}

/**
 * A well-formed JSON body of exactly the limit: whatever the operation makes of its content (most
 * refuse the padding as a field they do not have), the answer must be one the operation
 * documents, and not the 413 of a body too large or a 5xx.
 */
async function sendBodyAtLimit(context: RunContext, target: Target): Promise<void> {
  const { family, route } = target;
  const limit = family.bodyLimitBytes;
  if (route.body?.contentType !== json || limit === undefined) return;
  const check = 'transport:body-at-limit';
  const sent = `sent a JSON body of ${limit} bytes (the limit)`;
  const { exchange } = await sendRaw(context, family, requestOf(context, target, json, jsonOfSize(limit), false));
  if (exchange === undefined) {
    context.log.add(route.operationId, check, 'fail', `${sent}: no answer`);
    return;
  }
  const problems = exchange.status === transportStatuses['body-too-large'] || exchange.status >= 500 ? [`got HTTP ${exchange.status}${errorSummary(exchange)}`] : [];
  problems.push(...problemsOf(judgeResponse(family, route.operationId, exchange)));
  context.log.judge(route.operationId, check, problems.length === 0 ? [] : [`${sent}: ${problems.join('; ')}`], `HTTP ${exchange.status}: taken past the size check`);
}

function requestOf(context: RunContext, { family, route, path }: Target, contentType: string, body: string, paced: boolean): RawRequest {
  const url = buildUrl(context.options.baseUrl, family.basePath, route.path, path, {}, [], route.operationId);
  return { method: route.method.toUpperCase(), url, contentType, body, paced };
}
