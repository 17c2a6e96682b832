// The router emitter and its runtime: literal path segments before parameters (on the real
// contracts), request parsing and validation over real HTTP (a fixture contract mounted in an
// express 5 app), determinism, and strict compilation of the routes.ts of both real contracts.
import express from 'express';
import type { ErrorRequestHandler, Router } from 'express';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { banner, type GeneratedFile } from '../../generator/emit/file.js';
import { emitContractData } from '../../generator/emit/contract-data.js';
import { emitRoutes } from '../../generator/emit/routes.js';
import { loadContract } from '../../generator/load.js';
import { buildContractModel, type ContractModel } from '../../generator/model.js';
import {
  routeOrder, type HandlerContext, type HandlerResponse, type OperationRequest, type RouteDefinition, type RouterOptions,
} from '../../generator/runtime/router-runtime.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const loadFresh = async (file: string): Promise<ContractModel> => buildContractModel(await loadContract(join(repoRoot, file), repoRoot));
const loaded = new Map<string, Promise<ContractModel>>();
const load = (file: string): Promise<ContractModel> => {
  if (!loaded.has(file)) loaded.set(file, loadFresh(file));
  return loaded.get(file)!;
};

type Emitter = (model: ContractModel) => GeneratedFile | GeneratedFile[];

/** The types and validators emitters are written alongside this one: use them once they exist. */
async function optionalEmitter(file: string, name: string): Promise<Emitter | undefined> {
  const path = join(repoRoot, 'generator/emit', file);
  if (!existsSync(path)) return undefined;
  return ((await import(pathToFileURL(path).href)) as Record<string, Emitter>)[name];
}

/** Stand-in types.ts: every part of every operation loosely typed. */
function stubTypes(model: ContractModel): GeneratedFile {
  const entries = model.operations.map((op) =>
    `  ${op.operationId}: { path: Record<string, unknown>; query: Record<string, unknown>; headers: Record<string, unknown>; body: unknown; responses: unknown; result: unknown };`);
  return { path: `${model.name}/types.ts`, contents: `export interface Operations {\n${entries.join('\n')}\n}\n` };
}

/** Stand-in validators: ajv over the operation's inline schemas, header names lower-cased. */
function stubValidators(model: ContractModel): GeneratedFile {
  const schemas = Object.fromEntries(model.operations.map((op) => {
    const located = (location: string, name: (n: string) => string) => {
      const params = op.parameters.filter((p) => p.in === location);
      if (params.length === 0) return [];
      return [[location === 'header' ? 'headers' : location, {
        type: 'object',
        properties: Object.fromEntries(params.map((p) => [name(p.name), p.schema])),
        required: params.filter((p) => p.required).map((p) => name(p.name)),
      }]];
    };
    const same = (n: string) => n;
    return [op.operationId, Object.fromEntries([
      ...located('path', same),
      ...located('query', same),
      ...located('header', (n) => n.toLowerCase()),
      ...(op.body ? [['body', op.body.schema]] : []),
    ])];
  }));
  return {
    path: `${model.name}/validators.ts`,
    contents: [
      `import Ajv2020Module, { type ValidateFunction } from 'ajv/dist/2020.js';`,
      `const ajv = new Ajv2020Module.default({ allErrors: true, strict: false });`,
      `const schemas: Record<string, Record<string, object>> = ${JSON.stringify(schemas)};`,
      `export const operationValidators: Record<string, Record<string, ValidateFunction>> = Object.fromEntries(`,
      `  Object.entries(schemas).map(([id, byLocation]) => [id, Object.fromEntries(Object.entries(byLocation).map(([l, s]) => [l, ajv.compile(s)]))]),`,
      `);`,
      '',
    ].join('\n'),
  };
}

