// Which statuses a receiver's answer may have to be recorded as its answer: the v3 contract's
// WebhookAttemptResponse.status bounds. node's HTTP parser takes any three digits (000, 099,
// 999); a delivery record showing one would break the contract of every listing it appears in
// (strict mode answers those 500), so such an answer is recorded as an error instead.
import { schemaBound } from '../bundled-contracts.js';
import { InvalidAnswerError, type TransportResponse } from './transport.js';

export const answerStatusRange = {
  minimum: schemaBound('exchange-v3', 'WebhookAttemptResponse.status', 'minimum'),
  maximum: schemaBound('exchange-v3', 'WebhookAttemptResponse.status', 'maximum'),
};

/** The answer, when its status is one the contract can show; otherwise an InvalidAnswerError. */
export function recordableAnswer(answer: TransportResponse): TransportResponse {
  const { minimum, maximum } = answerStatusRange;
  if (Number.isInteger(answer.status) && answer.status >= minimum && answer.status <= maximum) return answer;
  throw new InvalidAnswerError(`the receiver answered status ${answer.status}, which is not an HTTP status (${minimum} to ${maximum})`);
}
