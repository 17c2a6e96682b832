// Which statuses a receiver's answer may have to be recorded as its answer: the v3 contract's
// WebhookAttemptResponse.status bounds. node's HTTP parser takes any three digits (000, 099,
// 999); a delivery record showing one would break the contract of every listing it appears in
// (strict mode answers those 500), so such an answer is recorded as an error instead.
import { bundledDocument } from '../bundled-contracts.js';
import { InvalidAnswerError, type TransportResponse } from './transport.js';

export const answerStatusRange = readStatusRange();

/** The answer, when its status is one the contract can show; otherwise an InvalidAnswerError. */
export function recordableAnswer(answer: TransportResponse): TransportResponse {
  const { minimum, maximum } = answerStatusRange;
  if (Number.isInteger(answer.status) && answer.status >= minimum && answer.status <= maximum) return answer;
  throw new InvalidAnswerError(`the receiver answered status ${answer.status}, which is not an HTTP status (${minimum} to ${maximum})`);
}

function readStatusRange(): { minimum: number; maximum: number } {
  type Schemas = Record<string, { properties?: Record<string, { minimum?: unknown; maximum?: unknown }> }>;
  const schemas = (bundledDocument('exchange-v3').components as { schemas?: Schemas } | undefined)?.schemas;
  const status = schemas?.WebhookAttemptResponse?.properties?.status;
  if (typeof status?.minimum !== 'number' || typeof status.maximum !== 'number') throw new Error('v3 contract: WebhookAttemptResponse.status has no minimum and maximum');
  return { minimum: status.minimum, maximum: status.maximum };
}