/** routes.ts, types, validators and the copied runtime of a model, laid out as in generated/. */
async function generatedFiles(model: ContractModel): Promise<GeneratedFile[]> {
  const emitTypes = await optionalEmitter('types.ts', 'emitTypes');
  const emitValidators = await optionalEmitter('validators.ts', 'emitValidators');
  const runtime = (file: string): GeneratedFile => {
    const source = `generator/runtime/${file}`;
    return { path: `runtime/${file}`, contents: `${banner(source)}\n${readFileSync(join(repoRoot, source), 'utf8')}` };
  };
  return [
    emitRoutes(model),
    ...[emitTypes?.(model) ?? stubTypes(model)].flat(),
    ...[emitValidators?.(model) ?? stubValidators(model)].flat(),
    runtime('router-runtime.ts'),
    runtime('serialized-json.ts'),
    runtime('field-errors.ts'),
    runtime('union-errors.ts'),
    runtime('server-envelope.ts'),
    runtime('server-security.ts'),
    runtime('server-idempotency.ts'),
    runtime('request-fingerprint.ts'),
    runtime('server-limits.ts'),
    runtime('server-transport.ts'),
    runtime('json-depth.ts'),
    runtime('client-signing.ts'),
    runtime('client-errors.ts'),
    emitContractData(model),
  ];
}

function writeFiles(dir: string, files: GeneratedFile[]): void {
  for (const file of files) {
    mkdirSync(dirname(join(dir, file.path)), { recursive: true });
    writeFileSync(join(dir, file.path), file.contents);
  }
}

// Inside the repository, so the generated files resolve express and ajv from node_modules.
const tempDirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(repoRoot, 'test', '.tmp-routes-'));
  tempDirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

describe('route order', () => {
  const literalBeforeParameter: [string, string, string][] = [
    ['contracts/exchange-v3.openapi.yaml', '/private/orders/statuses', '/private/orders/{order}'],
    ['contracts/exchange-v3.openapi.yaml', '/private/webhooks/events', '/private/webhooks/{webhook}'],
    ['contracts/exchange-v3.openapi.yaml', '/private/webhooks/deliveries', '/private/webhooks/{webhook}'],
    ['contracts/exchange-v3.openapi.yaml', '/private/webhooks/test', '/private/webhooks/{webhook}'],
    ['contracts/exchange-v3.openapi.yaml', '/private/exchange/routes/details', '/private/exchange/routes/{route}'],
    ['contracts/exchange-v3.openapi.yaml', '/private/exchange/routes/details', '/private/exchange/routes/{from}/{to}/details'],
    ['contracts/exchange-v3.openapi.yaml', '/private/exchange/orders/preflight', '/private/exchange/orders/{order}'],
    ['contracts/deposit-v1.openapi.yaml', '/v1/public/deposits/by-order-id/{orderId}', '/v1/public/deposits/{uuid}'],
    ['contracts/deposit-v1.openapi.yaml', '/v1/public/deposits/by-order-id/{orderId}/aml', '/v1/public/deposits/{uuid}/aml'],
    ['contracts/deposit-v1.openapi.yaml', '/v1/public/static-addresses/by-order-id/{orderId}', '/v1/public/static-addresses/{uuid}'],
  ];

  it.each(literalBeforeParameter)('%s: %s before %s', async (file, literal, parameter) => {
    const paths = routeOrder((await load(file)).operations).map((op) => op.path);
    expect(paths).toContain(literal);
    expect(paths).toContain(parameter);
    expect(paths.lastIndexOf(literal)).toBeLessThan(paths.indexOf(parameter));
  });

  it.each(['contracts/exchange-v3.openapi.yaml', 'contracts/deposit-v1.openapi.yaml'])(
    '%s: wherever two paths first differ by a literal and a parameter, the literal comes first',
    async (file) => {
      const ordered = routeOrder((await load(file)).operations).map((op) => op.path.split('/'));
      const violations = ordered.flatMap((earlier, i) => ordered.slice(i + 1).flatMap((later) => {
        const at = earlier.findIndex((segment, k) => segment !== later[k]);
        const parameterFirst = at >= 0 && earlier[at]!.includes('{') && later[at] !== undefined && !later[at]!.includes('{');
        return parameterFirst ? [`${earlier.join('/')} before ${later.join('/')}`] : [];
      }));
      expect(violations).toEqual([]);
    },
  );

  it('sorts by text and then method where paths tie, the same for any input order', () => {
    const routes = [
      { path: '/b/{id}', method: 'get' }, { path: '/a', method: 'post' }, { path: '/a', method: 'get' },
      { path: '/b/list', method: 'get' }, { path: '/a/{x}', method: 'delete' }, { path: '/a/{x}', method: 'get' },
    ] as const;
    const expected = ['get /a', 'post /a', 'delete /a/{x}', 'get /a/{x}', 'get /b/list', 'get /b/{id}'];
    expect(routeOrder(routes).map((r) => `${r.method} ${r.path}`)).toEqual(expected);
    expect(routeOrder([...routes].reverse()).map((r) => `${r.method} ${r.path}`)).toEqual(expected);
  });
});

