// Stores `count` v1 deposits of the default site through the deposit service (the path
// createDeposit takes, without HTTP): BTC, 0.01 each, the default lifetime, order ids
// `<prefix>-<i>`. Each create is timed by `steps` when given.
import type { Sandbox } from '../../../mock-server/sandbox.js';
import { depositableAsset } from '../../../mock-server/domain/deposits/assets.js';
import { defaultLifetimeSeconds } from '../../../mock-server/domain/deposits/deposit-service.js';
import { untimed } from './slow-steps.js';

export function seedDeposits(sandbox: Sandbox, count: number, prefix: string, steps = untimed): void {
  const asset = depositableAsset('BTC');
  if (asset === undefined) throw new Error('BTC takes no deposits in this catalog');
  const service = sandbox.services.deposits;
  for (let i = 0; i < count; i += 1) {
    steps.time(() => service.create(sandbox.defaultSite, { orderId: `${prefix}-${i}`, asset, amount: '0.01', lifetimeSeconds: defaultLifetimeSeconds }));
  }
}
