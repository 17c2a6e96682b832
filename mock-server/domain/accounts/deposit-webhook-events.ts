// The v1 webhook event types, from the deposit contract's webhooks section (through the generated
// webhook validators, one per type); a site subscribes to every `deposit.*` type by default.
import { webhookValidators } from '../../../generated/deposit-v1/validators.js';

/** An event type of the deposit contract's webhooks section. */
export type DepositV1Webhook = keyof typeof webhookValidators;

/** Whether the deposit contract's webhooks section has this event type. */
export function isDepositV1Webhook(type: string): type is DepositV1Webhook {
  return Object.hasOwn(webhookValidators, type);
}

export const depositV1Webhooks: DepositV1Webhook[] = (Object.keys(webhookValidators) as DepositV1Webhook[]).filter((type) => type.startsWith('deposit.')).sort();

/** Whether a site may subscribe to this event type (one of depositV1Webhooks). */
export function isSubscribable(type: string): type is DepositV1Webhook {
  return (depositV1Webhooks as string[]).includes(type);
}
