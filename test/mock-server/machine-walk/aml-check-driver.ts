// The aml-check machine through the deposit API and the control API's AML provider: a check of a
// currency outside the provider's allowlist is skipped at creation; otherwise the provider's
// answer (or failure) for the address is ready a minute after the check is sent, and reading the
// check then reconciles it.
import type { AnyTransition, MachineDriver } from './driver.js';

interface AmlHandle {
  address: string;
  uuid: string | null;
}

const answerDelaySeconds = 60;
let addresses = 0;

const base58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** A TRON-shaped address no other walk uses (the provider's answers are per address): a fixed stem and a counter. */
function freshAddress(): string {
  addresses += 1;
  let suffix = '';
  for (let n = addresses, i = 0; i < 4; i += 1, n = Math.floor(n / 58)) suffix = base58[n % 58] + suffix;
  return `TXFBqBbqJommqZf7BV8NNYzePh97Um${suffix}`;
}

export const amlCheckDriver: MachineDriver<AmlHandle> = {
  async create({ server, site }, path) {
    const target = path.at(-1)!;
    const address = freshAddress();
    if (target.event === 'currency_unsupported') return { address, uuid: null };
    const outcome = target.event === 'provider_failed' ? { outcome: 'failed' as const } : { score: 12, level: 'low' as const };
    await server.control.setAmlAnswer({ body: { address, delay_seconds: answerDelaySeconds, ...outcome } });
    const check = (await site.v1.createAmlCheck({ body: { currency: 'USDT', network: 'TRON', address } })).body.data;
    return { address, uuid: check.uuid };
  },

  async fire({ server, site }, handle, step: AnyTransition) {
    if (step.event === 'currency_unsupported') {
      // TON is outside the provider's default allowlist: the check is skipped as it is created.
      const check = (await site.v1.createAmlCheck({ body: { currency: 'TON', network: 'TON', address: 'EQD2NmD_lH5f5u1Kj3KfGyTvhZSX0Eg6qp2a5IQUKXxOG21n' } })).body.data;
      handle.uuid = check.uuid;
      return;
    }
    await server.control.advanceClock({ body: { seconds: answerDelaySeconds } });
    await site.v1.getAmlCheck({ path: { uuid: handle.uuid! } });
  },

  async status({ site }, handle) {
    if (handle.uuid === null) return null;
    return (await site.v1.getAmlCheck({ path: { uuid: handle.uuid } })).body.data.status;
  },
};
