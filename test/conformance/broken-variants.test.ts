// The runner catches real breakage: each test puts a proxy that breaks one thing in front of a
// correct mock and asserts the check responsible reports it (and that the same check passes
// against the mock itself, so the failure is the variant's doing).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConformanceOptions, Report } from '../../conformance/index.js';
import { depositV1Info } from '../../generated/deposit-v1/contract-data.js';
import { exchangeV3Info } from '../../generated/exchange-v3/contract-data.js';
import { startMockServer, type RunningMockServer } from '../../mock-server/server.js';
import { editJson, startMutatingProxy, type Mutation, type ProxiedRequest, type ProxiedResponse } from './support/mutating-proxy.js';
import { describeResults, failures, runAgainst } from './support/run.js';

let mock: RunningMockServer;

beforeAll(async () => {
  mock = await startMockServer({ port: 0, seed: 9, strict: true, webhookEgress: 'loopback' });
});

afterAll(() => mock.close());

async function runThrough(mutation: Mutation, options: Partial<ConformanceOptions>): Promise<Report> {
  const proxy = await startMutatingProxy(mock.url, mutation);
  try {
    return await runAgainst(mock, options, proxy.url);
  } finally {
    await proxy.close();
  }
}

function expectReported(report: Report, operation: string, check: string, reason: RegExp): void {
  const found = failures(report).filter((r) => r.operation === operation && r.check === check);
  expect(found, `failures:\n${describeResults(failures(report))}`).not.toEqual([]);
  expect(found[0]!.reason).toMatch(reason);
}

/** The same shape (the contract's pattern still holds), one character different. */
function otherSecret(secret: string): string {
  return `${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`;
}

const isPath = (target: string, path: string): boolean => target.split('?')[0] === path;

/**
 * What a server answers that leaves requests no operation takes to its framework: an HTML 500
 * for a body it cannot read (malformed, another media type, too large), an HTML "Cannot GET" 404
 * for a path its router does not know, whatever the method.
 */
function frameworkDefaults(request: ProxiedRequest, response: ProxiedResponse): ProxiedResponse {
  const html = (status: number, text: string): ProxiedResponse => ({
    status,
    headers: new Headers({ 'content-type': 'text/html; charset=utf-8' }),
    body: `<!DOCTYPE html><html><body><pre>${text}</pre></body></html>`,
  });
  if ([400, 413, 415].includes(response.status)) return html(500, 'Internal Server Error');
  if ([404, 405].includes(response.status)) return html(404, `Cannot ${request.method} ${request.target}`);
  return response;
}

