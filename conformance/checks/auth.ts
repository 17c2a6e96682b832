// Authentication and authorisation: every reachable private operation refuses a request without
// credentials and one with wrong credentials, each with the catalog's code; under --sandbox, a
// key minted with every scope but the operation's own is refused with the scope code, and a key
// without scopes still reaches the operations that need none.
import type { ScopeName } from '../../generated/sandbox-control/types.js';
import type { RunContext } from '../context.js';
import { describeError, logExpectedError, successProblems } from './judge-call.js';
import { placeholderBody, reachableTargets, type Target } from './targets.js';

const wrongToken = 'conformance_wrong_token_0123456789';
const wrongSecret = 'conformance-wrong-secret-0123456789';

export async function checkAuthentication(context: RunContext): Promise<void> {
  const targets = reachableTargets(context, (_family, route) => route.security.length > 0, true);
  for (const target of targets) {
    const { family, route } = target;
    const anonymous = family.name === 'v3' ? context.v3Client(undefined) : context.v1Client(undefined);
    await expectError(context, target, 'auth:missing-credentials', anonymous.runtime, family.codes.missingCredentials);
    // v1: the site's real key with a wrong secret, so the signature (not the key) is what fails.
    const siteKey = context.v1Credentials?.key;
    if (family.name === 'v1' && siteKey === undefined) {
      context.log.skip(route.operationId, 'auth:wrong-credentials', 'a wrong signature needs a real site key (--v1-key)');
      continue;
    }
    const wrong = family.name === 'v3' ? context.v3Client(wrongToken) : context.v1Client({ key: siteKey!, secret: wrongSecret });
    await expectError(context, target, 'auth:wrong-credentials', wrong.runtime, family.codes.badCredentials);
  }
  await checkScopes(context, targets.filter((target) => target.family.name === 'v3' && context.v3 !== undefined));
}

async function expectError(context: RunContext, target: Target, check: string, runtime: Runtime, code: string): Promise<void> {
  const { family, route, path } = target;
  const spec = context.specOf(family.name, route.operationId);
  const { exchange } = await context.call(() => runtime.request(spec, { path, body: placeholderBody(route) }));
  logExpectedError(context, family, route.operationId, check, exchange, { status: family.errorCodes[code]!.status, code });
}

type Runtime = ReturnType<RunContext['v3Client']>['runtime'];

async function checkScopes(context: RunContext, targets: Target[]): Promise<void> {
  const control = context.control;
  if (control === undefined) {
    for (const { route } of targets) context.log.skip(route.operationId, 'auth:scope', 'minting a key without the scope needs --sandbox');
    return;
  }
  const allScopes = [...new Set(targets.flatMap(({ family }) => family.routes.map((route) => route.scope)).filter((scope): scope is string => typeof scope === 'string'))];
  const byScope = new Map<string | null, Target[]>();
  for (const target of targets) {
    const scope = target.route.scope ?? null;
    byScope.set(scope, [...(byScope.get(scope) ?? []), target]);
  }
  for (const [scope, group] of byScope) {
    const scopes = (scope === null ? [] : allScopes.filter((other) => other !== scope)) as ScopeName[];
    let token: string;
    try {
      token = (await control.mintToken({ body: { name: 'conformance-scope', scopes } })).body.result.token;
    } catch (error) {
      for (const { route } of group) context.log.add(route.operationId, 'auth:scope', 'fail', `could not mint a key: ${describeError(error)}`);
      continue;
    }
    const client = context.v3Client(token);
    for (const target of group) await checkScope(context, target, client.runtime, scope);
  }
}

async function checkScope(context: RunContext, { family, route, path }: Target, runtime: Runtime, scope: string | null): Promise<void> {
  const spec = context.specOf(family.name, route.operationId);
  const { exchange, error } = await context.call(() => runtime.request(spec, { path, body: placeholderBody(route) }));
  if (scope === null) {
    // Any active key reaches it: a key without scopes must get a success.
    context.log.judge(route.operationId, 'auth:scope', successProblems(family, route.operationId, exchange, error), 'a key without scopes reaches it');
    return;
  }
  const code = family.codes.scopeDenied!;
  logExpectedError(context, family, route.operationId, 'auth:scope', exchange, { status: family.errorCodes[code]!.status, code });
}
