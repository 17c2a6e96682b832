// The sandbox control API (contracts/sandbox-control.openapi.yaml): the mock server's own API,
// under /__mock, apart from the service's two families: its fixed operations, no scopes, its own
// error catalog, and request bodies that take exactly the fields they declare.
import { describe, expect, it } from 'vitest';
import { contractUri, createContractAjv } from '../support/ajv.js';
import {
  isObject, loadContract, operationsOf, resolveLocal, type Json, type JsonObject,
} from '../support/contracts.js';

const doc = loadContract('control');
const operations = operationsOf('control', doc);
const serviceOperations = [...operationsOf('v3'), ...operationsOf('v1')];

/** method path → operationId, as the brief of issue 4 fixes them. */
const EXPECTED: Record<string, string> = {
  'POST /reset': 'resetSandbox',
  'GET /clock': 'getClock',
  'POST /clock/freeze': 'freezeClock',
  'POST /clock/resume': 'resumeClock',
  'POST /clock/advance': 'advanceClock',
  'POST /tokens': 'mintToken',
  'POST /sites': 'createSite',
  // issue 7, sandbox controls
  'POST /webhooks/inbox': 'receiveInboxWebhook',
  'GET /webhooks/inbox': 'listInboxWebhooks',
  'DELETE /webhooks/inbox': 'clearInbox',
  'POST /webhooks/faults': 'setWebhookFault',
  'DELETE /webhooks/faults': 'clearWebhookFaults',
  'POST /webhooks/run-due': 'runDueWebhooks',
  'POST /webhooks/deliveries/{delivery}/retry': 'forceWebhookRetry',
  // issue 6, the simulated chain and AML provider
  'POST /chain/transactions': 'injectChainTransaction',
  'POST /chain/transactions/{hash}/confirmations': 'addChainConfirmations',
  'POST /aml/answers': 'setAmlAnswer',
  'PUT /aml/currencies': 'setAmlCurrencies',
  'GET /aml/provider': 'getAmlProvider',
  // issue 5, the exchange domain
  'POST /orders/{order}/events': 'forceOrderEvent',
  'POST /verifications/{verification}/review': 'reviewVerification',
  // issue 10, the inspector page
  'GET /inspector/state': 'getInspectorState',
  // issue 22, faults injected into API operations
  'POST /faults': 'injectFault',
  'GET /faults': 'listFaults',
  'DELETE /faults': 'clearFaults',
  'DELETE /faults/{fault}': 'removeFault',
  // issue 22, the inspector's searchable, paged tables
  'GET /inspector/records/{kind}': 'listInspectorRecords',
  // issue 22, signing the docs page's deposit v1 "Try it out"
  'POST /signatures/deposit-v1': 'signDepositRequest',
  // issue 22, `exchange-api-kit listen`
  'GET /webhooks/stream': 'streamWebhookEvents',
  // issue 23, every state reachable
  'POST /static-addresses/{static_address}/events': 'forceStaticAddressEvent',
  'POST /reviews/{review}/moderation': 'moderateReview',
  'PUT /reserves/{payment_system}': 'setReserve',
  // issue 17, snapshots
  'GET /state': 'exportSandboxState',
  'PUT /state': 'importSandboxState',
};

const schemaNamed = (name: string): JsonObject => {
  const schemas = isObject(doc.components) && isObject(doc.components.schemas) ? doc.components.schemas : {};
  const schema = schemas[name];
  if (!isObject(schema)) throw new Error(`components.schemas.${name} is missing`);
  return schema;
};

/** Every object schema a request body accepts (through $ref and oneOf). */
function bodyObjects(node: Json): JsonObject[] {
  const schema = resolveLocal(doc, node);
  if (!isObject(schema)) return [];
  if (Array.isArray(schema.oneOf)) return schema.oneOf.flatMap(bodyObjects);
  return [schema];
}

