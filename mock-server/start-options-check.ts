// The options a mock starts with that the control contract has rules for, judged by the
// contract's own validators (mintToken's token, resetSandbox's seed, createSite's API key and
// secret): `serve`'s flags and startMockServer's options hold to the same, so neither starts a
// mock whose default token or site its own API would refuse. startMockServer checks its log
// level here too, with the others, before it starts anything.
import { createSite_body, mintToken_body, resetSandbox_body, type Validator } from '../generated/sandbox-control/validators.js';
import { logLevelProblem } from './log.js';

/** Why `token` cannot be a mock's default token, or undefined when it can. */
export function tokenProblem(token: unknown): string | undefined {
  return fieldProblem(mintToken_body, 'token', token);
}

/** Why `seed` cannot seed a mock, or undefined when it can. */
export function seedProblem(seed: unknown): string | undefined {
  return fieldProblem(resetSandbox_body, 'seed', seed);
}

/** Why `apiKey` cannot be the default v1 site's API key, or undefined when it can. */
export function siteKeyProblem(apiKey: unknown): string | undefined {
  return fieldProblem(createSite_body, 'api_key', apiKey);
}

/** Why `apiSecret` cannot be the default v1 site's API secret, or undefined when it can. */
export function siteSecretProblem(apiSecret: unknown): string | undefined {
  return fieldProblem(createSite_body, 'api_secret', apiSecret);
}

/**
 * Why `token` cannot guard a mock's control API, or undefined when it can. The contract gives the
 * admin token no rule of its own, so it is held to a fixed token's (mintToken's): an empty or
 * blank one, what an unset variable gives, is refused instead of guarding nothing, and what is
 * accepted travels in a header as it was given.
 */
export function adminTokenProblem(token: unknown): string | undefined {
  return tokenProblem(token);
}

/** Each option judged, by its name in startMockServer's options. */
const judges = { token: tokenProblem, seed: seedProblem, siteKey: siteKeyProblem, siteSecret: siteSecretProblem, adminToken: adminTokenProblem, logLevel: logLevelProblem };

/** Why `options` cannot start a mock (the first option refused, by name), or undefined when they can. */
export function startOptionsProblem(options: { [Name in keyof typeof judges]?: unknown }): string | undefined {
  for (const [name, problem] of Object.entries(judges)) {
    const value = options[name as keyof typeof judges];
    const why = value === undefined ? undefined : problem(value);
    if (why !== undefined) return `${name} ${why}`;
  }
  return undefined;
}

function fieldProblem(validate: Validator, field: string, value: unknown): string | undefined {
  if (validate({ [field]: value })) return undefined;
  const errors = validate.errors ?? [];
  return (errors.find((error) => error.instancePath === `/${field}`) ?? errors[0])?.message ?? 'is not valid';
}
