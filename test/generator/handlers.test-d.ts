// Type tests of the GENERATED handler interfaces (generated/<contract>/routes.ts), checked by
// `tsc --noEmit` and never executed. A handler's answer is a union of its operation's declared
// responses: `@ts-expect-error` lines are the answers that must not compile (an undeclared
// status, a body of the wrong shape, a header the status does not declare, a payload of the wrong
// type for the success helper).
import { describe, expectTypeOf, test } from 'vitest';
import { depositV1Success, type DepositV1Handlers } from '../../generated/deposit-v1/routes.js';
import { exchangeV3NotImplemented, exchangeV3Success, type ExchangeV3Handlers, type HandlerReply } from '../../generated/exchange-v3/routes.js';
import type { EnvelopeMeta, ErrorEnvelope } from '../../generated/exchange-v3/types.js';

declare const meta: EnvelopeMeta;
declare const error: ErrorEnvelope;

describe('ExchangeV3Handlers', () => {
  test('an answer is one of the declared statuses with its body, or the 501', () => {
    const handlers: Partial<ExchangeV3Handlers> = {
      ping: () => ({ status: 200, body: { state: 0, message: 'pong', result: null, meta } }),
      privatePing: () => ({ status: 401, body: error }),
      listPublicOrderStatuses: (_request, context) => exchangeV3NotImplemented(context),
      listOrders: (_request, context) => exchangeV3Success('listOrders', context, 200, { orders: [] }),
    };
    expectTypeOf(handlers).not.toBeAny();
  });

  test('an undeclared status does not compile', () => {
    const handlers: Partial<ExchangeV3Handlers> = {
      // @ts-expect-error ping declares 200 and 422, not 404
      ping: () => ({ status: 404, body: error }),
    };
    expectTypeOf(handlers).not.toBeAny();
  });

  test('a body of the wrong shape does not compile', () => {
    const handlers: Partial<ExchangeV3Handlers> = {
      // @ts-expect-error the 200 of listPublicOrderStatuses carries { statuses: [...] } as result, not a string
      listPublicOrderStatuses: () => ({ status: 200, body: { state: 0, message: 'OK', result: 'new,paid', meta } }),
    };
    expectTypeOf(handlers).not.toBeAny();
  });

  test('the success helper checks the status and the payload against the operation', () => {
    const wrongStatus: Partial<ExchangeV3Handlers> = {
      // @ts-expect-error listOrders answers 200, not 201
      listOrders: (_request, context) => exchangeV3Success('listOrders', context, 201, { orders: [] }),
    };
    const wrongPayload: Partial<ExchangeV3Handlers> = {
      // @ts-expect-error the payload of listOrders is { orders }, not a list
      listOrders: (_request, context) => exchangeV3Success('listOrders', context, 200, []),
    };
    expectTypeOf(wrongStatus).toEqualTypeOf(wrongPayload);
  });

  test('a reply sets the headers its status declares, and no others', () => {
    const declared: Partial<ExchangeV3Handlers> = {
      ping: () => ({ status: 200, headers: { 'X-Request-Id': 'req_1' }, body: { state: 0, message: 'pong', result: null, meta } }),
    };
    const undeclared: Partial<ExchangeV3Handlers> = {
      // @ts-expect-error ping's 200 declares X-Request-Id, not Retry-After
      ping: () => ({ status: 200, headers: { 'Retry-After': '5' }, body: { state: 0, message: 'pong', result: null, meta } }),
    };
    expectTypeOf(declared).toEqualTypeOf(undeclared);
  });

  test('HandlerReply is the union of the declared answers', () => {
    expectTypeOf<HandlerReply<'ping'>['status']>().toEqualTypeOf<200 | 422 | 501>();
  });
});

describe('DepositV1Handlers', () => {
  test('the success helper wraps the v1 `data`', () => {
    const handlers: Partial<DepositV1Handlers> = {
      listAssets: (_request, context) => depositV1Success('listAssets', context, 200, []),
      // @ts-expect-error a v1 asset list is an array, not an object
      listNetworks: (_request, context) => depositV1Success('listNetworks', context, 200, { networks: [] }),
    };
    expectTypeOf(handlers).not.toBeAny();
  });
});
