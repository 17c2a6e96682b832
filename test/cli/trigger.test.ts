// `exchange-api-kit trigger` against a running mock over real HTTP: every webhook event type the
// contracts declare (and every order state) can be triggered, and each triggered event really
// reaches the mock's inbox, signed (also on a mock guarded by an admin token); given
// credentials are used as they are; an unknown event is a usage error. One run goes through the
// bin as a process.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { triggerCommand } from '../../cli/trigger.js';
import { contractEventTypes, triggerPlans } from '../../cli/trigger/trigger-plans.js';
import { orderMachine } from '../../generated/machines.js';
import { mockClients, type MockClients } from '../../index.js';
import { startMockServer, type RunningMockServer } from '../../mock-server/server.js';
import { repoRoot } from '../support/contracts.js';

let mock: RunningMockServer;
let clients: MockClients;
beforeAll(async () => {
  mock = await startMockServer({ seed: 1, loopbackWebhooksOnly: true });
  clients = mockClients(mock);
});
afterAll(() => mock.close());

async function trigger(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await triggerCommand(argv, { env: {}, stdout: (text) => out.push(text), stderr: (text) => err.push(text) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('trigger --list', () => {
  it('covers every webhook event type of both contracts, each with a way to cause it', async () => {
    const plans = triggerPlans();
    for (const type of [...contractEventTypes.v3, ...contractEventTypes.v1]) {
      expect(plans.find((plan) => plan.name === type)?.kind, type).toMatch(/^(machine|side-event|test-webhook)$/);
    }
    const { code, out } = await trigger('--list');
    expect(code).toBe(0);
    expect(out).toMatch(/^deposit\.paid +v1 +a new deposit created, then transaction_detected → confirmed\[amount_matches\]$/m);
    expect(out).toMatch(/^order\.completed +v3 +a new order created, then .* → complete \(emits order\.status_changed\)$/m);
  });

  it('offers order.<state> for every state of the order machine, the initial one as a new order', async () => {
    const names = triggerPlans().map((plan) => plan.name);
    for (const state of orderMachine.states) expect(names, state).toContain(`order.${state}`);
    const { out } = await trigger('--list');
    expect(out).toMatch(new RegExp(`^order\\.${orderMachine.initial} +v3 +a new order created \\(emits ${orderMachine.createdEmits!.replace('.', '\\.')}\\)$`, 'm'));
  });
});

describe('trigger EVENT', () => {
  it.each(triggerPlans().flatMap((plan) => (plan.kind === 'none' ? [] : [[plan.name, plan.emits]])))('%s: emits %s and it reaches the inbox, signed', async (name, emits) => {
    const { code, out, err } = await trigger(name, '--mock', mock.url);
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(out).toMatch(new RegExp(`^triggered ${name.replace('.', '\\.')}$`, 'm'));
    const eventIds = [...out.matchAll(new RegExp(`^event ${emits.replace('.', '\\.')} (\\S+) \\(1 delivery\\)$`, 'gm'))].map((match) => match[1]!);
    expect(eventIds.length).toBeGreaterThan(0);
    await clients.control.runDueWebhooks();
    const received = (await clients.control.listInboxWebhooks({ query: { event_id: eventIds.at(-1)! } })).body.result.deliveries;
    expect(received.map((record) => [record.event_type, record.signature_valid])).toEqual([[emits, true]]);
  });

  it('acts as the given site: the event is signed with its webhook secret', async () => {
    const { code, out } = await trigger('deposit.expired', '--mock', mock.url, '--site-key', mock.site.apiKey, '--site-secret', mock.site.apiSecret);
    expect(code).toBe(0);
    expect(out).not.toMatch(/created v1 site/);
    const eventId = /^event deposit\.expired (\S+)/m.exec(out)![1]!;
    // Only the site an event belongs to can have it sent again.
    const resent = await clients.v1.resendWebhookEvent({ path: { eventId } });
    expect(resent.body.data.eventId).toBe(eventId);
  });

  it('triggers api.test on a mock guarded by an admin token: the event reaches its inbox, signed', async () => {
    const adminToken = 'trigger-admin-token-0123456789';
    const guarded = await startMockServer({ seed: 2, loopbackWebhooksOnly: true, adminToken });
    try {
      const { code, out, err } = await trigger('api.test', '--mock', guarded.url, '--admin-token', adminToken);
      expect(err).toBe('');
      expect(code).toBe(0);
      const eventId = /^event api\.test (\S+) \(1 delivery\)$/m.exec(out)![1]!;
      const control = mockClients(guarded, { adminToken }).control;
      await control.runDueWebhooks();
      const received = (await control.listInboxWebhooks({ query: { event_id: eventId } })).body.result.deliveries;
      expect(received.map((record) => [record.event_type, record.signature_valid])).toEqual([['api.test', true]]);
    } finally {
      await guarded.close();
    }
  });

  it('refuses an event no contract declares', async () => {
    const { code, err } = await trigger('order.shipped', '--mock', mock.url);
    expect(code).toBe(2);
    expect(err).toMatch(/unknown event order\.shipped \(trigger --list names them all\)/);
  });

  it('runs as a command', async () => {
    const { PATH = '', HOME = '' } = process.env;
    const child = spawn(process.execPath, [join(repoRoot, 'bin', 'exchange-api-kit.mjs'), 'trigger', 'webhook.test'], { env: { PATH, HOME, MOCK_URL: mock.url }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    expect(code).toBe(0);
    expect(stdout).toMatch(/^event webhook\.test \S+ \(1 delivery\)$/m);
  });
});
