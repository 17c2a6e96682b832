// Before the checks: is the server there at all (one clear failure instead of hundreds), whose
// time requests are signed with (the sandbox clock under --sandbox, else the Date header of the
// server's answers), and the credentials for the run: given ones, or, against our mock
// (--sandbox), minted through the sandbox control API.
import { adminTokenRefusal, refusesAdminToken } from '../admin-token-refusal.js';
import { ApiError } from '../generated/runtime/client-errors.js';
import type { RunContext } from './context.js';
import { describeError } from './checks/judge-call.js';
import { describeOffset } from './http/server-clock.js';

/** Calls the public ping; false (with a failure row) when no answer arrives. */
export async function checkReachable(context: RunContext): Promise<boolean> {
  const { exchange, error } = await context.call(() => context.v3Client(undefined).ping());
  if (exchange !== undefined) return true;
  context.log.add('setup', 'reachable', 'fail', `no answer from ${context.options.baseUrl}: ${describeError(error)}`);
  return false;
}

/** Reads the sandbox clock when there is one; logs whose time the run signs with. */
export async function syncServerClock(context: RunContext): Promise<void> {
  let fallback = '';
  if (context.control !== undefined) {
    try {
      const clock = await context.control.getClock();
      context.serverClock.setFromSandbox(clock.body.result.now, Date.now());
    } catch (error) {
      fallback = ` (the sandbox clock could not be read: ${controlFailure(context, error)})`;
    }
  }
  const { offsetMs, source } = context.serverClock.current;
  const serverNow = new Date(context.serverClock.now()).toISOString();
  context.log.add('setup', 'server-clock', 'pass', `requests are signed with the server's time from ${source}: ${serverNow}, ${describeOffset(offsetMs)} from this machine${fallback}`);
}

export async function prepareCredentials(context: RunContext): Promise<void> {
  const control = context.control;
  if (control === undefined) return;
  try {
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
    context.log.add('setup', 'sandbox', 'fail', `the sandbox control API failed: ${controlFailure(context, error)}`);
  }
}

/** Why a control API call failed: a refusal for the admin token is told as every command tells it. */
function controlFailure(context: RunContext, error: unknown): string {
  if (!(error instanceof ApiError) || !refusesAdminToken(error.status)) return describeError(error);
  return adminTokenRefusal(error.status, error.code, context.options.adminToken === undefined ? undefined : '--admin-token', '--admin-token');
}
