// The sandbox simulation (simulateOrder): a scratch order run through the same lifecycle as live
// orders (order-lifecycle.ts), every event applied in turn at one instant. Nothing is stored and
// nothing is emitted: the scratch order's ids come from a Random of its own, so the live streams
// (order ids, webhook ids) are untouched and a later real order gets the ids it would have got.
import type { OrderSimulation, SimulatedEvent, SimulatedTransition } from '../../../generated/exchange-v3/types.js';
import { orderMachine, type OrderEvent } from '../../../generated/machines.js';
import type { Random } from '../../random.js';
import { randomUuid } from '../webhooks/ids.js';
import { fireOrderEvent, newOrderRecord, type StepListener } from './order-lifecycle.js';
import { createdEventData, presentOrder, statusChangedEventData } from './order-present.js';
import type { OrderDraft } from './order-records.js';
import { derivedDigests } from './requisite-digests.js';
import { newPublicId } from './order-service.js';

export interface SimulationInput {
  clientId: string;
  draft: OrderDraft;
  events: readonly OrderEvent[];
  /** X-Correlation-Id of the simulating request (a real order keeps its creator's). */
  correlationId: string | null;
  now: Date;
  /** The scratch ids' source: never a live stream of the sandbox. */
  random: Random;
}

/** Scratch ids: `SB` public ids and ids above the live range, so they never read as a real order's. */
const scratchIds = { min: 900_000, max: 999_999, publicIdPrefix: 'SB' } as const;

export function simulateOrder(input: SimulationInput): OrderSimulation {
  const { random, now } = input;
  const order = newOrderRecord(
    {
      id: random.int(scratchIds.min, scratchIds.max),
      publicId: newPublicId(random, scratchIds.publicIdPrefix),
      trackingId: randomUuid(random),
      clientId: input.clientId,
      draft: input.draft,
      correlationId: input.correlationId,
      requisiteDigests: derivedDigests,
    },
    now,
  );
  // The contract's SimulatedEvent.type enum is the machine's order.* event types.
  const events: SimulatedEvent[] = [];
  if (orderMachine.createdEmits !== null) events.push({ type: orderMachine.createdEmits as SimulatedEvent['type'], payload: createdEventData(order) });
  const transitions: SimulatedTransition[] = [];
  const onStep: StepListener = (scratch, step) => {
    const { from, event, to, emits } = step.transition;
    transitions.push({ from, event, to, allowed: true, reason: null });
    if (emits !== null) events.push({ type: emits as SimulatedEvent['type'], payload: statusChangedEventData(scratch, step) });
  };
  for (const event of input.events) {
    const result = fireOrderEvent(order, event, now, {}, onStep);
    // A refused event is reported and skipped; the later ones still run (the contract's x-assumption).
    if (!result.ok) transitions.push({ from: order.status, event, to: null, allowed: false, reason: result.reason });
  }
  return { order: presentOrder(order), transitions, events, final_status: order.status };
}
