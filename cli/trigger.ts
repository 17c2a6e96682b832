// `exchange-api-kit trigger EVENT`: makes a running mock emit a webhook event the way it happens
// for real: creates what the event needs through the public and control APIs (the generated
// clients) and drives it there, following the mock's event stream to print the ids of the
// events it emitted. `trigger --list` names every event it can cause (trigger/trigger-plans.ts).
import type { WebhookStreamEvent } from '../generated/sandbox-control/types.js';
import { adminTokenOf, type AdminToken } from './admin-token.js';
import { helpOption, mockClientOptions, mockUrlOf, optionsHelp, parsers, readOptions, UsageError, type OptionSpec } from './options.js';
import type { CommandIo } from './io.js';
import { followWebhookStream, StreamRefused } from './listen/event-stream-client.js';
import { driveDeposit, driveStaticAddressSweep } from './trigger/drive-deposit.js';
import { driveOrder } from './trigger/drive-order.js';
import { driveTestWebhook } from './trigger/drive-test-webhook.js';
import { MockSession } from './trigger/mock-session.js';
import { describePlan, triggerPlans, type AnyTransition, type TriggerPlan } from './trigger/trigger-plans.js';

type Log = (line: string) => void;

/** How a resource of each driven machine is created and moved; each returns an id its events carry. */
const machineDrivers: Readonly<Record<string, (session: MockSession, path: readonly AnyTransition[], log: Log) => Promise<string>>> = {
  order: driveOrder,
  deposit: driveDeposit,
};
/** Side events (no change of state) and what causes them. */
const sideEventDrivers: Readonly<Record<string, (session: MockSession, log: Log) => Promise<string>>> = {
  'deposit.swept': driveStaticAddressSweep,
};

const triggerOptions: OptionSpec[] = [
  { name: 'list', boolean: true, help: 'list the events trigger can cause, and how' },
  ...mockClientOptions,
  { name: 'token', env: 'MOCK_TOKEN', placeholder: '<value>', help: 'v3 token to act as (default: a key minted for the trigger, its webhooks to the mock inbox)' },
  { name: 'site-key', env: 'MOCK_SITE_KEY', placeholder: '<value>', help: 'v1 site to act as, with --site-secret (default: a site created for the trigger)' },
  { name: 'site-secret', env: 'MOCK_SITE_SECRET', placeholder: '<value>', help: 'the API secret of --site-key' },
  { name: 'wait', placeholder: '<seconds>', help: 'how long to wait for the events (default 10)', parse: parsers.integer(1, 600) },
  helpOption,
];

export const triggerUsage = `usage: exchange-api-kit trigger <event> [options]
       exchange-api-kit trigger --list
Makes a running mock emit <event> (deposit.paid, order.created, order.completed, api.test…):
creates what it needs through the v3, v1 and control APIs, drives it there (the simulated
chain, the virtual clock, forced order events) and prints the ids of what it created and of
the events emitted. The clock may be advanced (expiries): every record of the mock ages.

${optionsHelp(triggerOptions)}

Exit codes: 0 emitted, 1 the mock refused or did not emit in time, 2 bad flag or unknown event.`;


export async function triggerCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  const plans = triggerPlans();
  let values: Record<string, unknown>;
  let sources: Record<string, string>;
  let plan: TriggerPlan | undefined;
  try {
    const read = readOptions(triggerOptions, argv, io.env, { positionals: true });
    ({ values, sources } = read);
    if (values.help !== true && values.list !== true) {
      if (read.positionals.length !== 1) throw new UsageError('name one event, e.g. `trigger deposit.paid` (trigger --list names them all)');
      plan = plans.find((candidate) => candidate.name === read.positionals[0]);
      if (plan === undefined) throw new UsageError(`unknown event ${read.positionals[0]} (trigger --list names them all)`);
      if ((values['site-key'] === undefined) !== (values['site-secret'] === undefined)) throw new UsageError('--site-key and --site-secret go together');
    }
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(`exchange-api-kit trigger: ${error.message}\n\n${triggerUsage}`);
    return 2;
  }
  if (values.help === true) {
    io.stdout(triggerUsage);
    return 0;
  }
  if (values.list === true) {
    const width = Math.max(...plans.map((candidate) => candidate.name.length));
    for (const candidate of plans) io.stdout(`${candidate.name.padEnd(width)}  ${describePlan(candidate)}`);
    return 0;
  }
  if (plan!.kind === 'none') {
    io.stderr(`exchange-api-kit trigger: ${plan!.name} is ${describePlan(plan!).trim()}`);
    return 1;
  }

  const mockUrl = mockUrlOf(values);
  const adminToken = adminTokenOf(values, sources);
  const session = new MockSession({
    mockUrl,
    ...(adminToken !== undefined ? { adminToken: adminToken.value } : {}),
    ...(values.token !== undefined ? { token: values.token as string } : {}),
    ...(values['site-key'] !== undefined ? { site: { key: values['site-key'] as string, secret: values['site-secret'] as string } } : {}),
    log: (line) => io.stdout(line),
  });
  const watcher = new EventWatcher(mockUrl, adminToken);
  try {
    await watcher.connected();
    const expectation = await drive(plan!, session, (line) => io.stdout(line));
    const seen = await watcher.waitFor(expectation, ((values.wait as number | undefined) ?? 10) * 1000);
    for (const event of seen) io.stdout(`event ${event.event_type} ${event.event_id} (${event.deliveries.length} deliver${event.deliveries.length === 1 ? 'y' : 'ies'})`);
    if (!expectation.done(seen)) {
      io.stderr(`exchange-api-kit trigger: the mock did not emit ${plan!.name === plan!.emits ? plan!.emits : `${plan!.emits} for ${plan!.name}`} in time`);
      return 1;
    }
    io.stdout(`triggered ${plan!.name}`);
    return 0;
  } catch (error) {
    io.stderr(`exchange-api-kit trigger: ${(error as Error).message}`);
    return 1;
  } finally {
    watcher.stop();
  }
}