describe('sandbox control operations', () => {
  it('are served under {base_url}/__mock and nowhere else', () => {
    const servers = Array.isArray(doc.servers) ? doc.servers : [];
    expect(servers).toHaveLength(1);
    expect(isObject(servers[0]) ? servers[0].url : null).toBe('{base_url}/__mock');
    const paths = isObject(doc.paths) ? doc.paths : {};
    for (const [path, item] of Object.entries(paths)) {
      expect(isObject(item) && 'servers' in item, `${path} overrides the servers`).toBe(false);
    }
    for (const { method, path, operation } of operations) {
      expect('servers' in operation, `${method} ${path} overrides the servers`).toBe(false);
    }
  });

  it('are exactly the fixed operations with their operationIds', () => {
    const have = Object.fromEntries(operations.map(({ method, path, operation }) => [`${method} ${path}`, operation.operationId]));
    expect(have).toEqual(EXPECTED);
  });

  it('have operationIds disjoint from the v3 and v1 ones', () => {
    const service = new Set(serviceOperations.map(({ operation }) => operation.operationId));
    const clashes = operations.map(({ operation }) => operation.operationId).filter((id) => service.has(id));
    expect(clashes).toEqual([]);
  });

  describe.each(operations)('$method $path', ({ operation }) => {
    const responses = isObject(operation.responses) ? operation.responses : {};

    it('carries no x-scope, one declared tag and the optional admin token', () => {
      expect('x-scope' in operation).toBe(false);
      const tags = (Array.isArray(doc.tags) ? doc.tags : []).map((t) => (isObject(t) ? t.name : null));
      expect(operation.tags).toHaveLength(1);
      expect(tags).toContain((operation.tags as Json[])[0]);
      expect(operation.security ?? doc.security).toEqual([{}, { adminToken: [] }]);
      expect(Object.keys(responses)).toContain('401');
    });

    it('sends X-Request-Id with every response', () => {
      for (const [status, raw] of Object.entries(responses)) {
        const response = resolveLocal(doc, raw);
        const headers = isObject(response) && isObject(response.headers) ? response.headers : {};
        expect(Object.keys(headers), `response ${status}`).toContain('X-Request-Id');
      }
    });

    // The webhook inbox takes any body (`*/*`), unparsed: it is the one body that is not JSON.
    const bodyContent = isObject(operation.requestBody) && isObject(operation.requestBody.content) ? operation.requestBody.content : {};
    if (operation.operationId === 'receiveInboxWebhook') {
      it('takes any body, unparsed', () => {
        expect(Object.keys(bodyContent)).toEqual(['*/*']);
      });
    } else if (isObject(operation.requestBody)) {
      it('takes a JSON body that rejects unknown fields, with 400 and 422 declared', () => {
        const content = isObject(operation.requestBody) && isObject(operation.requestBody.content) ? operation.requestBody.content : {};
        const media = content['application/json'];
        const objects = bodyObjects(isObject(media) ? (media.schema ?? null) : null);
        expect(objects.length).toBeGreaterThan(0);
        for (const object of objects) {
          expect(object.type).toBe('object');
          expect(object.additionalProperties).toBe(false);
        }
        expect(Object.keys(responses)).toEqual(expect.arrayContaining(['400', '422']));
      });
    }
  });
});

describe('sandbox control error catalog', () => {
  const catalog = (Array.isArray(doc['x-error-codes']) ? doc['x-error-codes'] : []).filter(isObject);

  it('has the transport failures of the v3 family with the same statuses (one renderer serves both)', () => {
    const v3 = loadContract('v3')['x-error-codes'];
    const v3Status = new Map((Array.isArray(v3) ? v3 : []).filter(isObject).map((e) => [String(e.code), Number(e.status)]));
    const transport = ['bad_request', 'not_found', 'method_not_allowed', 'payload_too_large', 'unsupported_media_type', 'validation_error', 'internal_error'];
    for (const code of transport) {
      expect(catalog.find((e) => e.code === code)?.status, code).toBe(v3Status.get(code));
    }
  });

  it('covers every error example with its status', () => {
    const responses = isObject(doc.components) && isObject(doc.components.responses) ? doc.components.responses : {};
    const used = operations.flatMap(({ operation }) =>
      Object.entries(isObject(operation.responses) ? operation.responses : {}).filter(([status]) => !status.startsWith('2')));
    expect(used.length).toBeGreaterThan(0);
    for (const [status, raw] of used) {
      const response = resolveLocal(doc, raw);
      const media = isObject(response) && isObject(response.content) ? response.content['application/json'] : null;
      const values = isObject(media)
        ? [...('example' in media ? [media.example] : []), ...Object.values(isObject(media.examples) ? media.examples : {}).map((e) => (isObject(e) ? e.value : null))]
        : [];
      expect(values.length, `a ${status} response without an example`).toBeGreaterThan(0);
      for (const value of values) {
        const code = isObject(value) && isObject(value.error) ? value.error.code : null;
        expect(catalog.find((e) => e.code === code)?.status, `${status}: ${String(code)}`).toBe(Number(status));
      }
    }
    expect(Object.keys(responses)).toEqual(expect.arrayContaining(['BadRequest', 'Unauthorized', 'ValidationFailed']));
  });
});

