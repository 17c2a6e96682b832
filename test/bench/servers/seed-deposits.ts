// Stores `count` v1 deposits of the default site through the deposit service (the path
// createDeposit takes, without HTTP): BTC, 0.01 each, the default lifetime, order ids
// `<prefix>-<i>`. Returns the longest single create, in ms (a growth step of an index, or a GC
// pause, that every request waiting on the server would have waited for).
import type { Sandbox } from '../../../mock-server/sandbox.js';
import { depositableAsset } from '../../../mock-server/domain/deposits/assets.js';
import { defaultLifetimeSeconds } from '../../../mock-server/domain/deposits/deposit-service.js';

export function seedDeposits(sandbox: Sandbox, count: number, prefix: string): number {
  const asset = depositableAsset('BTC');
  if (asset === undefined) throw new Error('BTC takes no deposits in this catalog');
  const service = sandbox.services.deposits;
  let longestMs = 0;
  for (let i = 0; i < count; i += 1) {
    const started = performance.now();
    service.create(sandbox.defaultSite, { orderId: `${prefix}-${i}`, asset, amount: '0.01', lifetimeSeconds: defaultLifetimeSeconds });
    longestMs = Math.max(longestMs, performance.now() - started);
  }
  return longestMs;
}
