// The v3 flow quote → preflight → order → status/actions (--allow-writes): every enabled route in
// turn is quoted at its smallest amount and preflighted with requisites built from its own
// capabilities until one accepts, the order is created (checking idempotency) and read back,
// then driven along the order machine to its farthest terminal state: client events through the
// operations the machine names (`via`: confirmOrder…), the others, under --sandbox, through
// forceOrderEvent. Every other client event from the initial state is fired on an order of its
// own (cancelOrder, deleteOrder); the finished order is reviewed. Each transition taken, the
// observed statuses and the order's own status history must be legal for the order machine; a
// simulation's transitions too.
import { randomUUID } from 'node:crypto';
import type { CreateReviewRequest, ExchangeRoute, Order, OrderStatusHistoryEntry } from '../../generated/exchange-v3/types.js';
import { orderMachine } from '../../generated/machines.js';
import type { OrderMachineEvent } from '../../generated/sandbox-control/types.js';
import { documentedParameters, requestExample } from '../contract/document.js';
import { families, routeOf } from '../contract/families.js';
import type { RunContext } from '../context.js';
import { longestRunToTerminal, sequenceProblems, withoutRepeats, type AnyTransition } from '../judge/machine.js';
import { flowStep, judgeStep } from './flow-step.js';
import { sendIdempotent } from './idempotency.js';
import { describeError, parseBody, successProblems } from './judge-call.js';
import { buildRequisites } from './order-requisites.js';
import { StepRows } from './step-rows.js';
import { missingCredentials } from './operations.js';
import { checkVerificationFlow } from './verification-flow.js';

const flow = 'flow:exchange';
const family = families.v3;

interface OrderTerms {
  route: ExchangeRoute;
  quoteId: string;
  email: string;
  requisites: Record<string, string>;
}

export async function checkExchangeFlow(context: RunContext): Promise<void> {
  if (!context.selected(family, routeOf(family, 'createOrder'))) return;
  if (context.options.allowWrites !== true) return context.log.skip(flow, 'order', 'creates quotes and an order: needs --allow-writes');
  if (context.v3 === undefined) return context.log.skip(flow, 'order', missingCredentials(family));

  const terms = await acceptedTerms(context);
  if (terms === undefined) return;
  const body = { quote_id: terms.quoteId, email: terms.email, requisites: terms.requisites, client_order_id: `conformance-${randomUUID()}` };
  const created = await sendIdempotent(context, { family, operationId: 'createOrder', body, changedBody: { ...body, client_order_id: `${body.client_order_id}-changed` } });
  if (!judgeStep(context, flow, family, 'createOrder', created)) return;
  const order = (parseBody(created!) as { result: { order: Order } }).result.order;
  context.paths.remember(family, routeOf(family, 'getExchangeOrder'), { order: String(order.id) });
  await checkVerificationFlow(context, order);
  const taken = await followOrder(context, order);
  if (taken.length > 0 && (orderMachine.terminal as readonly string[]).includes(taken.at(-1)!.to)) await reviewOrder(context, order);
  await fireOtherClientEvents(context, terms, taken);
  await checkSimulation(context, terms.route);
}

/**
 * The terms of the flow's order: every enabled route in turn (all pages of listRoutes), with
 * requisites built from its capabilities, is quoted at its smallest amount and preflighted until
 * one accepts. Each operation gets one row whatever the number of routes tried: its answers must
 * all conform (a documented refusal moves on to the next route), and one row says which route
 * took the order, or why none could.
 */
