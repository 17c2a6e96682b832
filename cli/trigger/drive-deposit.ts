// Drives a new v1 deposit along a trigger plan's transitions through the simulated chain and the
// virtual clock, as a payer and time would: `transaction_detected` and
// `late_transaction_detected` put a payment on the chain (the whole amount still owed, twice it
// or half of it, as the guard of the confirmation that follows asks), `confirmed` adds the
// network's confirmations, a timer's event advances the clock past the timer (read from the
// machine), and `refresh` waits out the late window so the watcher leaves the payment to the
// client's refreshDeposit. The side event deposit.swept comes from paying a static address.
import { randomUUID } from 'node:crypto';
import { depositV1Operations, type DepositV1Client } from '../../generated/deposit-v1/client.js';
import type { OperationSpec } from '../../generated/runtime/client-runtime.js';
import type { Asset, Deposit } from '../../generated/deposit-v1/types.js';
import { depositMachine, type DepositEvent } from '../../generated/machines.js';
import { add, divide, formatDecimal, parseDecimal, subtract } from '../../mock-server/decimal.js';
import type { MockSession } from './mock-session.js';
import type { AnyTransition } from './trigger-plans.js';

type Log = (line: string) => void;

// The guards and the timer this driver acts on, by their names in the machine: a rename there
// must fail here at once rather than pick the wrong amount.
const guards = { exceeds: 'amount_exceeds', short: 'amount_short' } as const;
const lateWindowTimer = 'late_window';
for (const guard of Object.values(guards)) if (!(guard in depositMachine.guards)) throw new Error(`the deposit machine has no guard ${guard}`);
if (depositMachine.timers[lateWindowTimer]?.seconds === undefined) throw new Error(`the deposit machine has no timer ${lateWindowTimer}`);

interface DepositRun {
  session: MockSession;
  v1: DepositV1Client;
  deposit: Deposit;
  received: string;
  lastHash: string | undefined;
  requiredConfirmations: number;
  log: Log;
}

type Step = (run: DepositRun, transition: AnyTransition, next: AnyTransition | undefined) => Promise<void>;

/** How each event of the deposit machine is made to happen (typed: a new event breaks the build). */
const steps: Record<DepositEvent, Step> = {
  transaction_detected: (run, _transition, next) => pay(run, amountFor(run, next)),
  late_transaction_detected: (run, _transition, next) => pay(run, amountFor(run, next)),
  confirmed: async (run) => {
    if (run.lastHash === undefined) throw new Error('no payment to confirm');
    await run.session.control.addChainConfirmations({ path: { hash: run.lastHash }, body: { count: run.requiredConfirmations } });
    run.log(`confirmed transaction ${run.lastHash} (${run.requiredConfirmations} confirmations)`);
  },
  expire: async (run, transition) => {
    const seconds = timerSeconds(transition.timer);
    await run.session.advance(seconds + 1);
    run.log(`advanced the mock's clock ${seconds + 1} s, past the ${transition.timer} timer`);
  },
  refresh: async (run, transition) => {
    // Past the late window the chain watcher no longer credits a payment itself.
    const seconds = timerSeconds(lateWindowTimer);
    await run.session.advance(seconds + 1);
    run.log(`advanced the mock's clock ${seconds + 1} s, past the ${lateWindowTimer} timer`);
    await pay(run, owed(run));
    // The client operation the machine names for the event (refreshDeposit), addressed by the deposit.
    const operationId = transition.via[0];
    const spec = operationId === undefined ? undefined : (depositV1Operations as Readonly<Record<string, OperationSpec>>)[operationId];
    if (spec === undefined) throw new Error(`the deposit machine names no v1 operation for ${transition.event}`);
    await run.v1.runtime.request(spec, { path: { uuid: run.deposit.uuid } });
    run.log(`${transition.event}: ${operationId} on deposit ${run.deposit.uuid}`);
  },
};

