// The contracts hold exactly the endpoints of contracts/endpoints.tsv, each with the scope
// the seed gives it, and every operation follows the conventions of contracts/README.md.
import SwaggerParser from '@apidevtools/swagger-parser';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  apiContracts, contractsDir, isObject, loadContract, loadSeedEndpoints, operationsOf, resolveLocal,
  type Family, type Json, type JsonObject, type Operation,
} from '../support/contracts.js';

const seed = loadSeedEndpoints();
const documents: Record<Family, JsonObject> = { v3: loadContract('v3'), v1: loadContract('v1') };
const operations: Operation[] = [...operationsOf('v3', documents.v3), ...operationsOf('v1', documents.v1)];
const key = (family: string, method: string, path: string): string => `${family} ${method} ${path}`;
const find = (family: Family, method: string, path: string): Operation | undefined =>
  operations.find((op) => op.family === family && op.method === method && op.path === path);

function parametersOf({ family, operation }: Operation): JsonObject[] {
  const list = Array.isArray(operation.parameters) ? operation.parameters : [];
  return list.map((p) => resolveLocal(documents[family], p)).filter(isObject);
}
const hasHeader = (op: Operation, name: string): boolean =>
  parametersOf(op).some((p) => p.in === 'header' && p.name === name);

describe('endpoints.tsv ⇔ contracts', () => {
  it('the seed lists 90 endpoints', () => {
    expect(seed).toHaveLength(90);
  });

  it('the contracts hold exactly the seed method + path pairs, nothing else', () => {
    const want = seed.map((e) => key(e.family, e.method, e.path)).sort();
    const have = operations.map((op) => key(op.family, op.method, op.path)).sort();
    expect(have).toEqual(want);
  });

  it('the v3 server is relative to /api/v3 and v1 paths start with /v1/public', () => {
    const servers = documents.v3.servers;
    expect(Array.isArray(servers) && isObject(servers[0]) ? servers[0].url : null).toMatch(/\/api\/v3$/);
    for (const op of operations.filter((o) => o.family === 'v1')) expect(op.path).toMatch(/^\/v1\/public\//);
  });

  it.each(seed)('$family $method $path has the seed auth "$auth"', ({ family, method, path, auth }) => {
    const op = find(family, method, path);
    expect(op, 'operation missing').toBeDefined();
    const operation = op?.operation ?? {};
    if (family === 'v1') {
      expect(auth).toBe('hmac');
      expect(operation.security ?? documents.v1.security).toEqual([{ hmac: [] }]);
      expect('x-scope' in operation).toBe(false);
    } else if (auth === 'none') {
      expect(operation.security).toEqual([]);
      expect('x-scope' in operation).toBe(false);
    } else {
      // Private: the root security (Bearer) applies, and x-scope holds the seed's scope.
      expect('security' in operation).toBe(false);
      expect('x-scope' in operation).toBe(true);
      expect(operation['x-scope']).toBe(auth === 'any active key' ? null : auth);
    }
  });
});

describe('operation conventions', () => {
  it('operationIds are unique across the contracts', () => {
    const ids = operations.map((op) => op.operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('every x-scope has the form group:resource:action (2 to 4 parts)', () => {
    for (const op of operations) {
      const scope: Json | undefined = op.operation['x-scope'];
      if (typeof scope === 'string') expect(scope).toMatch(/^[a-z][a-z-]*(:[a-z][a-z_-]*){1,3}$/);
    }
  });

  describe.each(operations)('$family $method $path', (op) => {
    const { family, method, path, operation } = op;
    const doc = documents[family];

    it('has a camelCase operationId, one declared tag, a summary and a description', () => {
      expect(operation.operationId).toMatch(/^[a-z][a-zA-Z0-9]*$/);
      const declared = (Array.isArray(doc.tags) ? doc.tags : []).map((t) => (isObject(t) ? t.name : null));
      expect(operation.tags).toHaveLength(1);
      expect(declared).toContain((operation.tags as Json[])[0]);
      expect(typeof operation.summary).toBe('string');
      expect(typeof operation.description).toBe('string');
    });

    it('declares a success and at least one client-error response', () => {
      const statuses = Object.keys(isObject(operation.responses) ? operation.responses : {});
      expect(statuses.some((s) => s.startsWith('2'))).toBe(true);
      expect(statuses.some((s) => s.startsWith('4'))).toBe(true);
    });

    it('declares every path template parameter, and 404 for addressed resources', () => {
      const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const declared = parametersOf(op).filter((p) => p.in === 'path').map((p) => p.name);
      expect(declared.sort()).toEqual(names.sort());
      if (names.length > 0) expect(Object.keys(operation.responses as JsonObject)).toContain('404');
    });

    if (family === 'v3') {
      it('accepts X-Correlation-Id (≤ 128 characters, else 422)', () => {
        expect(hasHeader(op, 'X-Correlation-Id')).toBe(true);
        expect(Object.keys(operation.responses as JsonObject)).toContain('422');
      });
      if (['POST', 'PATCH', 'DELETE'].includes(method)) {
        it('accepts Idempotency-Key and declares it in x-idempotency', () => {
          expect(hasHeader(op, 'Idempotency-Key')).toBe(true);
          expect(operation['x-idempotency']).toEqual({ header: 'Idempotency-Key', window_seconds: 86400 });
        });
      }
    }

    if (isObject(operation['x-pagination'])) {
      it('is a list with page and cursor parameters', () => {
        const names = parametersOf(op).filter((p) => p.in === 'query').map((p) => p.name);
        expect(names).toEqual(expect.arrayContaining(family === 'v3'
          ? ['page', 'per_page', 'pagination', 'cursor']
          : ['page', 'perPage', 'cursor']));
      });
    }
  });
});

describe.each(Object.entries(apiContracts))('%s contract (%s)', (_family, file) => {
  it('is valid OpenAPI 3.1 for swagger-parser, with every $ref resolving', async () => {
    const api = await SwaggerParser.validate(join(contractsDir, file));
    expect(api).toHaveProperty('openapi', '3.1.0');
  });
});