interface Expectation {
  /** Whether an event of the stream is one of this trigger's. */
  matches(event: WebhookStreamEvent): boolean;
  /** Whether everything the trigger should emit has been seen. */
  done(seen: readonly WebhookStreamEvent[]): boolean;
}

async function drive(plan: Exclude<TriggerPlan, { kind: 'none' }>, session: MockSession, log: Log): Promise<Expectation> {
  if (plan.kind === 'test-webhook') {
    const eventId = await driveTestWebhook(session, plan.family, plan.emits, log);
    return { matches: (event) => event.event_id === eventId, done: (seen) => seen.length > 0 };
  }
  if (plan.kind === 'side-event') {
    const driver = sideEventDrivers[plan.emits];
    if (driver === undefined) throw new Error(`trigger does not know what causes ${plan.emits}`);
    const id = await driver(session, log);
    return { matches: (event) => event.body.includes(id), done: (seen) => seen.some((event) => event.event_type === plan.emits) };
  }
  const driver = machineDrivers[plan.machine.name];
  if (driver === undefined) throw new Error(`trigger cannot drive the ${plan.machine.name} machine`);
  const id = await driver(session, plan.path, log);
  // Creation's event, then one per transition that emits: the last is the one asked for.
  const expected = (plan.machine.createdEmits === null ? 0 : 1) + plan.path.filter((transition) => transition.emits !== null).length;
  return { matches: (event) => event.body.includes(id), done: (seen) => seen.length >= expected && seen.at(-1)?.event_type === plan.emits };
}

/** Follows the mock's event stream while a trigger runs, keeping the events of the trigger. */
class EventWatcher {
  private readonly stopper = new AbortController();
  private readonly events: WebhookStreamEvent[] = [];
  private wake: () => void = () => undefined;
  private readonly ready: Promise<void>;

  constructor(mockUrl: URL, adminToken: AdminToken | undefined) {
    let connected!: () => void;
    let refused!: (error: Error) => void;
    this.ready = new Promise<void>((resolve, reject) => {
      connected = resolve;
      refused = reject;
    });
    followWebhookStream({
      mockUrl,
      ...(adminToken !== undefined ? { adminToken } : {}),
      signal: this.stopper.signal,
      onStatus: (line) => (line.startsWith('connected') ? connected() : undefined),
      onEvent: async (event) => {
        this.events.push(event);
        this.wake();
      },
    }).catch((error: unknown) => refused(error instanceof StreamRefused ? error : new Error(String(error))));
  }

  /** Resolves once the stream is open (so no event of the trigger can be missed), within 10 s. */
  async connected(): Promise<void> {
    const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('cannot reach the mock\'s webhook stream (is the mock running? --mock)')), 10_000).unref());
    await Promise.race([this.ready, timeout]);
  }

  /** The trigger's events once `expectation` is met, or what arrived when `timeoutMs` ran out. */
  async waitFor(expectation: Expectation, timeoutMs: number): Promise<WebhookStreamEvent[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const seen = this.events.filter((event) => expectation.matches(event));
      const left = deadline - Date.now();
      if (expectation.done(seen) || left <= 0) return seen;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  stop(): void {
    this.stopper.abort();
  }
}
