// Stores `count` orders of the default v3 client as createOrder does (the same check of the body,
// then the order service), without HTTP: each on the first enabled route at its minimum amount,
// with the requisites the route's capabilities ask for and an email of its own, every value
// distinct per order and the body parsed from JSON text, so the order keeps strings as an HTTP
// body gives them (an integrator's order, not a bare one: its requisites, their digests and its
// email are part of what it costs). Each create is timed by `steps` when given.
import type { CreateOrderRequest, OrderRequisites } from '../../../generated/exchange-v3/types.js';
import { routeCapabilities } from '../../../mock-server/domain/exchange/catalog/route-capabilities.js';
import { passesLuhn } from '../../../mock-server/domain/exchange/catalog/requisite-formats.js';
import { checkOrderRequest } from '../../../mock-server/domain/exchange/order-request.js';
import type { Sandbox } from '../../../mock-server/sandbox.js';
import { untimed } from './slow-steps.js';

type Field = keyof OrderRequisites;

export async function seedOrders(sandbox: Sandbox, count: number, steps = untimed): Promise<void> {
  const clientId = String(sandbox.defaultKey.client.id);
  const { catalog } = sandbox.services;
  const route = [...catalog.routes.values()].find((r) => catalog.state(r).enabled);
  if (route === undefined) throw new Error('no enabled route to order on');
  const { requisites } = routeCapabilities(catalog.state(route));
  if (requisites === undefined) throw new Error(`route ${route.id} publishes no requisites`);
  // The schema's `required` names every field of both sides; each property has a passing example.
  const schema = requisites.schema as { required: Field[]; properties: Record<Field, { examples: string[] }> };
  const service = sandbox.services.orders;
  for (let i = 0; i < count; i += 1) {
    const values = Object.fromEntries(schema.required.map((field) => [field, ownValue(field, schema.properties[field].examples[0]!, i)]));
    const text = JSON.stringify({ route_id: route.id, amount: route.minGive, amount_side: 'give', requisites: values, email: `payer.${i}@example.com` });
    const body = JSON.parse(text) as CreateOrderRequest;
    const { outcome } = checkOrderRequest(sandbox.services, clientId, body);
    if (!outcome.ok) throw new Error(`cannot create a seeded order: ${JSON.stringify(outcome.details)}`);
    steps.time(() => service.create(clientId, outcome.draft, { requestId: `req_seed_${i}`, correlationId: null, idempotencyKey: null }, body.requisites));
    // Order events go to the webhook store as they are emitted; let them settle now and then.
    if (i % 10_000 === 9_999) await service.flush();
  }
  await service.flush();
}

/**
 * The capabilities' example for `field`, made the order's own: its last characters replaced by
 * `n` written in the characters the example's tail already uses (so it keeps the field's format),
 * a card number's check digit then recomputed (the Luhn check).
 */
function ownValue(field: Field, example: string, n: number): string {
  const card = field.endsWith('_card_number');
  const tailEnd = card ? example.length - 1 : example.length;
  const alphabet = [...new Set(example.slice(Math.max(0, tailEnd - 12), tailEnd))].sort().join('');
  if (alphabet.length < 2) return example;
  let digits = '';
  for (let rest = n; rest > 0 || digits.length < 7; rest = Math.floor(rest / alphabet.length)) digits = alphabet[rest % alphabet.length]! + digits;
  const value = example.slice(0, tailEnd - digits.length) + digits;
  if (!card) return value;
  const check = [...'0123456789'].find((d) => passesLuhn(value + d))!;
  return value + check;
}
