// The delivery schedule is configurable (for integrators who need the real service's): the
// option reaches the running engine and survives a reset; the default is the contract's.
import { describe, expect, it } from 'vitest';
import { webhookDeliveryMachine } from '../../generated/machines.js';
import { startTestServer } from './support/server.js';

describe('webhook retry schedule', () => {
  it('defaults to the delivery machine of the contract', async () => {
    const server = await startTestServer({ seed: 1 });
    try {
      expect(server.sandbox.webhooks.service.machine.scheduleSeconds).toEqual(webhookDeliveryMachine.timers.retry_schedule?.scheduleSeconds);
    } finally {
      await server.close();
    }
  });

  it('takes a configured schedule, also after a reset', async () => {
    const server = await startTestServer({ seed: 1, webhookRetrySchedule: [0, 2, 4] });
    try {
      expect(server.sandbox.webhooks.service.machine.maxAttempts).toBe(3);
      await server.control.resetSandbox({ body: {} });
      expect(server.sandbox.webhooks.service.machine.scheduleSeconds).toEqual([0, 2, 4]);
    } finally {
      await server.close();
    }
  });
});
