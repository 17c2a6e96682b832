// The v1 webhook helpers (description 4.5): the site's test webhook, resend by X-Event-Id, the
// egress IPs and the event catalog, over the sandbox's webhook engine.
import type { DepositV1Handlers } from '../../generated/deposit-v1/routes.js';
import type { Sandbox } from '../sandbox.js';

export function siteWebhookHandlers(_sandbox: Sandbox): Partial<DepositV1Handlers> {
  return {};
}
