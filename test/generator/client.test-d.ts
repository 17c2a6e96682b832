// Type tests of the GENERATED clients (generated/<contract>/client.ts), checked by `tsc --noEmit`
// and never executed; still, nothing here would act if it ran: every call sits in a function
// nobody invokes, taking the client as a parameter, and the assertions are on types.
// `@ts-expect-error` lines are the calls that must not compile.
import { describe, expectTypeOf, test } from 'vitest';
import {
  DepositV1Client,
  depositV1SignatureScheme,
  type CreateDepositInput,
  type ListStaticAddressPaymentsInput,
} from '../../generated/deposit-v1/client.js';
import type { Deposit } from '../../generated/deposit-v1/types.js';
import {
  ApiError,
  ExchangeV3Client,
  exchangeV3SignatureScheme,
  type CreateOrderInput,
  type ExchangeV3ClientOptions,
  type GetOrderInput,
  type ListOrdersInput,
} from '../../generated/exchange-v3/client.js';
import type { Order, OrderStatus } from '../../generated/exchange-v3/types.js';
import type { SignatureScheme } from '../../generated/runtime/client-runtime.js';

/** The item type an async iterator yields. */
type Yielded<T> = T extends AsyncIterableIterator<infer Item> ? Item : never;
/** The parsed body of a successful call of a client method. */
type BodyOf<Method extends (...args: never[]) => Promise<{ body: unknown }>> = Awaited<ReturnType<Method>>['body'];

describe('ExchangeV3Client', () => {
  test('is built from a base URL and a token; the error format is the contract’s, not the caller’s', () => {
    expectTypeOf(ExchangeV3Client).constructorParameters.toEqualTypeOf<[options: ExchangeV3ClientOptions]>();
    expectTypeOf<ExchangeV3ClientOptions>().not.toHaveProperty('errorFormat');
    expectTypeOf<ExchangeV3ClientOptions>().toHaveProperty('basePath').toEqualTypeOf<string | undefined>();

    function construct(baseUrl: string, token: string) {
      new ExchangeV3Client({ baseUrl, token });
      // @ts-expect-error errorFormat is fixed by the generated client
      new ExchangeV3Client({ baseUrl, token, errorFormat: 'v1' });
      // @ts-expect-error baseUrl is required
      new ExchangeV3Client({ token });
    }
    expectTypeOf(construct).toBeFunction();
  });

  test('getOrder requires the order path parameter', () => {
    expectTypeOf<ExchangeV3Client['getOrder']>().parameters.toEqualTypeOf<[input: GetOrderInput]>();
    expectTypeOf<GetOrderInput['path']>().toEqualTypeOf<{ order: string }>();

    function call(v3: ExchangeV3Client) {
      void v3.getOrder({ path: { order: '42' } });
      // @ts-expect-error the input (and its path) is required
      void v3.getOrder();
      // @ts-expect-error path is required
      void v3.getOrder({});
      // @ts-expect-error the path parameter is `order`
      void v3.getOrder({ path: { id: '42' } });
    }
    expectTypeOf(call).toBeFunction();
  });

  test('the getOrder result types the order status as the OrderStatus union', () => {
    type Body = BodyOf<ExchangeV3Client['getOrder']>;
    expectTypeOf<Body['result']['order']['status']>().toEqualTypeOf<OrderStatus>();
    expectTypeOf<Body['result']['order']>().toEqualTypeOf<Order>();
    expectTypeOf<OrderStatus>().toEqualTypeOf<
      'awaiting_payment' | 'paid' | 'verification_hold' | 'processing' | 'completed' | 'cancelled' | 'expired' | 'error' | 'refunded'
    >();
  });

  test('listOrders takes an optional input whose filter[status] is a list of OrderStatus', () => {
    expectTypeOf<ExchangeV3Client['listOrders']>().parameters.toEqualTypeOf<[input?: ListOrdersInput]>();
    expectTypeOf<NonNullable<ListOrdersInput['query']>['filter[status]']>().toEqualTypeOf<OrderStatus[] | undefined>();

    function call(v3: ExchangeV3Client) {
      void v3.listOrders();
      void v3.listOrders({ query: { 'filter[status]': ['paid', 'completed'], per_page: 2 } });
      // @ts-expect-error 'shipped' is not an OrderStatus
      void v3.listOrders({ query: { 'filter[status]': ['paid', 'shipped'] } });
      // @ts-expect-error a comma list is passed as an array, not as a joined string
      void v3.listOrders({ query: { 'filter[status]': 'paid,completed' } });
      // @ts-expect-error per_page is a number
      void v3.listOrders({ query: { per_page: '2' } });
    }
    expectTypeOf(call).toBeFunction();
  });

  test('listOrdersAll yields Order items', () => {
    expectTypeOf<Yielded<ReturnType<ExchangeV3Client['listOrdersAll']>>>().toEqualTypeOf<Order>();
    expectTypeOf<ExchangeV3Client['listOrdersAll']>().parameter(1).toEqualTypeOf<'page' | 'cursor' | undefined>();
  });

  test('createOrder has a typed body', () => {
    expectTypeOf<CreateOrderInput['body']['email']>().toEqualTypeOf<string>();

    function call(v3: ExchangeV3Client) {
      void v3.createOrder({ body: { quote_id: 'q_1', email: 'a@example.com', requisites: { to_address: 'bc1q' } } });
      void v3.createOrder({
        body: { route_id: 7, amount: '100.00', email: 'a@example.com', requisites: {} },
        headers: { 'Idempotency-Key': 'key-0001', 'X-Correlation-Id': 'corr-1' },
      });
      // @ts-expect-error email is a string
      void v3.createOrder({ body: { quote_id: 'q_1', email: 42, requisites: {} } });
      // @ts-expect-error route_id is a number
      void v3.createOrder({ body: { route_id: '7', amount: '1', email: 'a@example.com', requisites: {} } });
      // @ts-expect-error the body is required
      void v3.createOrder({});
    }
    expectTypeOf(call).toBeFunction();
  });
});

