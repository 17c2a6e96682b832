// Type tests of the MOCK's handlers, checked by `tsc --noEmit` and never executed: the mock's
// handler maps are the generated handler interfaces, and its success helpers (http/respond.ts)
// check status and payload against the operation, so a mock answer its contract does not
// declare does not compile. `@ts-expect-error` lines are the answers that must not compile.
import { describe, expectTypeOf, test } from 'vitest';
import type { DepositV1Handlers } from '../../generated/deposit-v1/routes.js';
import type { ExchangeV3Handlers } from '../../generated/exchange-v3/routes.js';
import type { HandlerContext } from '../../generated/runtime/router-runtime.js';
import type { SandboxControlHandlers } from '../../generated/sandbox-control/routes.js';
import type { OrderPreflight, Quote } from '../../generated/exchange-v3/types.js';
import type { Clock } from '../../mock-server/clock.js';
import type { controlHandlers } from '../../mock-server/control/handlers.js';
import type { depositHandlers } from '../../mock-server/handlers/v1-deposits.js';
import type { quoteHandlers } from '../../mock-server/handlers/v3-quotes.js';
import { controlSuccess, v1Success, v3Success } from '../../mock-server/http/respond.js';

declare const context: HandlerContext;
declare const clock: Clock;
declare const quote: Quote;
declare const preflight: OrderPreflight;

describe("the mock's handler maps", () => {
  test('are the generated handler interfaces, not unchecked ones', () => {
    expectTypeOf<ReturnType<typeof quoteHandlers>>().toEqualTypeOf<Pick<ExchangeV3Handlers, 'createQuote' | 'preflightOrder'>>();
    expectTypeOf<ReturnType<typeof depositHandlers>>().toEqualTypeOf<
      Pick<DepositV1Handlers, 'createDeposit' | 'getDeposit' | 'getDepositByOrderId' | 'listDeposits' | 'refreshDeposit'>
    >();
    expectTypeOf<ReturnType<typeof controlHandlers>>().toEqualTypeOf<SandboxControlHandlers>();
  });
});

describe("the mock's success helpers", () => {
  test('build the declared answer of the operation', () => {
    const handlers: Partial<ExchangeV3Handlers> = {
      createQuote: () => v3Success('createQuote', context, clock, 200, { quote }),
    };
    expectTypeOf(handlers).not.toBeAny();
  });

  test('a v3 payload of the wrong shape does not compile', () => {
    const handlers: Partial<ExchangeV3Handlers> = {
      // @ts-expect-error the result of createQuote is { quote }, not the quote itself
      createQuote: () => v3Success('createQuote', context, clock, 200, quote),
    };
    expectTypeOf(handlers).not.toBeAny();
  });

  test('a misspelt field of a v3 result does not compile (the envelope index signature is gone)', () => {
    const handlers: Partial<ExchangeV3Handlers> = {
      // @ts-expect-error `qoute` is not a field of the createQuote result
      createQuote: () => v3Success('createQuote', context, clock, 200, { quote, qoute: quote }),
    };
    expectTypeOf(handlers).not.toBeAny();
  });

  test('an undeclared status does not compile', () => {
    const handlers: Partial<ExchangeV3Handlers> = {
      // @ts-expect-error createQuote answers 200, not 201
      createQuote: () => v3Success('createQuote', context, clock, 201, { quote }),
    };
    expectTypeOf(handlers).not.toBeAny();
  });

  test("another operation's answer does not compile", () => {
    const handlers: Partial<ExchangeV3Handlers> = {
      // @ts-expect-error the handler of createQuote answers with the (well-formed) reply of preflightOrder
      createQuote: () => v3Success('preflightOrder', context, clock, 200, { preflight }),
    };
    expectTypeOf(handlers).not.toBeAny();
  });

  test('a v1 `data` of the wrong type does not compile', () => {
    const handlers: Partial<DepositV1Handlers> = {
      // @ts-expect-error listAssets answers a list of assets, not an object
      listAssets: () => v1Success('listAssets', context, clock, 200, { assets: [] }),
    };
    expectTypeOf(handlers).not.toBeAny();
  });

  test('a control API result of the wrong type does not compile', () => {
    const handlers: Partial<SandboxControlHandlers> = {
      // @ts-expect-error clearFaults answers { cleared } with a count, not a boolean
      clearFaults: () => controlSuccess('clearFaults', context, clock, 200, { cleared: true }),
    };
    expectTypeOf(handlers).not.toBeAny();
  });
});
