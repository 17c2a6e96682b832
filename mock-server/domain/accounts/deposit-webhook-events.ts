// The v1 webhook event types a site subscribes to by default: every `deposit.*` type of the
// deposit contract's webhooks section (through the generated webhook validators, one per type).
import { webhookValidators } from '../../../generated/deposit-v1/validators.js';

export const depositV1Webhooks: string[] = Object.keys(webhookValidators).filter((type) => type.startsWith('deposit.')).sort();