describe('mint token and create site defaults follow the service contracts', () => {
  it('the default scopes are every scope of the v3 contract, each a valid ScopeName', () => {
    const scopes = schemaNamed('MintTokenRequest').properties;
    const description = isObject(scopes) && isObject(scopes.scopes) ? String(scopes.scopes.description) : '';
    expect(description).toContain('every scope of the v3 contract');
    const pattern = new RegExp(String(schemaNamed('ScopeName').pattern), 'u');
    const v3Scopes = serviceOperations.map(({ operation }) => operation['x-scope']).filter((s) => typeof s === 'string');
    expect(v3Scopes.length).toBeGreaterThan(0);
    for (const scope of v3Scopes) expect(scope).toMatch(pattern);
  });

  it('the rate-limit defaults name the v3 contract\'s info.x-rate-limits, which exist', () => {
    const properties = schemaNamed('MintTokenRequest').properties;
    const v3Info = loadContract('v3').info;
    const limits = isObject(v3Info) && isObject(v3Info['x-rate-limits']) ? v3Info['x-rate-limits'] : {};
    for (const [field, key] of [['rate_limit_per_minute', 'requests_per_minute'], ['quota_daily', 'quota_daily'], ['quota_monthly', 'quota_monthly']] as const) {
      const property = isObject(properties) ? properties[field] : null;
      expect(isObject(property) ? String(property.description) : '').toContain(`\`${key}\` of the v3 contract's \`info.x-rate-limits\``);
      expect(isObject(property) && 'default' in property, `${field} restates a default`).toBe(false);
      expect(typeof limits[key]).toBe('number');
    }
  });

  it('every v1 deposit webhook event type is a valid WebhookEventTypeName', () => {
    const v1Types = resolveLocal(loadContract('v1'), { $ref: '#/components/schemas/WebhookEventType' });
    const types = isObject(v1Types) && Array.isArray(v1Types.enum) ? v1Types.enum : [];
    const pattern = new RegExp(String(schemaNamed('WebhookEventTypeName').pattern), 'u');
    expect(types.filter((t) => String(t).startsWith('deposit.')).length).toBeGreaterThan(0);
    for (const type of types) expect(type).toMatch(pattern);
  });
});

describe('advanceClock body', () => {
  const ajv = createContractAjv(['control']);
  const validate = ajv.compile({ $ref: `${contractUri('control')}#/components/schemas/AdvanceClockRequest` });

  it.each<[string, unknown, boolean]>([
    ['seconds', { seconds: 1860 }, true],
    ['fractional seconds', { seconds: 0.5 }, true],
    ['a year of seconds', { seconds: 31536000 }, true],
    ['a minute duration', { duration: 'PT31M' }, true],
    ['days and hours', { duration: 'P1DT2H' }, true],
    ['fractional seconds duration', { duration: 'PT1.5S' }, true],
    ['weeks', { duration: 'P2W' }, true],
    ['both', { seconds: 60, duration: 'PT1M' }, false],
    ['neither', {}, false],
    ['zero seconds', { seconds: 0 }, false],
    ['more than a year', { seconds: 31536001 }, false],
    ['seconds as a string', { seconds: '60' }, false],
    ['a bare P', { duration: 'P' }, false],
    ['a T without time', { duration: 'P1DT' }, false],
    ['a lower-case duration', { duration: 'pt1m' }, false],
    ['an unknown field', { seconds: 60, minutes: 1 }, false],
  ])('%s (%j) is valid: %s', (_name, body, valid) => {
    expect(validate(body)).toBe(valid);
  });
});
