// Stores `count` orders of the default v3 client through the order service, each priced on the
// first enabled route at its minimum amount (the path createOrder takes, without HTTP).
import type { Sandbox } from '../../../mock-server/sandbox.js';
import { simulationDraft } from '../../../mock-server/domain/exchange/order-simulation-draft.js';

export async function seedOrders(sandbox: Sandbox, count: number): Promise<void> {
  const client = sandbox.defaultKey.client;
  const clientId = String(client.id);
  const catalog = sandbox.services.catalog;
  const route = [...catalog.routes.values()].find((r) => catalog.state(r).enabled);
  if (route === undefined) throw new Error('no enabled route to order on');
  const service = sandbox.services.orders;
  for (let i = 0; i < count; i += 1) {
    const drafted = simulationDraft(sandbox.services, { clientId, email: client.email, body: { route_id: route.id, amount: route.minGive, amount_side: 'give' }, random: sandbox.random });
    if (!drafted.ok) throw new Error(`cannot draft an order: ${drafted.field} ${drafted.message}`);
    service.create(clientId, drafted.draft, { requestId: `req_seed_${i}`, correlationId: null, idempotencyKey: null });
    // Order events go to the webhook store as they are emitted; let them settle now and then.
    if (i % 10_000 === 9_999) await service.flush();
  }
  await service.flush();
}