describe('emitRoutes', () => {
  it('is deterministic and starts with the banner', async () => {
    for (const file of ['contracts/exchange-v3.openapi.yaml', 'contracts/deposit-v1.openapi.yaml']) {
      const first = emitRoutes(await loadFresh(file));
      const second = emitRoutes(await loadFresh(file));
      expect(second).toEqual(first);
      expect(first.contents.startsWith(`${banner(file)}\n`)).toBe(true);
    }
  });

  it('emits one handler method and one route per operation, with scopes from the contract', async () => {
    const model = await load('contracts/exchange-v3.openapi.yaml');
    const { path, contents } = emitRoutes(model);
    expect(path).toBe('exchange-v3/routes.ts');
    for (const op of model.operations) {
      expect(contents).toContain(`  ${op.operationId}(request: HandlerRequest<'${op.operationId}'>, context: HandlerContext)`);
      expect(contents).toContain(`operationId: '${op.operationId}',`);
    }
    expect(contents).toContain(`scope: 'orders:read',`);
    expect(contents).toContain('export function createExchangeV3Router(handlers: Partial<ExchangeV3Handlers>, options: RouterOptions = {}): Router');
  });
});

interface FixtureModule {
  shopRoutes: readonly RouteDefinition[];
  createShopRouter(handlers: object, options?: RouterOptions): Router;
}
type Request = OperationRequest<Record<'path' | 'query' | 'headers' | 'body', unknown>>;

