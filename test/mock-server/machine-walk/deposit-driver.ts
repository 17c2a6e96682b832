// The deposit machine through the deposit API, the simulated chain and the clock: transactions to
// the deposit's address (their amount chosen so the path's confirmation lands in the right
// state), confirmations added through the control API, the lifetime and the late window run out
// on the virtual clock, and a refresh that finds a transaction sent after the late window.
import { depositMachine } from '../../../generated/machines.js';
import type { Deposit } from '../../../generated/deposit-v1/types.js';
import { pathHas, type AnyTransition, type MachineDriver, type WalkContext } from './driver.js';

interface DepositHandle {
  deposit: Deposit;
  /** The last transaction sent to it. */
  lastHash: string | null;
}

const expected = '10';
let orders = 0;

const lifetimeSeconds = depositMachine.timers.lifetime!.seconds!;
const lateWindowSeconds = depositMachine.timers.late_window!.seconds!;

async function send(context: WalkContext, handle: DepositHandle, amount: string): Promise<void> {
  const { network, address } = handle.deposit;
  const tx = await context.server.control.injectChainTransaction({ body: { network, address, amount } });
  handle.lastHash = tx.body.result.hash;
}

export const depositDriver: MachineDriver<DepositHandle> = {
  async create({ site }) {
    orders += 1;
    const created = await site.v1.createDeposit({ body: { order_id: `walk-${orders}`, asset: 'USDT_TRON', amount: expected } });
    return { deposit: created.body.data, lastHash: null };
  },

  async fire(context, handle, step: AnyTransition, path) {
    const { server, site } = context;
    switch (step.event) {
      case 'transaction_detected':
        // A first payment that the path's confirmation judges short, over or exact; a top-up completes a short one.
        if (step.from === 'underpaid') return send(context, handle, '6');
        if (pathHas(path, { guard: 'amount_short' })) return send(context, handle, '4');
        return send(context, handle, pathHas(path, { guard: 'amount_exceeds' }) ? '15' : expected);
      case 'confirmed':
        await server.control.addChainConfirmations({ path: { hash: handle.lastHash! }, body: { count: 1000 } });
        return;
      case 'expire':
        await server.control.advanceClock({ body: { seconds: lifetimeSeconds } });
        return;
      case 'late_transaction_detected':
        return send(context, handle, expected);
      case 'refresh':
        // Sent after the late window, the transaction is credited to nothing until a refresh finds it.
        await server.control.advanceClock({ body: { seconds: lateWindowSeconds } });
        await send(context, handle, expected);
        await site.v1.refreshDeposit({ path: { uuid: handle.deposit.uuid } });
        return;
      default:
        throw new Error(`the deposit walk cannot fire ${step.event}`);
    }
  },

  async status({ site }, handle) {
    return (await site.v1.getDeposit({ path: { uuid: handle.deposit.uuid } })).body.data.status;
  },

  about(handle, received) {
    return received.filter((w) => (w.body.data as { deposit?: { uuid?: string } } | undefined)?.deposit?.uuid === handle.deposit.uuid).map((w) => w.type);
  },
};
