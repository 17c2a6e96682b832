// The default token and the seed a mock starts with, judged by the control contract's own rules
// (mintToken's token, resetSandbox's seed): `serve`'s flags and startMockServer's options hold to
// the same, so neither starts a mock whose default token its own API would refuse.
import { mintToken_body, resetSandbox_body, type Validator } from '../generated/sandbox-control/validators.js';

/** Why `token` cannot be a mock's default token, or undefined when it can. */
export function tokenProblem(token: unknown): string | undefined {
  return fieldProblem(mintToken_body, 'token', token);
}

/** Why `seed` cannot seed a mock, or undefined when it can. */
export function seedProblem(seed: unknown): string | undefined {
  return fieldProblem(resetSandbox_body, 'seed', seed);
}

/** Why `options` cannot start a mock (its token or its seed), or undefined when they can. */
export function startOptionsProblem(options: { token?: string | undefined; seed?: number | undefined }): string | undefined {
  const token = options.token === undefined ? undefined : tokenProblem(options.token);
  if (token !== undefined) return `token ${token}`;
  const seed = options.seed === undefined ? undefined : seedProblem(options.seed);
  return seed === undefined ? undefined : `seed ${seed}`;
}

function fieldProblem(validate: Validator, field: string, value: unknown): string | undefined {
  if (validate({ [field]: value })) return undefined;
  const errors = validate.errors ?? [];
  return (errors.find((error) => error.instancePath === `/${field}`) ?? errors[0])?.message ?? 'is not valid';
}
