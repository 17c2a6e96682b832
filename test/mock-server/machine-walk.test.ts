// Generated from the machine files: for every transition of every machine in
// generated/machines.ts (contracts/machines/*.yaml), a fresh sandbox walks a new resource from the
// machine's initial state along the shortest path to the transition's `from` and then takes it,
// each step the way a user would (the public APIs, the simulated chain, the clock, a control
// knob: the machine's driver in machine-walk/). After every step the resource's status, as its
// API shows it, must be the step's `to`, and the webhooks about it that reached the built-in
// inbox must be exactly the one the step emits (none where it emits none). A resource's creation
// must emit the machine's created_emits. Over real HTTP, every answer checked against the
// contracts (strict mode).
import { createHmacSigner, DepositV1Client, depositV1SignatureScheme } from '../../generated/deposit-v1/client.js';
import { describe, expect, it } from 'vitest';
import { machines, type Machine } from '../../generated/machines.js';
import { shortestPaths } from '../../conformance/judge/machine.js';
import { useRecordingServer } from '../support/recording-server.js';
import type { AnyTransition, MachineDriver, ReceivedWebhook, WalkContext } from './machine-walk/driver.js';
import { drivers } from './machine-walk/drivers.js';
import { inboxUrlOf, useFrozenSandbox, type TestServer } from './support/server.js';

let server: TestServer;
// Three attempts per delivery (retrying can repeat before it fails), and an endpoint whose two
// deliveries in a row fail is disabled: short enough to walk, long enough for every transition.
useFrozenSandbox({ seed: 23, webhookRetrySchedule: [0, 5, 60], webhookFailedDeliveriesLimit: 2 }, (started) => {
  server = started;
});
const receiver = useRecordingServer(() => ({ status: 204 }));

type AnyMachine = Machine<string, string>;

/** The shortest path of transitions from the machine's initial state to `state` (file order breaks ties). */
function pathTo(machine: AnyMachine, state: string): AnyTransition[] {
  const path = shortestPaths(machine, machine.initial).get(state);
  if (path === undefined) throw new Error(`${machine.name}: ${state} is not reachable from ${machine.initial}`);
  return path;
}

const arrow = (t: AnyTransition) => `${t.from} --${t.event}${t.guard === null ? '' : ` [${t.guard}]`}--> ${t.to}`;

async function signedSite(callbackUrl: string, events?: string[]): Promise<{ id: number; v1: DepositV1Client }> {
  const created = (await server.control.createSite({ body: { callback_url: callbackUrl, ...(events === undefined ? {} : { webhook_events: events }) } })).body.result;
  const signer = createHmacSigner(depositV1SignatureScheme, { key: created.site.api_key, secret: created.api_secret }, { now: () => server.sandbox.clock.nowMs() });
  return { id: created.site.id, v1: new DepositV1Client({ baseUrl: server.url, signer, retry: false }) };
}

/** The walk's observers: the default client's endpoint and a v1 site, both at the inbox, for every event type. */
async function walkContext(): Promise<WalkContext> {
  const inbox = inboxUrlOf(server);
  await server.v3.createWebhookEndpoint({ body: { name: 'walk observer', url: inbox, events: ['order.created', 'order.status_changed', 'api.test'] } });
  return {
    server,
    site: await signedSite(inbox),
    receiverUrl: (name) => `${receiver.baseUrl}/${name}`,
    newSite: async (callbackUrl, events) => (await signedSite(callbackUrl, events)).v1,
  };
}

/** Reads what reached the inbox since the last call (sending what is due first, unless the driver sends itself). */
function inboxReader(driver: MachineDriver<unknown>) {
  let seen = 0;
  return async (): Promise<ReceivedWebhook[]> => {
    if (driver.ownsDispatch !== true) await server.control.runDueWebhooks();
    const all = (await server.control.listInboxWebhooks()).body.result.deliveries;
    const fresh = all.slice(seen).map((d) => ({ type: d.event_type ?? '', body: JSON.parse(d.body) as Record<string, unknown> }));
    seen = all.length;
    return fresh;
  };
}

describe.each(Object.values(machines).map((m) => [m.name, m as AnyMachine] as const))('the %s machine, walked', (name, machine) => {
  it.each(machine.transitions.map((t) => [arrow(t), t] as const))('%s', async (_label, transition) => {
    const driver = drivers[name];
    if (driver === undefined) throw new Error(`no walk driver for the ${name} machine (test/mock-server/machine-walk/drivers.ts)`);
    const path = [...pathTo(machine, transition.from), transition];
    const context = await walkContext();
    const received = inboxReader(driver);
    const about = (handle: unknown, webhooks: ReceivedWebhook[]) => driver.about?.(handle, webhooks) ?? webhooks.map((w) => w.type);

    const handle = await driver.create(context, path);
    const created = await driver.status(context, handle);
    if (created !== null) expect(created, `${name}: created`).toBe(machine.initial);
    expect(about(handle, await received()), `${name}: webhooks of the creation`).toEqual(created === null || machine.createdEmits === null ? [] : [machine.createdEmits]);

    // Steps the mock takes by itself are checked with the step before them.
    let emitted: string[] = [];
    for (const [index, step] of path.entries()) {
      if (driver.automatic?.(step) !== true) await driver.fire(context, handle, step, path);
      if (step.emits !== null) emitted.push(step.emits);
      const next = path[index + 1];
      if (next !== undefined && driver.automatic?.(next) === true) continue;
      expect(await driver.status(context, handle), `${name}: status after ${arrow(step)}`).toBe(step.to);
      expect(about(handle, await received()), `${name}: webhooks of ${arrow(step)}`).toEqual(emitted);
      emitted = [];
    }
  });
});
