// Judges one received webhook against its family's contract: the signature header
// (x-webhook-signature) verified over the raw body with the target's secret by the generated
// verifier, and the body valid against the generated validator of its event type.
import { verifyWebhookSignature } from '../../generated/runtime/client-signing.js';
import type { Family } from '../contract/families.js';
import { headerValue, type ReceivedWebhook } from '../http/webhook-receiver.js';

const maxSchemaErrors = 3;

/** The signature must verify with one of the secrets the server gave for the target (a rotation gives another). */
export function signatureProblems(family: Family, webhook: ReceivedWebhook, secrets: readonly string[]): string[] {
  const header = family.webhooks.signatureHeader;
  const signature = headerValue(webhook.headers, header);
  if (signature === undefined) return [`header ${header} missing`];
  return secrets.some((secret) => verifyWebhookSignature(webhook.rawBody, signature, secret)) ? [] : [`${header} does not verify with the secret the server gave`];
}

export function payloadProblems(family: Family, webhook: ReceivedWebhook): string[] {
  const type = eventTypeOf(family, webhook);
  const validate = type === undefined ? undefined : family.webhooks.validators[type];
  if (validate === undefined) return [`${family.webhooks.eventTypeHeader} ${type ?? '(missing)'} is not a webhook of the contract`];
  let body: unknown;
  try {
    body = JSON.parse(webhook.rawBody.toString('utf8'));
  } catch {
    return ['the body is not valid JSON'];
  }
  if (validate(body)) return [];
  const errors = (validate.errors ?? []).slice(0, maxSchemaErrors).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
  return [`the ${type} body does not match the contract: ${errors.join(', ')}`];
}

export function eventTypeOf(family: Family, webhook: ReceivedWebhook): string | undefined {
  return headerValue(webhook.headers, family.webhooks.eventTypeHeader);
}
