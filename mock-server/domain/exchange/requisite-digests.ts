// The SHA-256 digest of each side's unmasked requisite as the client sent it: what the list's
// exact from/to_requisite filters match, and what a snapshot carries (as hex). An order keeps a
// side's digest only where its kept requisites cannot give it again: a card number is kept
// masked, so its digest is kept (32 bytes, as a latin1 string); an address or account is kept in
// clear, so its digest is computed from it when a snapshot is written, and a filter compares the
// value itself (equal values, equal digests). A sandbox may keep a million orders: a kept hex
// digest and the object holding it cost about 120 bytes an order.
import { createHash } from 'node:crypto';
import type { MaskedOrderRequisites, OrderRequisites } from '../../../generated/exchange-v3/types.js';
import { isMaskedRequisite, sideRequisite, type RequisiteSide } from './order-request.js';

const sides: readonly RequisiteSide[] = ['from', 'to'];

/**
 * Per side: null when the digest is the one of the clear requisite the order keeps (or there is
 * neither); otherwise the digest, 32 latin1 characters, or '' for none (a requisite kept without one).
 */
export type KeptDigests = Readonly<Record<RequisiteSide, string | null>>;

/** Most orders keep no digest: they share this. */
export const derivedDigests: KeptDigests = Object.freeze({ from: null, to: null });

/** The side's requisite as the order keeps it in clear; undefined when it has none or keeps it masked. */
function clearRequisite(requisites: MaskedOrderRequisites, side: RequisiteSide): string | undefined {
  const requisite = sideRequisite(requisites, side);
  return requisite === undefined || isMaskedRequisite(requisite.field) ? undefined : requisite.value;
}

const digest = (value: string, encoding: 'hex' | 'latin1'): string => createHash('sha256').update(value).digest().toString(encoding);

/** The digests an order created with `kept` requisites (masked) keeps, from the requisites `sent` (unmasked). */
export function keptDigests(kept: MaskedOrderRequisites, sent: OrderRequisites | undefined): KeptDigests {
  return keptOf(kept, (side, clear) => {
    const value = sent === undefined ? undefined : sideRequisite(sent, side)?.value;
    return { digest: value === undefined ? null : digest(value, 'latin1'), derivable: clear !== undefined && value === clear };
  });
}

/** The digests an order restored from a snapshot keeps, from the snapshot's hex digests. */
export function digestsFromState(kept: MaskedOrderRequisites, state: Record<RequisiteSide, string | null>): KeptDigests {
  return keptOf(kept, (side, clear) => {
    const hex = state[side];
    return { digest: hex === null ? null : Buffer.from(hex, 'hex').toString('latin1'), derivable: clear !== undefined && hex === digest(clear, 'hex') };
  });
}

/**
 * Per side: nothing when the digest is the one of the clear requisite kept (`derivable`),
 * else the digest found (latin1; null for none), or '' when a clear requisite has none.
 */
function keptOf(kept: MaskedOrderRequisites, sideDigest: (side: RequisiteSide, clear: string | undefined) => { digest: string | null; derivable: boolean }): KeptDigests {
  const [from, to] = sides.map((side) => {
    const clear = clearRequisite(kept, side);
    const found = sideDigest(side, clear);
    if (found.derivable) return null;
    return found.digest ?? (clear === undefined ? null : '');
  });
  return from === null && to === null ? derivedDigests : { from: from ?? null, to: to ?? null };
}

/** The digests in hex, as a snapshot holds them; null for a side without one. */
export function digestsToState(requisites: MaskedOrderRequisites, digests: KeptDigests): Record<RequisiteSide, string | null> {
  const [from, to] = sides.map((side) => {
    const kept = digests[side];
    if (kept !== null) return kept === '' ? null : Buffer.from(kept, 'latin1').toString('hex');
    const clear = clearRequisite(requisites, side);
    return clear === undefined ? null : digest(clear, 'hex');
  });
  return { from: from ?? null, to: to ?? null };
}

/** A requisite a filter asks for, with its digest (made once per value asked, not per order). */
export interface AskedRequisite {
  value: string;
  digest: string;
}

export function askedRequisite(value: string): AskedRequisite {
  return { value, digest: digest(value, 'latin1') };
}

/** Whether the side's requisite, as sent, was the one asked (the filters' exact match on the digest). */
export function requisiteIs(requisites: MaskedOrderRequisites, digests: KeptDigests, side: RequisiteSide, asked: AskedRequisite): boolean {
  const kept = digests[side];
  return kept === null ? clearRequisite(requisites, side) === asked.value : kept === asked.digest;
}