describe('DepositV1Client', () => {
  test('createDeposit requires order_id and asset', () => {
    expectTypeOf<CreateDepositInput['body']>().toHaveProperty('order_id').toEqualTypeOf<string>();
    expectTypeOf<CreateDepositInput['body']>().toHaveProperty('asset').toEqualTypeOf<string>();

    function call(v1: DepositV1Client) {
      void v1.createDeposit({ body: { order_id: 'o-1', asset: 'USDT' } });
      // @ts-expect-error order_id is required
      void v1.createDeposit({ body: { asset: 'USDT' } });
      // @ts-expect-error asset is required
      void v1.createDeposit({ body: { order_id: 'o-1' } });
      // @ts-expect-error lifetime is a number of seconds
      void v1.createDeposit({ body: { order_id: 'o-1', asset: 'USDT', lifetime: '60' } });
    }
    expectTypeOf(call).toBeFunction();
  });

  test('listDepositsAll yields Deposit items', () => {
    expectTypeOf<Yielded<ReturnType<DepositV1Client['listDepositsAll']>>>().toEqualTypeOf<Deposit>();
  });
});

describe('shared runtime exports', () => {
  test('ApiError carries the HTTP status, code, details and request id', () => {
    expectTypeOf<ApiError>().toExtend<Error>();
    expectTypeOf<ApiError['status']>().toEqualTypeOf<number>();
    expectTypeOf<ApiError['code']>().toEqualTypeOf<string>();
    expectTypeOf<ApiError['details']>().toEqualTypeOf<Record<string, string[]>>();
    expectTypeOf<ApiError['requestId']>().toEqualTypeOf<string | undefined>();
  });

  test('the contracts’ signature schemes fit the runtime’s SignatureScheme', () => {
    expectTypeOf(exchangeV3SignatureScheme).toExtend<SignatureScheme>();
    expectTypeOf(depositV1SignatureScheme).toExtend<SignatureScheme>();
  });
});

describe('regressions', () => {
  test('an iterator over a list with a path parameter requires its input', () => {
    expectTypeOf<DepositV1Client['listStaticAddressPaymentsAll']>().parameter(0).toEqualTypeOf<ListStaticAddressPaymentsInput>();
  });
});