async function acceptedTerms(context: RunContext): Promise<OrderTerms | undefined> {
  const v3 = context.v3!;
  const routes = await enabledRoutes(context);
  if (routes === undefined) return undefined;
  const example = requestExample(family.contract, 'createOrder') as { email: string; requisites: Record<string, unknown> };
  const steps = new StepRows(context, flow, family);
  const refusals: string[] = [];
  for (const route of routes) {
    const capabilities = await steps.call('getRouteCapabilities', () => v3.getRouteCapabilities({ path: { route: route.id } }));
    if (capabilities === 'stop') return steps.close();
    if (capabilities === 'refused') {
      refusals.push(`route ${route.id}: getRouteCapabilities refused`);
      continue;
    }
    const built = buildRequisites(capabilities.body.result.capabilities, example.requisites);
    if (!built.ok) {
      refusals.push(`route ${route.id}: ${built.reason}`);
      continue;
    }
    const quote = await steps.call('createQuote', () => v3.createQuote({ body: { route_id: route.id, amount: route.limits.min_give, amount_side: 'give' } }));
    if (quote === 'stop') return steps.close();
    if (quote === 'refused') {
      refusals.push(`route ${route.id}: createQuote refused ${route.limits.min_give}`);
      continue;
    }
    const quoteId = quote.body.result.quote.id;
    const preflight = await steps.call('preflightOrder', () => v3.preflightOrder({ body: { quote_id: quoteId, email: example.email, requisites: built.requisites } }));
    if (preflight === 'stop') return steps.close();
    if (preflight !== 'refused' && preflight.body.result.preflight.ok) {
      steps.close(`route ${route.id}`);
      const fields = Object.keys(built.requisites).join(', ') || 'no requisites';
      context.log.add(flow, 'route', 'pass', `route ${route.id} (${route.name}) took the order with ${fields} from its capabilities, after ${refusals.length} route(s) that could not`);
      return { route, quoteId, email: example.email, requisites: built.requisites };
    }
    const failed = preflight === 'refused' ? [] : preflight.body.result.preflight.checks.filter((check) => !check.passed).map((check) => `${check.name}: ${check.message ?? ''}`);
    refusals.push(`route ${route.id}: preflight ${preflight === 'refused' ? 'refused' : `failed ${failed.join(', ')}`}`);
  }
  steps.close();
  context.log.cannotRun(flow, 'route', `none of ${routes.length} enabled route(s) took an order: ${refusals.slice(0, 5).join('; ')}${refusals.length > 5 ? '; …' : ''}`);
  return undefined;
}

/** Every route listRoutes gives (all pages, as many per page as the contract allows), the enabled ones. */
async function enabledRoutes(context: RunContext): Promise<ExchangeRoute[] | undefined> {
  const perPage = documentedParameters(family.contract, 'listRoutes').find((p) => p.component === 'PerPage');
  const query = perPage === undefined || typeof perPage.schema.maximum !== 'number' ? {} : { [perPage.name]: perPage.schema.maximum };
  const mark = context.exchanges.mark();
  const routes: ExchangeRoute[] = [];
  let failure: unknown;
  try {
    for await (const route of context.v3!.runtime.paginate<ExchangeRoute>(context.specOf('v3', 'listRoutes'), { query }, 'page')) routes.push(route);
  } catch (error) {
    failure = error;
  }
  const pages = context.exchanges.since(mark);
  const problems = pages.length === 0 ? [`no answer: ${describeError(failure)}`] : pages.flatMap((page, index) => successProblems(family, 'listRoutes', page, undefined).map((problem) => `page ${index + 1}: ${problem}`));
  context.log.judge(flow, 'listRoutes', problems, `${pages.length} page(s), ${routes.length} route(s)`);
  if (problems.length > 0) return undefined;
  const enabled = routes.filter((route) => route.is_enabled);
  if (enabled.length === 0) context.log.cannotRun(flow, 'route', `listRoutes shows none of ${routes.length} route(s) enabled`);
  return enabled.length === 0 ? undefined : enabled;
}

/** Reads the order, drives it to its farthest terminal state and judges what was seen; returns the transitions taken. */
async function followOrder(context: RunContext, order: Order): Promise<AnyTransition[]> {
  const v3 = context.v3!;
  const path = { order: String(order.id) };
  const observed: (string | undefined)[] = [order.status];
  observed.push((await flowStep(context, flow, family, 'getExchangeOrder', () => v3.getExchangeOrder({ path })))?.body.result.order.status);
  await flowStep(context, flow, family, 'getOrderActions', () => v3.getOrderActions({ path }));
  const readStatus = async (): Promise<string | undefined> => (await flowStep(context, flow, family, 'getOrderStatus', () => v3.getOrderStatus({ path })))?.body.result.status.status;
  observed.push(await readStatus());

  const taken: AnyTransition[] = [];
  for (const transition of longestRunToTerminal(orderMachine, withoutRepeats(observed).at(-1) ?? order.status)) {
    if (!(await fire(context, path.order, transition))) break;
    taken.push(transition);
    observed.push(await readStatus());
  }
  const statuses = withoutRepeats(observed);
  context.log.judge(flow, 'machine', sequenceProblems(orderMachine, statuses, true), `observed ${statuses.join(' → ')}`);
  const final = await flowStep(context, flow, family, 'getOrderStatus', () => v3.getOrderStatus({ path }));
  const history = final?.body.result.status.history;
  if (history !== undefined) context.log.judge(flow, 'status-history', historyProblems(history), `${history.length} history entries, each a transition of the machine`);
  return taken;
}

/**
 * Fires one transition's event on the order: a client event through the first operation the
 * machine names for it, any other through forceOrderEvent (--sandbox). True when the order took it.
 */
