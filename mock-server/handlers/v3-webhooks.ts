// The v3 webhook operations (description 4.4): endpoints, events, deliveries, retry and the test
// event, over the sandbox's webhook engine.
import type { ExchangeV3Handlers } from '../../generated/exchange-v3/routes.js';
import type { Sandbox } from '../sandbox.js';

export function webhookHandlers(_sandbox: Sandbox): Partial<ExchangeV3Handlers> {
  return {};
}
