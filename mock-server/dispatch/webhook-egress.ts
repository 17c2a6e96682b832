// How a sandbox's webhooks leave it: the egress policy, the mock's own listener (never a
// target, except for what it serves in-process), the real HTTP transport within them and the
// one delivery pool every attempt waits in. Built once per sandbox; a reset keeps it.
import { DeliveryPool } from './delivery-pool.js';
import { EgressPolicy, type EgressMode } from './egress-policy.js';
import { httpTransport, type Resolver } from './http-transport.js';
import { OwnListener } from './own-listener.js';
import type { Transport } from './transport.js';

export interface WebhookEgressOptions {
  /** Which addresses webhooks may reach (default `local`); see egress-policy.ts. */
  webhookEgress?: EgressMode | undefined;
  /** CIDRs webhooks may reach whatever the mode (never link-local, metadata or the mock itself). */
  webhookAllow?: string[] | undefined;
  /** How host names of webhook URLs are resolved (default the system's); tests pass their own. */
  webhookResolver?: Resolver | undefined;
  /** @deprecated the same as `webhookEgress: 'loopback'` (kept for existing setups). */
  loopbackWebhooksOnly?: boolean | undefined;
}

export interface WebhookEgress {
  policy: EgressPolicy;
  ownListener: OwnListener;
  pool: DeliveryPool;
  transport: Transport;
}

export function createWebhookEgress(options: WebhookEgressOptions): WebhookEgress {
  const ownListener = new OwnListener();
  const policy = new EgressPolicy({ mode: egressMode(options), allow: options.webhookAllow ?? [] }, ownListener);
  const transport = httpTransport({ policy, ownListener, ...(options.webhookResolver ? { resolve: options.webhookResolver } : {}) });
  return { policy, ownListener, pool: new DeliveryPool(), transport };
}

function egressMode(options: WebhookEgressOptions): EgressMode | undefined {
  if (options.loopbackWebhooksOnly !== true) return options.webhookEgress;
  if (options.webhookEgress !== undefined && options.webhookEgress !== 'loopback') {
    throw new RangeError(`loopback-only webhooks contradict webhook egress "${options.webhookEgress}": give one of them`);
  }
  return 'loopback';
}