describe('the generated router over HTTP (fixture contract)', () => {
  const calls: { operationId: string; request: Request }[] = [];
  const record = (operationId: string, response: HandlerResponse) => (request: Request): HandlerResponse => {
    calls.push({ operationId, request });
    return response;
  };
  const handlers = {
    listOrders: record('listOrders', { status: 200, body: { orders: [] } }),
    createOrder: async (request: Request, context: HandlerContext): Promise<HandlerResponse> => {
      calls.push({ operationId: 'createOrder', request });
      return { status: 201, body: { created: request.body, scope: context.route.scope }, headers: { Location: '/orders/7' } };
    },
    getOrder: record('getOrder', { status: 200, body: { order: 'found' } }),
    listOrderStatuses: record('listOrderStatuses', { status: 200, body: 'new,paid,completed', contentType: 'text/plain' }),
    failOrder: () => {
      throw new Error('handler failed');
    },
  };
  let fixture: FixtureModule;
  let server: Server;
  let base: string;

  beforeAll(async () => {
    const model = await load('test/fixtures/routes/shop.openapi.yaml');
    const dir = tempDir();
    writeFiles(dir, await generatedFiles(model));
    fixture = (await import(pathToFileURL(join(dir, 'shop/routes.ts')).href)) as FixtureModule;

    const app = express();
    app.use(express.json());
    // Runs after the route matched and before validation: auth reads the scope from the table.
    app.use('/api/shop/guarded', fixture.createShopRouter(handlers, {
      routeMiddleware: (route) => [(req, res, next) => {
        if (req.get('authorization') === undefined) res.status(401).json({ scope: route.scope });
        else next();
      }],
      onValidationError: (details, _req, res, route) => {
        res.status(400).json({ custom: true, operationId: route.operationId, details });
      },
    }));
    app.use('/api/shop', fixture.createShopRouter(handlers));
    const onError: ErrorRequestHandler = (error: Error, _req, res, _next) => {
      res.status(500).json({ error: { code: 'internal_error', message: error.message } });
    };
    app.use(onError);
    server = app.listen(0);
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/shop`;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((done) => server ? server.close(done) : done(undefined));
  });

  const lastCall = () => calls.at(-1)!;
  const post = (path: string, body: unknown, headers: Record<string, string> = { 'X-Request-Tag': 'web' }) =>
    fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  it('routes a literal segment before a parameter at the same position', async () => {
    const response = await fetch(`${base}/orders/statuses`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await response.text()).toBe('new,paid,completed');
    expect(lastCall().operationId).toBe('listOrderStatuses');
  });

  it('passes decoded path parameters and reports an invalid one by name, located in the path', async () => {
    expect((await fetch(`${base}/orders/42`)).status).toBe(200);
    expect(lastCall()).toMatchObject({ operationId: 'getOrder', request: { path: { order: '42' } } });
    const response = await fetch(`${base}/orders/4%2F2`);
    expect(response.status).toBe(422);
    const { error } = (await response.json()) as { error: { code: string; details: Record<string, string[]>; locations: Record<string, string> } };
    expect(error.code).toBe('validation_error');
    expect(Object.keys(error.details)).toEqual(['order']);
    expect(error.locations).toEqual({ order: 'path' });
  });

  it('parses filter[...] comma lists, sort arrays, integers and booleans from the raw query', async () => {
    for (const query of [
      'filter[status]=paid,completed&page=2&sort=-created_at,id&archived=true&undeclared=1',
      'filter%5Bstatus%5D=paid%2Ccompleted&page=2&sort=-created_at%2Cid&archived=true',
    ]) {
      const response = await fetch(`${base}/orders?${query}`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ orders: [] });
      expect(lastCall().request.query).toEqual({
        'filter[status]': ['paid', 'completed'], page: 2, sort: ['-created_at', 'id'], archived: true,
      });
    }
  });

  it('leaves values that do not fit their type as strings, for the validator to reject', async () => {
    const response = await fetch(`${base}/orders?page=abc&archived=yes&filter[status]=paid,lost`);
    expect(response.status).toBe(422);
    const { error } = (await response.json()) as { error: { details: Record<string, string[]> } };
    expect(Object.keys(error.details).sort()).toEqual(['archived', 'filter[status]', 'page']);
    expect(error.details.page!.join()).toMatch(/integer/);
    expect(error.details['filter[status]']!.join()).toMatch(/item 1 .*new, paid, completed/);
  });

  it('hands a valid JSON body and the declared headers (lower-cased) to the handler and writes its response', async () => {
    const response = await post('/orders', { amount: '1.5', currency: 'BTC' }, { 'X-Request-Tag': 'web', 'X-Other': 'ignored' });
    expect(response.status).toBe(201);
    expect(response.headers.get('location')).toBe('/orders/7');
    expect(await response.json()).toEqual({ created: { amount: '1.5', currency: 'BTC' }, scope: 'orders:create' });
    expect(lastCall().request).toMatchObject({ headers: { 'x-request-tag': 'web' }, body: { amount: '1.5', currency: 'BTC' } });
    expect(lastCall().request.headers).not.toHaveProperty('x-other');
  });

  it('rejects an invalid body with details per field', async () => {
    const response = await post('/orders', { amount: 'ten', extra: 1 });
    expect(response.status).toBe(422);
    const { error } = (await response.json()) as { error: { details: Record<string, string[]>; locations: Record<string, string> } };
    expect(error.details.amount).toBeDefined();
    expect(error.details.currency).toEqual(['is required']);
    expect(error.details.extra).toEqual(['is not allowed']);
    expect(error.locations).toEqual({ amount: 'body', currency: 'body', extra: 'body' });
  });

  it('rejects a missing required header and a missing required body', async () => {
    const noHeader = await post('/orders', { amount: '1', currency: 'BTC' }, {});
    expect(noHeader.status).toBe(422);
    expect(((await noHeader.json()) as { error: object }).error).toMatchObject({ details: { 'x-request-tag': ['is required'] }, locations: { 'x-request-tag': 'header' } });
    const noBody = await fetch(`${base}/orders`, { method: 'POST', headers: { 'X-Request-Tag': 'web' } });
    expect(noBody.status).toBe(422);
    expect(((await noBody.json()) as { error: { details: object } }).error.details).toEqual({ body: ['is required'] });
  });

  it('sends a handler exception to the error middleware, and the server keeps serving', async () => {
    const response = await fetch(`${base}/orders/1/fail`, { method: 'POST' });
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: { code: 'internal_error', message: 'handler failed' } });
    expect((await fetch(`${base}/orders/statuses`)).status).toBe(200);
  });

  it('runs route middleware before validation and lets the app answer validation errors', async () => {
    const unauthorized = await fetch(`${base}/guarded/orders?page=abc`);
    expect(unauthorized.status).toBe(401);
    expect(await unauthorized.json()).toEqual({ scope: 'orders:read' });
    const invalid = await fetch(`${base}/guarded/orders?page=abc`, { headers: { authorization: 'Bearer t' } });
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({ custom: true, operationId: 'listOrders', details: { 'query.page': expect.any(Array) } });
  });

  it('exports the route table', () => {
    expect(fixture.shopRoutes.map((r) => r.operationId)).toEqual(['listOrders', 'createOrder', 'getOrder', 'listOrderStatuses', 'failOrder']);
    expect(fixture.shopRoutes.find((r) => r.operationId === 'createOrder')).toMatchObject({
      method: 'post', scope: 'orders:create', idempotency: { header: 'Idempotency-Key', windowSeconds: 86400 },
      body: { contentType: 'application/json', required: true },
    });
    expect(fixture.shopRoutes.find((r) => r.operationId === 'listOrderStatuses')?.scope).toBeNull();
  });

  it('answers 501 in the envelope for an operation without a handler, after the route middleware', async () => {
    const { failOrder: _missing, ...incomplete } = handlers;
    const app = express();
    app.use(fixture.createShopRouter(incomplete, {
      routeMiddleware: () => [(req, res, next) => (req.get('authorization') === undefined ? res.status(401).end() : next())],
    }));
    const server = app.listen(0);
    await once(server, 'listening');
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/orders/1/fail`;
      expect((await fetch(url, { method: 'POST' })).status).toBe(401);
      const response = await fetch(url, { method: 'POST', headers: { authorization: 'Bearer t', 'x-correlation-id': 'c-1' } });
      expect(response.status).toBe(501);
      const requestId = response.headers.get('x-request-id');
      expect(await response.json()).toEqual({
        state: 1, message: 'failOrder is not implemented yet.', result: null, error: { code: 'not_implemented' },
        meta: { request_id: requestId, correlation_id: 'c-1', timestamp: expect.any(String) },
      });
      // An id its schema refuses (pattern, length) fails validation and is not echoed.
      for (const refused of ['C_1', 'c-123456789']) {
        const answer = await fetch(url, { method: 'POST', headers: { authorization: 'Bearer t', 'x-correlation-id': refused } });
        expect({ refused, status: answer.status, meta: ((await answer.json()) as { meta: unknown }).meta }).toMatchObject({ refused, status: 422, meta: { correlation_id: null } });
      }
    } finally {
      server.close();
    }
  });
});

describe('strict compilation', () => {
  it.each(['contracts/exchange-v3.openapi.yaml', 'contracts/deposit-v1.openapi.yaml'])(
    'the routes.ts of %s compiles under strict tsc with its types and validators',
    async (file) => {
      const model = await load(file);
      const dir = tempDir();
      writeFiles(dir, await generatedFiles(model));
      const options = ts.parseJsonConfigFileContent(
        JSON.parse(readFileSync(join(repoRoot, 'tsconfig.json'), 'utf8')) as object, ts.sys, repoRoot,
      ).options;
      const program = ts.createProgram([join(dir, model.name, 'routes.ts')], { ...options, noEmit: true });
      const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      expect(diagnostics).toEqual([]);
    },
  );
});
