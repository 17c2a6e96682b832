// A webhook URL being registered (a v3 endpoint's url, a v1 site's callback_url) against the
// sandbox's egress policy: one it would never send to is refused now, with 422 on the field,
// rather than accepted and failed at every attempt.
import { HttpError } from '../http/http-error.js';
import type { Sandbox } from '../sandbox.js';

export function refuseUnreachable(sandbox: Sandbox, url: string, field: string): void {
  const problem = sandbox.egress.policy.registrationProblem(url);
  if (problem !== undefined) throw new HttpError('validation_error', 'This URL cannot receive webhooks from this sandbox.', { [field]: [problem] });
}
