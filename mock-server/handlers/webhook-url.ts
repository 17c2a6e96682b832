// A webhook URL being registered (a v3 endpoint's url, a v1 site's callback_url) against the
// sandbox's egress policy: one it would never send to is refused now, with 422 on the field,
// rather than accepted and failed at every attempt. A shared sandbox's replicas are read anew
// first, so a URL aimed at a replica's port is refused as the mock's own.
import { HttpError } from '../http/http-error.js';
import type { Sandbox } from '../sandbox.js';

export async function refuseUnreachable(sandbox: Sandbox, url: string, field: string): Promise<void> {
  await sandbox.egress.ownListener.refresh();
  const problem = sandbox.egress.policy.registrationProblem(url);
  if (problem !== undefined) throw new HttpError('validation_error', 'This URL cannot receive webhooks from this sandbox.', { [field]: [problem] });
}