describe('the runner reports a broken server', () => {
  it('a response field of the wrong type, by the schema check', async () => {
    const report = await runThrough(
      { response: (req, res) => (isPath(req.target, '/api/v3/private/client') && res.status === 200 ? editJson(res, (body) => { body.result.id = String(body.result.id); }) : res) },
      { only: ['Account'] },
    );
    expectReported(report, 'getClient', 'response:schema', /\/result\/id must be integer/);
  });

  it('a missing response header, by the headers check', async () => {
    const report = await runThrough(
      {
        response: (req, res) => {
          if (!isPath(req.target, '/api/v3/private/usage')) return res;
          const headers = new Headers(res.headers);
          headers.delete('X-RateLimit-Remaining');
          return { ...res, headers };
        },
      },
      { only: ['Account'] },
    );
    expectReported(report, 'getUsage', 'response:headers', /X-RateLimit-Remaining missing/);
  });

  it('a wrong error code, by the auth check', async () => {
    // The request without a token gets the code of a wrong token (same status, also in the catalog).
    const report = await runThrough(
      {
        response: (req, res) =>
          isPath(req.target, '/api/v3/private/client') && res.status === 401
            ? editJson(res, (body) => { if (body.error.code === 'authentication_required') body.error.code = 'invalid_token'; })
            : res,
      },
      { only: ['Account'] },
    );
    expectReported(report, 'getClient', 'auth:missing-credentials', /expected HTTP 401 authentication_required, got HTTP 401 invalid_token/);
  });

  it('a 5xx for bad input, by the validation check', async () => {
    const report = await runThrough(
      {
        response: (req, res) =>
          isPath(req.target, '/api/v3/private/webhooks/events') && res.status === 422
            ? { ...editJson(res, (body) => { body.error = { code: 'internal_error' }; }), status: 500 }
            : res,
      },
      { only: ['Webhooks'] },
    );
    expectReported(report, 'listWebhookEvents', 'validation:parameter', /expected HTTP 422 validation_error, got HTTP 500 internal_error/);
  });

  it('a cursor that does not advance, by the cursor walk', async () => {
    // Every cursor page of the route list is answered with the first page again.
    const report = await runThrough(
      { target: (req) => (isPath(req.target, '/api/v3/private/exchange/routes') ? req.target.replace(/&?cursor=[^&]*/, '') : req.target) },
      { only: ['Exchange'] },
    );
    expectReported(report, 'listRoutes', 'pagination:cursor-walk', /page 2 repeats an item of an earlier page/);
  });

  it('a list that never ends, by both walks', async () => {
    // The route list is five routes whose every page, even an empty one past the end, claims
    // another: page mode says the next page is the last, cursor mode always has more.
    const routes = '/api/v3/private/exchange/routes';
    const report = await runThrough(
      {
        target: (req) => (isPath(req.target, routes) ? `${routes}?per_page=5` : req.target),
        response: (req, res) => {
          if (!isPath(req.target, routes) || res.status !== 200) return res;
          const query = new URL(req.target, 'http://x').searchParams;
          const perPage = Number(query.get('per_page') ?? 25);
          return editJson(res, (body) => {
            const five = body.result.routes as unknown[];
            if (query.get('pagination') === 'cursor') {
              const offset = Number(query.get('cursor') ?? 0);
              body.result.routes = five.slice(offset, offset + perPage);
              body.meta.pagination = { mode: 'cursor', per_page: perPage, cursor: query.get('cursor'), next_cursor: String(offset + perPage), has_more: true };
            } else {
              const page = Number(query.get('page') ?? 1);
              body.result.routes = five.slice((page - 1) * perPage, page * perPage);
              const count = body.result.routes.length as number;
              const from = count === 0 ? null : (page - 1) * perPage + 1;
              body.meta.pagination = { mode: 'page', current_page: page, per_page: perPage, total: 5, last_page: page + 1, from, to: from === null ? null : from + count - 1 };
            }
          });
        },
      },
      { only: ['Exchange'] },
    );
    expectReported(report, 'listRoutes', 'pagination:page-walk', /page 4 is empty but its meta claims more pages/);
    expectReported(report, 'listRoutes', 'pagination:cursor-walk', /page 4 is empty but its meta claims more pages/);
  });

  it('a skipped scope check, by the scope check', async () => {
    // Every key minted through the proxy gets every scope, as if the server never checked them.
    const report = await runThrough(
      {
        request: (req) => {
          if (req.method !== 'POST' || !isPath(req.target, '/__mock/tokens')) return req.body;
          const { scopes: _ignored, ...rest } = JSON.parse(req.body) as Record<string, unknown>;
          return JSON.stringify(rest);
        },
      },
      { only: ['Account'] },
    );
    expectReported(report, 'getUsage', 'auth:scope', /expected HTTP 403 scope_denied, got HTTP 200/);
  });

  it('an illegal status transition, by the machine check of the deposit flow', async () => {
    // Reads of a deposit answer `waiting` once it was paid: paid is final in the deposit machine.
    const report = await runThrough(
      {
        response: (req, res) =>
          req.method === 'GET' && /^\/v1\/public\/deposits\/[0-9a-f-]{36}$/.test(req.target) && res.status === 200
            ? editJson(res, (body) => { if (body.data.status === 'paid') body.data.status = 'waiting'; })
            : res,
      },
      { only: ['Deposits'] },
    );
    expectReported(report, 'flow:deposit', 'machine', /→ waiting is not a transition of the deposit machine/);
  });

  it('an illegal transition in the status history of an order, by the status-history check', async () => {
    // The history claims the order went from awaiting_payment straight to completed.
    const report = await runThrough(
      {
        response: (req, res) =>
          req.method === 'GET' && /^\/api\/v3\/private\/exchange\/orders\/[^/]+\/status$/.test(req.target) && res.status === 200
            ? editJson(res, (body) => {
                const history = body.result.status.history as { from: string | null; to: string }[];
                if (history.length > 1) history.splice(1, history.length - 1, { ...history.at(-1)!, from: history[0]!.to });
              })
            : res,
      },
      { only: ['Exchange'] },
    );
    expectReported(report, 'flow:exchange', 'status-history', /awaiting_payment → completed is not a transition of the order machine/);
  });

  it('a bad webhook signature, by the signature check', async () => {
    // The endpoint's secret shown at creation is not the one the server signs with.
    const report = await runThrough(
      {
        response: (req, res) =>
          req.method === 'POST' && isPath(req.target, '/api/v3/private/webhooks') && res.status === 201
            ? editJson(res, (body) => { body.result.endpoint.secret = otherSecret(body.result.endpoint.secret); })
            : res,
      },
      { only: ['Webhooks'] },
    );
    expectReported(report, 'flow:webhooks', 'signature', /X-Signature does not verify/);
  });

  it('a bad signature of the deposit webhooks, by the received-webhook check', async () => {
    // The site's webhook secret shown at creation is not the one the mock signs with.
    const report = await runThrough(
      {
        response: (req, res) =>
          req.method === 'POST' && isPath(req.target, '/__mock/sites') && res.status === 201
            ? editJson(res, (body) => { body.result.webhook_secret = otherSecret(body.result.webhook_secret); })
            : res,
      },
      { only: ['Deposits'] },
    );
    expectReported(report, 'flow:deposit', 'received deposit.paid', /X-Signature does not verify/);
  });

  it('HTML and 500s for bodies, paths and methods no operation takes, by the transport checks', async () => {
    const report = await runThrough({ response: frameworkDefaults }, { only: ['Files', 'AML'] });
    for (const [operation, family] of [['createUploadIntent', 'v3'], ['createAmlCheck', 'v1']] as const) {
      const code = (name: string) => (family === 'v3' ? name : name.toUpperCase());
      expectReported(report, operation, 'transport:malformed-body', new RegExp(`^sent JSON cut off mid-document: expected HTTP 400 ${code('bad_request')}, got HTTP 500`));
      expectReported(report, operation, 'transport:media-type', new RegExp(`^sent a body as text/plain .*: expected HTTP 415 ${code('unsupported_media_type')}, got HTTP 500`));
      expectReported(report, operation, 'transport:body-too-large', new RegExp(`^sent a JSON body of \\d+ bytes .*: expected HTTP 413 ${code('payload_too_large')}, got HTTP 500`));
      expectReported(report, operation, 'transport:wrong-method', new RegExp(`^sent GET /\\S+: expected HTTP 405 ${code('method_not_allowed')}, got HTTP 404; Content-Type text/html`));
    }
    // The status is right; the HTML page is not the family's error body.
    expectReported(report, 'exchange-v3', 'transport:unknown-path', /^sent GET \/api\/v3\/\S+: expected HTTP 404 not_found, got HTTP 404; Content-Type text\/html, documented for errors: application\/json; the body is not valid JSON$/);
    expectReported(report, 'deposit-v1', 'transport:unknown-path', /^sent GET \/v1\/public\/\S+: expected HTTP 404 NOT_FOUND, got HTTP 404; Content-Type text\/html/);
  });

  it('a body size limit one byte short, by the at-limit check', async () => {
    // A space after the JSON takes a body of exactly the contract's limit one byte over it.
    const limits: number[] = [exchangeV3Info['x-body-limit-bytes'], depositV1Info['x-body-limit-bytes']];
    const report = await runThrough({ request: (req) => (limits.includes(Buffer.byteLength(req.body)) ? `${req.body} ` : req.body) }, { only: ['Files', 'AML'] });
    for (const [operation, code] of [['createUploadIntent', 'payload_too_large'], ['createAmlCheck', 'PAYLOAD_TOO_LARGE']] as const) {
      expectReported(report, operation, 'transport:body-at-limit', new RegExp(`^sent a JSON body of \\d+ bytes \\(the limit\\): got HTTP 413 \\(${code}:`));
    }
  });

  it('finds nothing wrong through a proxy that changes nothing', async () => {
    const report = await runThrough({}, { only: ['Account', 'Deposits', 'Webhooks'] });
    expect(failures(report), describeResults(failures(report))).toEqual([]);
  });
});
