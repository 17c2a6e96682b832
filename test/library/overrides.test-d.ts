// Type tests of per-test overrides (`mock.use`) as the package entry types them, checked by
// `tsc --noEmit` and never executed: every call sits in a function nobody invokes. The handler's
// request is the operation's; its answer must be a status the operation declares with that
// status's payload, or an error code of that status. `@ts-expect-error` lines must not compile.
import { describe, expectTypeOf, test } from 'vitest';
import type { DepositV1, ExchangeV3, OverrideContext, OverrideRequest, RunningMockServer } from 'exchange-api-kit';

declare const quote: ExchangeV3.Quote;
declare const deposit: DepositV1.Deposit;

describe('mock.use', () => {
  test('hands the handler the operation’s validated request and the call’s context', () => {
    expectTypeOf<OverrideRequest<'createQuote'>['body']>().toEqualTypeOf<ExchangeV3.CreateQuoteRequest>();
    expectTypeOf<OverrideRequest<'getDeposit'>['path']>().toEqualTypeOf<DepositV1.GetDepositPathParams>();

    function requests(mock: RunningMockServer) {
      mock.use('createQuote', (request, context) => {
        expectTypeOf(request.body.amount).toEqualTypeOf<ExchangeV3.Amount>();
        expectTypeOf(context).toEqualTypeOf<OverrideContext>();
        // @ts-expect-error createQuote's body has no such field
        void request.body.currency;
        return undefined;
      });
    }
    void requests;
  });

  test('takes the payload of a declared success status, with the meta a list requires', () => {
    function answers(mock: RunningMockServer) {
      mock.use('createQuote', () => ({ status: 200, body: { quote } }));
      mock.use('createQuote', async () => ({ status: 200, body: { quote: { ...quote, rate: '2' } } }));
      mock.use('privatePing', () => ({ status: 200, body: null }));
      mock.use('getDeposit', () => ({ status: 200, body: deposit }));
      mock.use('listDeposits', () => ({ status: 200, body: [deposit], meta: { page: 1, perPage: 20, total: 1, lastPage: 1, nextCursor: null, hasMore: false } }));
      mock.use('getRatesXml', () => ({ status: 200, body: '<rates/>' }));

      // @ts-expect-error a wrong body: rate is a decimal string, not a number
      mock.use('createQuote', () => ({ status: 200, body: { quote: { ...quote, rate: 2 } } }));
      // @ts-expect-error a wrong body: the quote is incomplete
      mock.use('createQuote', () => ({ status: 200, body: { quote: { id: quote.id } } }));
      // @ts-expect-error a body of another operation
      mock.use('getDeposit', () => ({ status: 200, body: { quote } }));
      // @ts-expect-error createQuote answers 200, not 201
      mock.use('createQuote', () => ({ status: 201, body: { quote } }));
      // @ts-expect-error a v1 list needs its meta
      mock.use('listDeposits', () => ({ status: 200, body: [deposit] }));
    }
    void answers;
  });

  test('takes an error code of a declared error status', () => {
    function errors(mock: RunningMockServer) {
      mock.use('createQuote', () => ({ status: 422, error: { code: 'quote_expired', message: 'Re-quote.' } }));
      mock.use('createQuote', () => ({ status: 422, error: { code: 'validation_error', details: { 'body.amount': ['too small'] } } }));
      mock.use('createDeposit', () => ({ status: 409, error: { code: 'IDEMPOTENCY_CONFLICT' } }));

      // @ts-expect-error scope_denied is a 403 code, not a 422 one
      mock.use('createQuote', () => ({ status: 422, error: { code: 'scope_denied' } }));
      // @ts-expect-error createQuote declares no 404
      mock.use('createQuote', () => ({ status: 404, error: { code: 'not_found' } }));
      // @ts-expect-error a v3 code on a v1 operation
      mock.use('createDeposit', () => ({ status: 422, error: { code: 'validation_error' } }));
    }
    void errors;
  });

  test('names v3 and v1 operations only', () => {
    function names(mock: RunningMockServer) {
      // @ts-expect-error no such operation
      mock.use('createQuotes', () => undefined);
      // @ts-expect-error control operations are not overridable
      mock.use('resetSandbox', () => undefined);
      mock.resetOverrides();
    }
    void names;
  });
});
