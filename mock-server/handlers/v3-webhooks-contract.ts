// What the v3 webhook operations read from the bundled contract (generated/exchange-v3/openapi.yaml)
// rather than restate: the event catalog (the WebhookEventType enum, titled by the summaries of
// the contract's top-level `webhooks`) and the test webhook's default event type. Parsed once.
import { bundledDocument } from '../bundled-contracts.js';
import type { WebhookEventCatalogItem, WebhookEventType } from '../../generated/exchange-v3/types.js';

export interface WebhookContractData {
  /** Every v3 event type with its title, in the enum's order. */
  catalog: WebhookEventCatalogItem[];
  /** SendTestWebhookRequest.event_type's default. */
  testEventType: WebhookEventType;
}

let cached: WebhookContractData | undefined;

export function webhookContractData(): WebhookContractData {
  cached ??= read(bundledDocument('exchange-v3') as ContractDocument);
  return cached;
}

interface ContractDocument {
  webhooks?: Record<string, { post?: { summary?: unknown } }>;
  components?: { schemas?: Record<string, { enum?: unknown; properties?: Record<string, { default?: unknown }> }> };
}

function read(document: ContractDocument): WebhookContractData {
  const schemas = document.components?.schemas ?? {};
  const types = schemas.WebhookEventType?.enum;
  if (!Array.isArray(types) || types.length === 0) throw new Error('v3 contract: WebhookEventType has no enum');
  // The enum's description says it equals the keys of `webhooks`; a type without a titled entry is contract drift.
  const catalog = types.map((type): WebhookEventCatalogItem => {
    const title = document.webhooks?.[String(type)]?.post?.summary;
    if (typeof title !== 'string') throw new Error(`v3 contract: webhooks.${String(type)} has no post summary`);
    return { event: type as WebhookEventType, title };
  });
  const testEventType = schemas.SendTestWebhookRequest?.properties?.event_type?.default;
  if (typeof testEventType !== 'string' || !types.includes(testEventType)) {
    throw new Error('v3 contract: SendTestWebhookRequest.event_type has no default event type');
  }
  return { catalog, testEventType: testEventType as WebhookEventType };
}
