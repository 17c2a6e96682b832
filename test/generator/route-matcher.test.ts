// The router runtime's transport-independent parts (RouteMatcher, validateRequestParts) on the
// real v3 and v1 route tables and validators: they must find and judge a request exactly as the
// generated routers do, since the validating proxy relies on them.
import { describe, expect, it } from 'vitest';
import { depositV1Routes } from '../../generated/deposit-v1/routes.js';
import { exchangeV3Routes } from '../../generated/exchange-v3/routes.js';
import { operationValidators as v3Validators } from '../../generated/exchange-v3/validators.js';
import { RouteMatcher, validateRequestParts, type OperationValidators } from '../../generated/runtime/router-runtime.js';

const v3 = new RouteMatcher(exchangeV3Routes);
const v1 = new RouteMatcher(depositV1Routes);

describe('RouteMatcher', () => {
  it.each([
    ['GET', '/private/orders/statuses', 'listOrderStatuses', {}],
    ['GET', '/private/exchange/orders/1042?expand=x', 'getExchangeOrder', { order: '1042' }],
    ['HEAD', '/private/ping', 'privatePing', {}],
    ['GET', '/PRIVATE/PING/', 'privatePing', {}],
  ])('%s %s is %s', (method, url, operationId, params) => {
    expect(v3.match(method, url)).toMatchObject({ route: { operationId }, params });
  });

  it('finds nothing for an unknown path or a method the path lacks', () => {
    expect(v3.match('GET', '/private/nothing-here')).toBeUndefined();
    expect(v3.match('DELETE', '/private/ping')).toBeUndefined();
  });

  it('matches the v1 family by its full paths', () => {
    expect(v1.match('GET', '/v1/public/deposits/0b6e2f4a-8c1d-4e3f-a5b7-9c8d7e6f5a4b')?.route.operationId).toBe('getDeposit');
  });
});

describe('validateRequestParts', () => {
  const listOrders = v3.match('GET', '/private/orders')!;
  const validators = (v3Validators as unknown as Record<string, OperationValidators>)[listOrders.route.operationId]!;

  it('is empty for a valid request', () => {
    expect(validateRequestParts(listOrders.route, validators, { params: {}, rawQuery: 'per_page=20&page=2', headers: {}, body: undefined })).toEqual({});
  });

  it('reports a bound and a header as the routers do, whatever the header name case', () => {
    const details = validateRequestParts(listOrders.route, validators, {
      params: {},
      rawQuery: 'per_page=1000',
      headers: { 'X-Correlation-Id': 'x'.repeat(200) },
      body: undefined,
    });
    expect(Object.keys(details).sort()).toEqual(['headers.x-correlation-id', 'query.per_page']);
  });
});
