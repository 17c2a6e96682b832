// An order on BTC → USDT TRC20 for the reviews and partner suites, created through the generated
// client and driven through the order machine with the control API's forced events.
import type { ExchangeV3Client } from '../../../generated/exchange-v3/client.js';
import type { Order } from '../../../generated/exchange-v3/types.js';
import type { OrderMachineEvent } from '../../../generated/sandbox-control/types.js';
import type { TestServer } from './server.js';

export interface OrderOptions {
  /** Machine events to force after creation; default: pay, process, complete. */
  events?: OrderMachineEvent[];
  email?: string;
  /** Give amount; default the route's minimum. */
  amount?: string;
}

export async function btcToUsdtOrder(server: TestServer, client: ExchangeV3Client, options: OrderOptions = {}): Promise<Order> {
  const route = (await client.listRoutes({ query: { 'filter[from]': 'BTC', 'filter[to]': 'USDTTRC20' } })).body.result.routes[0]!;
  const created = await client.createOrder({
    body: {
      route_id: route.id,
      amount: options.amount ?? route.limits.min_give,
      email: options.email ?? 'alice@example.com',
      requisites: { to_address: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE' },
    },
  });
  const { public_id: publicId } = created.body.result.order;
  for (const event of options.events ?? ['pay', 'process', 'complete']) {
    await server.control.forceOrderEvent({ path: { order: publicId }, body: { event } });
  }
  return (await client.getExchangeOrder({ path: { order: publicId } })).body.result.order;
}
