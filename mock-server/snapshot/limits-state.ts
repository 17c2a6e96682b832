// The limits part of a sandbox snapshot: what the platform meters per caller (each v3 key's rate
// window and quota counts, its usage per operation), the nonces of signed requests and the
// finished idempotency records, each live until its expiry. A reservation whose request is still
// running is not exported: its request ends in this sandbox, not in the loaded one.
import type { SandboxStateLimits } from '../../generated/sandbox-control/types.js';
import type { KeyMeter, KeyUsage } from '../domain/accounts/key-meter.js';
import { StateRejected } from '../domain/state-rejected.js';
import type { SandboxStore } from '../store/sandbox-store.js';

export async function exportLimitsState(store: SandboxStore, nowMs: number): Promise<SandboxStateLimits> {
  const [meters, usage, nonces, idempotency] = await Promise.all([
    store.cells<KeyMeter>('key-meters').entries(nowMs),
    store.cells<KeyUsage>('key-usage').entries(nowMs),
    store.cells<true>('nonces').entries(nowMs),
    store.idempotency.finished(nowMs),
  ]);
  return {
    meters,
    usage,
    nonces: nonces.map(({ key, expiresAtMs }) => ({ key, expiresAtMs })),
    idempotency: idempotency.map(({ caller, key, reservedAtMs, expiresAtMs, response }) => ({
      caller,
      key,
      fingerprint: response.fingerprint,
      reservedAtMs,
      expiresAtMs,
      response: { status: response.status, headers: response.headers, bodyBase64: response.body.toString('base64') },
    })),
  };
}

/** Throws StateRejected where the store would refuse a record of the document (checked before anything is replaced). */
export function checkLimitsState(state: SandboxStateLimits): void {
  const slots = new Set<string>();
  state.idempotency.forEach(({ caller, key }, index) => {
    const slot = JSON.stringify([caller, key]);
    if (slots.has(slot)) throw new StateRejected(`/limits/idempotency/${index}`, `a record of caller ${JSON.stringify(caller)} and key ${JSON.stringify(key)} appears twice`);
    slots.add(slot);
  });
}

/** Writes the document's records into an emptied store, as live at `nowMs` (the loaded clock's now). */
export async function restoreLimitsState(store: SandboxStore, state: SandboxStateLimits, nowMs: number): Promise<void> {
  const claimAll = async <T>(kind: 'key-meters' | 'key-usage' | 'nonces', entries: { key: string; value: T; expiresAtMs: number }[]) => {
    const cells = store.cells<T>(kind);
    for (const { key, value, expiresAtMs } of entries) await cells.claim(key, value, nowMs, expiresAtMs);
  };
  await claimAll<KeyMeter>('key-meters', state.meters);
  await claimAll<KeyUsage>('key-usage', state.usage);
  await claimAll<true>('nonces', state.nonces.map(({ key, expiresAtMs }) => ({ key, value: true as const, expiresAtMs })));
  for (const record of state.idempotency) {
    const { caller, key, fingerprint, reservedAtMs, expiresAtMs, response } = record;
    const body = Buffer.from(response.bodyBase64, 'base64');
    await store.idempotency.restore({ caller, key, reservedAtMs, expiresAtMs, response: { fingerprint, status: response.status, headers: response.headers, body } });
  }
}