async function fire(context: RunContext, order: string, transition: AnyTransition): Promise<boolean> {
  const operationId = transition.actor === 'client' ? transition.via[0] : undefined;
  if (operationId !== undefined) return fireThrough(context, order, operationId, transition);
  if (context.control === undefined) {
    context.log.skip(flow, `force:${transition.event}`, `the ${transition.actor} event ${transition.event} can only be forced through the sandbox (--sandbox)`);
    return false;
  }
  try {
    const { transition: taken } = (await context.control.forceOrderEvent({ path: { order }, body: { event: transition.event as OrderMachineEvent } })).body.result;
    const ok = taken.to === transition.to;
    context.log.add(flow, `force:${transition.event}`, ok ? 'pass' : 'fail', ok ? `${taken.from} → ${taken.to}` : `${taken.from} → ${taken.to}; the machine says ${transition.to}`);
    return ok;
  } catch (error) {
    context.log.add(flow, `force:${transition.event}`, 'fail', `the sandbox refused ${transition.event}: ${describeError(error)}`);
    return false;
  }
}

/** Calls a client operation on the order; its answer must conform and show the transition's target status. */
async function fireThrough(context: RunContext, order: string, operationId: string, transition: AnyTransition): Promise<boolean> {
  const answer = await flowStep(context, flow, family, operationId, () => context.v3!.runtime.request(context.specOf('v3', operationId), { path: { order } }));
  if (answer === undefined) return false;
  const status = (answer.body as { result?: { order?: { status?: string } } }).result?.order?.status;
  const ok = status === transition.to;
  context.log.add(flow, `${operationId}:${transition.event}`, ok ? 'pass' : 'fail', ok ? `${transition.from} → ${status}` : `${transition.from} → ${status ?? '(no status)'}; the machine says ${transition.to}`);
  return ok;
}

/** A review of the order, now in the terminal state farthest from the start (the contract's example text). */
async function reviewOrder(context: RunContext, order: Order): Promise<void> {
  if (!context.selected(family, routeOf(family, 'createReview'))) return;
  const example = requestExample(family.contract, 'createReview') as CreateReviewRequest;
  await flowStep(context, flow, family, 'createReview', () => context.v3!.createReview({ body: { ...example, order: order.public_id } }));
}

/** Each client event from the initial state not taken above, through each of its operations, on a fresh order. */
async function fireOtherClientEvents(context: RunContext, terms: OrderTerms, taken: readonly AnyTransition[]): Promise<void> {
  const others = orderMachine.transitions.filter((t) => t.from === orderMachine.initial && t.actor === 'client' && !taken.includes(t));
  for (const transition of others) {
    for (const operationId of transition.via) {
      if (!context.selected(family, routeOf(family, operationId))) continue;
      const body = { route_id: terms.route.id, amount: terms.route.limits.min_give, email: terms.email, requisites: terms.requisites };
      const created = await flowStep(context, flow, family, 'createOrder', () => context.v3!.createOrder({ body }));
      if (created === undefined) return;
      await fireThrough(context, String(created.body.result.order.id), operationId, transition);
    }
  }
}

/** A sandbox simulation of an order on the route: each transition it reports must be the machine's. */
async function checkSimulation(context: RunContext, route: ExchangeRoute): Promise<void> {
  if (!context.selected(family, routeOf(family, 'simulateOrder'))) return;
  const simulated = await flowStep(context, flow, family, 'simulateOrder', () => context.v3!.simulateOrder({ body: { route_id: route.id, amount: route.limits.min_give } }));
  if (simulated === undefined) return;
  const { transitions } = simulated.body.result.simulation;
  const problems = transitions.flatMap((step) => {
    const legal = orderMachine.transitions.some((t) => t.from === step.from && t.event === step.event && t.to === step.to);
    return step.allowed === legal ? [] : [`${step.from} --${step.event}--> ${step.to ?? '(refused)'} is reported ${step.allowed ? 'allowed' : 'refused'}, the machine says otherwise`];
  });
  context.log.judge(flow, 'simulation', problems, `${transitions.length} simulated transition(s), each as the machine says`);
}

/** The history must chain (each entry starts where the previous ended) through the machine's transitions. */
function historyProblems(history: readonly OrderStatusHistoryEntry[]): string[] {
  const problems: string[] = [];
  for (const [index, entry] of history.entries()) {
    const previous = history[index - 1];
    if (previous !== undefined && entry.from !== previous.to) problems.push(`entry ${index + 1} starts in ${entry.from}, the previous ended in ${previous.to}`);
    if (entry.from !== null && !orderMachine.transitions.some((t) => t.from === entry.from && t.to === entry.to)) {
      problems.push(`entry ${index + 1}: ${entry.from} → ${entry.to} is not a transition of the order machine`);
    }
  }
  if (history[0] !== undefined && history[0].to !== orderMachine.initial) problems.push(`the history starts in ${history[0].to}, not ${orderMachine.initial}`);
  return problems;
}
