// Before the checks: is the server there at all (one clear failure instead of hundreds), and the
// credentials for the run: given ones, or, against our mock (--sandbox), minted through the
// sandbox control API; and the sandbox clock's offset, so request signatures use its time.
import type { RunContext } from './context.js';
import { describeError } from './checks/judge-call.js';

/** Calls the public ping; false (with a failure row) when no answer arrives. */
export async function checkReachable(context: RunContext): Promise<boolean> {
  const { exchange, error } = await context.call(() => context.v3Client(undefined).ping());
  if (exchange !== undefined) return true;
  context.log.add('setup', 'reachable', 'fail', `no answer from ${context.options.baseUrl}: ${describeError(error)}`);
  return false;
}

export async function prepareCredentials(context: RunContext): Promise<void> {
  const control = context.control;
  if (control === undefined) return;
  try {
    const clock = await control.getClock();
    context.clockOffsetMs = clock.body.result.offset_seconds * 1000;
    if (context.v3 === undefined) {
      const minted = await control.mintToken({ body: { name: 'conformance' } });
      context.useV3({ token: minted.body.result.token });
      context.log.add('setup', 'sandbox:mint-token', 'pass', `minted key ${minted.body.result.key.id} with every scope`);
    }
    if (context.v1 === undefined) {
      const created = await control.createSite({ body: { name: 'conformance' } });
      context.useV1({ key: created.body.result.site.api_key, secret: created.body.result.api_secret });
      context.log.add('setup', 'sandbox:create-site', 'pass', `created site ${created.body.result.site.id}`);
    }
  } catch (error) {
    context.log.add('setup', 'sandbox', 'fail', `the sandbox control API failed: ${describeError(error)}`);
  }
}