/** The new deposit's uuid (every event of the deposit carries it). */
export async function driveDeposit(session: MockSession, path: readonly AnyTransition[], log: Log): Promise<string> {
  const v1 = await session.v1();
  const asset = await depositAsset(v1);
  const deposit = (await v1.createDeposit({ body: { order_id: `trigger-${randomUUID()}`, asset: asset.code, amount: asset.minDepositAmount } })).body.data;
  log(`created deposit ${deposit.uuid} (order_id ${deposit.orderId}): ${deposit.amount} ${deposit.asset} to ${deposit.address}${deposit.memo === null ? '' : ` memo ${deposit.memo}`}`);
  const run: DepositRun = { session, v1, deposit, received: '0', lastHash: undefined, requiredConfirmations: 1, log };
  for (const [index, transition] of path.entries()) await steps[transition.event as DepositEvent](run, transition, path[index + 1]);
  return deposit.uuid;
}

/** deposit.swept: a payment to a new static address, confirmed; returns the payment's deposit uuid. */
export async function driveStaticAddressSweep(session: MockSession, log: Log): Promise<string> {
  const v1 = await session.v1();
  const asset = await depositAsset(v1);
  const address = (await v1.createStaticAddress({ body: { orderId: `trigger-${randomUUID()}`, asset: asset.code } })).body.data;
  log(`created static address ${address.uuid}: ${address.address}${address.memo === null ? '' : ` memo ${address.memo}`}`);
  const tx = (
    await session.control.injectChainTransaction({
      body: { network: address.network, address: address.address, ...(address.memo !== null ? { memo: address.memo } : {}), amount: asset.minDepositAmount, confirmations: 0 },
    })
  ).body.result;
  await session.control.addChainConfirmations({ path: { hash: tx.hash }, body: { count: tx.required_confirmations } });
  if (tx.deposit_uuid === null) throw new Error('the mock credited the payment to no deposit');
  log(`paid ${asset.minDepositAmount} ${asset.code} in transaction ${tx.hash}, confirmed: deposit ${tx.deposit_uuid}`);
  return tx.deposit_uuid;
}

async function depositAsset(v1: DepositV1Client): Promise<Asset> {
  const asset = (await v1.listAssets()).body.data.find((candidate) => candidate.depositEnabled);
  if (asset === undefined) throw new Error('the mock offers no asset with deposits enabled');
  return asset;
}

async function pay(run: DepositRun, amount: string): Promise<void> {
  const { deposit } = run;
  const tx = (
    await run.session.control.injectChainTransaction({
      body: { network: deposit.network, address: deposit.address, ...(deposit.memo !== null ? { memo: deposit.memo } : {}), amount, confirmations: 0 },
    })
  ).body.result;
  run.lastHash = tx.hash;
  run.requiredConfirmations = tx.required_confirmations;
  run.received = formatDecimal(add(parseDecimal(run.received), parseDecimal(amount)));
  run.log(`paid ${amount} ${deposit.asset} to the deposit in transaction ${tx.hash}`);
}

/** What the next confirmation's guard needs: the amount still owed, twice it, or half of it. */
function amountFor(run: DepositRun, next: AnyTransition | undefined): string {
  const rest = parseDecimal(owed(run));
  if (next?.guard === guards.exceeds) return formatDecimal(add(rest, rest));
  if (next?.guard === guards.short) return formatDecimal(divide(rest, parseDecimal('2'), rest.scale + 1, 'down'));
  return formatDecimal(rest);
}

function owed(run: DepositRun): string {
  return formatDecimal(subtract(parseDecimal(run.deposit.amount ?? '1'), parseDecimal(run.received)));
}

function timerSeconds(name: string | null): number {
  const seconds = name === null ? undefined : depositMachine.timers[name]?.seconds;
  if (seconds === undefined) throw new Error(`the deposit machine has no timer ${String(name)} with seconds`);
  return seconds;
}
