// The exchange catalog of one sandbox: payment systems and routes built from the seed, held in
// listable collections, with each route's state read at the virtual clock's instant (floating
// rates drift as the clock advances; reserves move with completed orders and staff). A reset
// builds it again from the seed; a snapshot keeps only what changes: the build instant the
// floating steps count from, and the reserves.
import type { SandboxStateExchangeCatalog } from '../../../../generated/sandbox-control/types.js';
import type { Clock } from '../../../clock.js';
import { add, compare, formatDecimal, parseDecimal, roundDecimal, subtract, type Decimal } from '../../../decimal.js';
import { createRandom, type Random } from '../../../random.js';
import { ListableCollection } from '../../../store/list-records.js';
import { key } from '../../../store/sort-keys.js';
import { StateRejected } from '../../state-rejected.js';
import { buildPaymentSystems, buildRoutes, type PaymentSystemRecord, type RouteRecord } from './catalog-records.js';
import { floatingStep, routeState, type RouteState } from './route-state.js';

/** Sort fields of both lists (the contract's sort enums: sorting, id, name). */
const sortFields = {
  sorting: key.number((record: { position: number }) => record.position),
  id: key.number((record: { id: number }) => record.id),
};

export class ExchangeCatalog {
  readonly paymentSystems = new ListableCollection<PaymentSystemRecord>({
    id: key.number((s) => s.id),
    fields: { ...sortFields, name: key.string((s) => s.spec.name) },
  });
  readonly routes = new ListableCollection<RouteRecord>({
    id: key.number((r) => r.id),
    fields: { ...sortFields, name: key.string((r) => r.name) },
  });
  private builtAtMs: number;
  private readonly seed: number;
  /**
   * Each route's last computed state and what it was computed from. Lists price every listed
   * route on every request; the state only changes with the floating step, the receive side's
   * reserve or the route's suspension (or a new record), so it is priced again only then.
   */
  private readonly states = new Map<number, { route: RouteRecord; step: number; reserve: string; suspended: string | null; state: RouteState }>();

  constructor(
    private readonly clock: Clock,
    random: Random,
  ) {
    this.seed = random.seed;
    this.builtAtMs = clock.nowMs();
    const systems = buildPaymentSystems(random);
    for (const system of systems) this.paymentSystems.upsert(system);
    for (const route of buildRoutes(systems, random)) this.routes.upsert(route);
  }

  route(id: number): RouteRecord | undefined {
    return this.routes.get(id);
  }

  /** The route from give-side id `from` to receive-side id `to`. */
  routeByPair(from: number, to: number): RouteRecord | undefined {
    return [...this.routes.values()].find((r) => r.from.id === from && r.to.id === to);
  }

  /** The route between two rates-file codes (case-insensitive). */
  routeByCodes(from: string, to: string): RouteRecord | undefined {
    return [...this.routes.values()].find((r) => sameCode(r.from.spec.letter, from) && sameCode(r.to.spec.letter, to));
  }

  /** The payment system with this rates-file code (case-insensitive). */
  systemByLetter(letter: string): PaymentSystemRecord | undefined {
    return [...this.paymentSystems.values()].find((s) => sameCode(s.spec.letter, letter));
  }

  /** Routes on which the system is the give side, or the receive side. */
  routesOf(system: PaymentSystemRecord): { giveTo: RouteRecord[]; receiveFrom: RouteRecord[] } {
    const all = [...this.routes.values()];
    return { giveTo: all.filter((r) => r.from.id === system.id), receiveFrom: all.filter((r) => r.to.id === system.id) };
  }

  /** Whether clients can pay with the system, and receive it (payouts not suspended). */
  sidesOf(system: PaymentSystemRecord): { canGive: boolean; canReceive: boolean } {
    const { giveTo, receiveFrom } = this.routesOf(system);
    return { canGive: giveTo.length > 0, canReceive: receiveFrom.length > 0 && system.spec.payoutsSuspended === undefined };
  }

  /**
   * A completed exchange on the route moves the exchanger's reserves: the client's payment joins
   * the give side's reserve and the payout leaves the receive side's (never below zero), each at
   * its system's precision. Every route of those systems is priced again from then on.
   */
  payOut(routeId: number, amountIn: string, amountOut: string): void {
    const route = this.routes.get(routeId);
    if (route === undefined) return;
    this.setReserve(route.from, add(parseDecimal(route.from.reserve), parseDecimal(amountIn)));
    const left = subtract(parseDecimal(route.to.reserve), parseDecimal(amountOut));
    this.setReserve(route.to, compare(left, parseDecimal('0')) > 0 ? left : parseDecimal('0'));
  }

  /** Staff refill or drain a payment system's reserve (the control API). */
  setReserve(system: PaymentSystemRecord, amount: Decimal): void {
    system.reserve = formatDecimal(roundDecimal(amount, system.spec.decimals, 'down'));
  }

  /** The route as it stands now on the clock. */
  state(route: RouteRecord): RouteState {
    const step = floatingStep(route, this.builtAtMs, this.clock.nowMs());
    const { reserve } = route.to;
    const cached = this.states.get(route.id);
    if (cached !== undefined && cached.route === route && cached.step === step && cached.reserve === reserve && cached.suspended === route.suspended) {
      return cached.state;
    }
    const state = this.stateAt(route, step, reserve);
    this.states.set(route.id, { route, step, reserve, suspended: route.suspended, state });
    return state;
  }

  /** The route's state in floating step `step` with `reserve` on its receive side (now, or when a quote was priced). */
  stateAt(route: RouteRecord, step: number, reserve: string): RouteState {
    return routeState(route, reserve, this.builtAtMs, step, (routeId, at) => this.drift(routeId, at));
  }

  exportState(): SandboxStateExchangeCatalog {
    return {
      builtAtMs: this.builtAtMs,
      reserves: [...this.paymentSystems.values()].map((system) => ({ paymentSystemId: system.id, reserve: system.reserve })),
    };
  }

  /** Takes the snapshot's build instant and reserves (one per payment system); `pointer` locates `state` in the document. */
  restoreState(state: SandboxStateExchangeCatalog, pointer: string): void {
    const seen = new Set<number>();
    state.reserves.forEach(({ paymentSystemId, reserve }, index) => {
      const system = this.paymentSystems.get(paymentSystemId);
      const at = `${pointer}/reserves/${index}/paymentSystemId`;
      if (system === undefined) throw new StateRejected(at, `${paymentSystemId} is not a payment system`);
      if (seen.has(paymentSystemId)) throw new StateRejected(at, `payment system ${paymentSystemId} has a reserve already`);
      seen.add(paymentSystemId);
      this.setReserve(system, parseDecimal(reserve));
    });
    const missing = [...this.paymentSystems.values()].filter((system) => !seen.has(system.id));
    if (missing.length > 0) throw new StateRejected(`${pointer}/reserves`, `lacks the reserves of payment systems ${missing.map((s) => s.id).join(', ')}`);
    this.builtAtMs = state.builtAtMs;
    this.states.clear();
  }

  /** A move in [-1, 1] for one route and step: the same for a seed, whenever it is asked. */
  private drift(routeId: number, step: number): number {
    const random = createRandom((this.seed ^ Math.imul(routeId, 0x9e3779b1) ^ Math.imul(step, 0x85ebca6b)) >>> 0);
    return random.next() * 2 - 1;
  }
}

export function sameCode(a: string, b: string): boolean {
  return a.toUpperCase() === b.toUpperCase();
}
