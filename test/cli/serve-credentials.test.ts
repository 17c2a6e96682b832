// `serve` through the real bin holds the credentials it is given to the control contract's rules
// before it starts: an empty admin token (`--admin-token=`, `MOCK_ADMIN_TOKEN=`, an empty config
// key: what an unset secret gives) once started a mock whose control API anyone could call, under
// a banner like a guarded one's; a site key or secret createSite would refuse started a mock whose
// default site's calls answered 401 or could not be sent. Each is exit 2 naming where the value
// came from.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { binRunner, output } from '../support/bin-process.js';

const dir = mkdtempSync(join(tmpdir(), 'exchange-api-kit-serve-credentials-'));
const run = binRunner(dir);
const ready = /try: curl .*\n/;

/** The exit of `serve` with `args` and `env`; a mock that starts instead ends it with code null. */
function refusal(args: string[], env: Record<string, string> = {}) {
  return output(run(['serve', '--port', '0', ...args], env), ready);
}

describe('serve --admin-token', () => {
  const config = join(dir, 'empty-admin-token.yaml');
  writeFileSync(config, 'admin-token: ""\n');

  it.each([
    [['--admin-token='], {}, /^exchange-api-kit serve: --admin-token must NOT have fewer than 16 characters/],
    [['--admin-token', ' '.repeat(20)], {}, /^exchange-api-kit serve: --admin-token must match pattern/],
    [[], { MOCK_ADMIN_TOKEN: '' }, /^exchange-api-kit serve: MOCK_ADMIN_TOKEN must NOT have fewer than 16 characters/],
    [['--config', config], {}, /^exchange-api-kit serve: "admin-token" in .*empty-admin-token\.yaml must NOT have fewer than 16 characters/],
  ])('refuses %j %j with exit 2, naming it', async (args, env, message) => {
    const exit = await refusal(args, env);
    expect(exit.code).toBe(2);
    expect(exit.stderr).toMatch(message);
  });

  it('starts with a token the rule allows, from MOCK_ADMIN_TOKEN, and the control API requires it', async () => {
    const adminToken = 'ci_admin_token_0123456789';
    const { code, stdout } = await refusal([], { MOCK_ADMIN_TOKEN: adminToken });
    expect(code).toBeNull();
    const url = /listening on (http:\/\/\S+)/.exec(stdout)?.[1];
    const clock = (headers: Record<string, string>) => fetch(`${url}/__mock/clock`, { headers }).then((answer) => answer.status);
    expect([await clock({}), await clock({ 'x-mock-admin-token': adminToken })]).toEqual([401, 200]);
  });
});

describe('serve --site-key and --site-secret', () => {
  it.each([
    [['--site-key', ' leading_space_0123456789'], {}, /^exchange-api-kit serve: --site-key must match pattern/],
    [[], { MOCK_SITE_KEY: 'ключ_сайта_0123456789' }, /^exchange-api-kit serve: MOCK_SITE_KEY must match pattern/],
    [['--site-secret', 'short'], {}, /^exchange-api-kit serve: --site-secret must NOT have fewer than 32 characters/],
  ])('refuses %j %j with exit 2, naming it', async (args, env, message) => {
    const exit = await refusal(args, env);
    expect(exit.code).toBe(2);
    expect(exit.stderr).toMatch(message);
  });

  it.each([
    ['--site-secret', 'secret with spaces 0123456789abcdef'],
    ['--admin-token', 'admin token with spaces 0123'],
    ['--token', 'token with spaces 0123456789'],
  ])('does not repeat a refused %s in its message (stderr ends up in CI logs)', async (flag, value) => {
    const exit = await refusal([flag, value]);
    expect(exit.code).toBe(2);
    expect(exit.stderr).toMatch(new RegExp(`^exchange-api-kit serve: ${flag} must match pattern`));
    expect(exit.stderr).not.toContain(value);
  });

  it('starts with a key and a secret the contract allows, and prints them', async () => {
    const [key, secret] = ['pk_ci_default_site_0001', 'sk_ci_default_site_0123456789abcdef0123'];
    const { code, stdout } = await refusal(['--site-key', key, '--site-secret', secret]);
    expect(code).toBeNull();
    expect(stdout).toContain(`site key: ${key}  secret: ${secret}`);
  });
});
