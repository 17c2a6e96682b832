// A route as it stands at one instant: its course (a floating rate drifts on the virtual clock),
// limits on both sides, the reserve of its receive side and whether it is enabled (not suspended,
// and a reserve that covers its minimum payout); and the snapshot of that state whose hash
// changes whenever any of it changes.
import { createHash } from 'node:crypto';
import type { RouteSnapshot } from '../../../../generated/exchange-v3/types.js';
import { compare, parseDecimal } from '../../../decimal.js';
import { isoTime } from '../../../iso-time.js';
import { driftedCourse, type RouteRecord } from './catalog-records.js';
import { quoteTtlSeconds } from './quote-ttl.js';
import { routeLimits, type RouteLimits } from './route-limits.js';

/** A floating rate moves at most this much (parts per million) from its base, once per step. */
const floatingDriftPpm = 5_000;
/** How often a floating rate moves, in seconds of virtual time. */
export const floatingStepSeconds = 300;

/** Shared by every request in the same floating step (cached), hence read-only. */
export interface RouteState {
  readonly route: RouteRecord;
  /** The floating step the state belongs to (0 for a fixed rate). */
  readonly step: number;
  readonly course: string;
  readonly limits: Readonly<RouteLimits>;
  readonly enabled: boolean;
  /** Why it is not enabled (payouts suspended, or the reserve depleted); null when it is. */
  readonly disabledReason: string | null;
  /** When the state last changed (the current floating step began, or the catalog was built). */
  readonly updatedAt: Date;
}

/** Where the drift of a floating rate comes from: seeded per route and step. */
export type DriftSource = (routeId: number, step: number) => number;

/** Which floating step the route is in at `nowMs` (always 0 for a fixed rate): its course changes only between steps. */
export function floatingStep(route: RouteRecord, builtAtMs: number, nowMs: number): number {
  return route.rateType === 'floating' ? Math.max(0, Math.floor((nowMs - builtAtMs) / (floatingStepSeconds * 1000))) : 0;
}

/**
 * The route's state in floating step `step` with `reserve` on its receive side (the arithmetic;
 * ExchangeCatalog caches the result).
 */
export function routeState(route: RouteRecord, reserve: string, builtAtMs: number, step: number, drift: DriftSource): RouteState {
  const course = step === 0 ? route.baseCourse : driftedCourse(route.baseCourse, Math.round(drift(route.id, step) * floatingDriftPpm));
  const limits = routeLimits(route, course, reserve);
  // No amount left between the limits: the reserve cannot pay the smallest payout.
  const depleted = compare(parseDecimal(limits.min_receive), parseDecimal(limits.max_receive)) > 0;
  const disabledReason = route.suspended ?? (depleted ? depletedReason(route, reserve) : null);
  return Object.freeze({
    route,
    step,
    course,
    limits: Object.freeze(limits),
    enabled: disabledReason === null,
    disabledReason,
    updatedAt: new Date(builtAtMs + step * floatingStepSeconds * 1000),
  });
}

/** Why a route whose reserve cannot pay its smallest payout is off, until staff refill it. */
function depletedReason(route: RouteRecord, reserve: string): string {
  return `The ${route.to.spec.letter} reserve (${reserve}) is below the route's minimum payout; it is refilled by staff.`;
}

type Fingerprint = RouteSnapshot['fingerprint'];

/**
 * The values the snapshot hash covers (`fingerprint`), in a fixed key order; made once per state
 * (a state never changes) and frozen, as every quote and route details answer on it shares it.
 */
function fingerprint(state: RouteState): Fingerprint {
  let made = fingerprints.get(state);
  if (made === undefined) {
    made = Object.freeze({
      course: state.course,
      limits: Object.freeze({ ...state.limits }),
      status: state.enabled ? 1 : 0,
      rate_type: state.route.rateType,
      fee_percent: state.route.feePercent,
    });
    fingerprints.set(state, made);
  }
  return made;
}

const fingerprints = new WeakMap<RouteState, Fingerprint>();

/** What a snapshot_hash that no longer matches is told (quotes, preflight, orders). */
export const staleSnapshotMessage = 'no longer matches the route (its rate, limits or status changed); read the route details again';

/** SHA-256 hex of the route's canonical state: equal states, equal hashes. */
export function snapshotHash(state: RouteState): string {
  let hash = hashes.get(state);
  if (hash === undefined) {
    hash = createHash('sha256').update(JSON.stringify({ route_id: state.route.id, ...fingerprint(state) })).digest('hex');
    hashes.set(state, hash);
  }
  return hash;
}

/** A state never changes (a change makes a new state), so its hash is computed once. */
const hashes = new WeakMap<RouteState, string>();

/** `route-snapshot-v1` of the state, generated at `nowMs` and valid for a quote's lifetime. */
export function routeSnapshot(state: RouteState, nowMs: number): RouteSnapshot {
  return {
    version: 'route-snapshot-v1',
    route_id: state.route.id,
    hash: snapshotHash(state),
    generated_at: isoTime(nowMs),
    expires_at: isoTime(nowMs + quoteTtlSeconds * 1000),
    fingerprint: fingerprint(state),
  };
}
