// The delivery schedule and the failed deliveries that disable an endpoint are configurable (for
// integrators who need the real service's): each option reaches the running engine and survives
// a reset; the defaults are the contract's machines'.
import { describe, expect, it } from 'vitest';
import { webhookDeliveryMachine, webhookEndpointMachine } from '../../generated/machines.js';
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

describe('failed deliveries that disable an endpoint', () => {
  it('default to the webhook-endpoint machine of the contract', async () => {
    const server = await startTestServer({ seed: 1 });
    try {
      expect(server.sandbox.webhooks.service.failedDeliveriesLimit).toBe(webhookEndpointMachine.limits.failed_deliveries?.count);
    } finally {
      await server.close();
    }
  });

  it('take a configured number, 0 included (never), also after a reset; a negative one does not start', async () => {
    const server = await startTestServer({ seed: 1, webhookFailedDeliveriesLimit: 0 });
    try {
      await server.control.resetSandbox({ body: {} });
      expect(server.sandbox.webhooks.service.failedDeliveriesLimit).toBe(0);
    } finally {
      await server.close();
    }
    await expect(startTestServer({ webhookFailedDeliveriesLimit: -1 })).rejects.toThrow(RangeError);
  });
});
