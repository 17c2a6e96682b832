// POST /private/exchange/quotes and POST /private/exchange/orders/preflight: pricing an amount
// on a route (held as a quote for its TTL), and every check of order creation on an order body
// without creating anything (domain/exchange/order-request.ts).
import type { ExchangeV3Handlers } from '../../generated/exchange-v3/routes.js';
import { priceAmount } from '../domain/exchange/amount-check.js';
import { snapshotHash, staleSnapshotMessage } from '../domain/exchange/catalog/route-state.js';
import { inspectOrderRequest } from '../domain/exchange/order-request.js';
import { HttpError } from '../http/http-error.js';
import { v3Success } from '../http/respond.js';
import type { Sandbox } from '../sandbox.js';
import { clientOf } from './v3-request.js';

const invalid = (field: string, message: string) => new HttpError('validation_error', 'The given data was invalid.', { [field]: [message] });

export function quoteHandlers(sandbox: Sandbox): Pick<ExchangeV3Handlers, 'createQuote' | 'preflightOrder'> {
  const { clock } = sandbox;
  return {
    createQuote: (request, context) => {
      const { body } = request;
      const catalog = sandbox.services.catalog;
      // The contract answers an unknown route with 422 (createQuote declares no 404).
      const route = catalog.route(body.route_id);
      if (route === undefined) throw invalid('body.route_id', 'is not a route');
      const state = catalog.state(route);
      if (!state.enabled) throw invalid('body.route_id', `names a suspended route: ${state.disabledReason}`);
      if (body.snapshot_hash !== undefined && body.snapshot_hash !== snapshotHash(state)) {
        throw new HttpError('quote_expired', 'The route changed since the snapshot; read the route details again.', {
          'body.snapshot_hash': [staleSnapshotMessage],
        });
      }
      const side = body.amount_side ?? 'give';
      const priced = priceAmount(state, body.amount, side);
      if (!priced.ok) throw invalid('body.amount', priced.message);
      const quote = sandbox.services.quotes.create(clientOf(context), state, side, priced.priced);
      return v3Success('createQuote', context, clock, 200, { quote });
    },

    preflightOrder: (request, context) => {
      const { preflight } = inspectOrderRequest(sandbox.services, clientOf(context), request.body);
      return v3Success('preflightOrder', context, clock, 200, { preflight });
    },
  };
}
