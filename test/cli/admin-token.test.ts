// Every command that sends a running mock its admin token (listen, trigger, conformance
// --sandbox), run against a real mock started with one: without a token each says the mock needs
// one and how to give it; with a wrong one (the flag, or MOCK_ADMIN_TOKEN where the command reads
// it) each says that the token given there was refused, never that none was given. Exit code 1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenCommand } from '../../cli/listen.js';
import { triggerCommand } from '../../cli/trigger.js';
import { runConformanceCli } from '../../conformance/cli-main.js';
import { startMockServer, type RunningMockServer } from '../../mock-server/server.js';

const adminToken = 'the-admin-token-of-this-mock-0123';
const wrongToken = 'not-the-admin-token-of-this-mock-0';
let mock: RunningMockServer;
beforeAll(async () => {
  mock = await startMockServer({ seed: 4, adminToken });
});
afterAll(() => mock.close());

type Command = 'listen' | 'trigger' | 'conformance';

/** Runs `command` in-process against the guarded mock: its exit code and the lines it printed. */
async function run(command: Command, extra: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const io = { env, stdout: (text: string) => out.push(...text.trimEnd().split('\n')), stderr: (text: string) => err.push(...text.trimEnd().split('\n')) };
  const code =
    command === 'listen'
      ? await listenCommand(['--forward-to', 'http://127.0.0.1:9/hooks', '--mock', mock.url, ...extra], io)
      : command === 'trigger'
        ? await triggerCommand(['webhook.test', '--mock', mock.url, ...extra], io)
        : await runConformanceCli(['--base-url', mock.url, '--sandbox', '--only', 'Account', ...extra], io);
  return { code, out, err };
}

/** What a command says about the refusal: its one line on stderr (listen, trigger), its setup row (conformance). */
function refusal(command: Command, printed: { out: string[]; err: string[] }): string | undefined {
  if (command === 'conformance') {
    const row = /^setup +sandbox +FAIL +the sandbox control API failed: (.*)$/;
    return printed.out.map((line) => row.exec(line)?.[1]).find((reason) => reason !== undefined);
  }
  expect(printed.err).toHaveLength(1);
  const prefix = `exchange-api-kit ${command}: `;
  expect(printed.err[0]!.startsWith(prefix), printed.err[0]).toBe(true);
  return printed.err[0]!.slice(prefix.length);
}

describe('a mock that refuses the admin token', () => {
  it.each<[Command, string]>([
    ['listen', '--admin-token or MOCK_ADMIN_TOKEN'],
    ['trigger', '--admin-token or MOCK_ADMIN_TOKEN'],
    ['conformance', '--admin-token'],
  ])('%s without a token: the mock needs one, given with %s', async (command, howToGive) => {
    const printed = await run(command, []);
    expect(printed.code).toBe(1);
    expect(refusal(command, printed)).toMatch(new RegExp(`^the mock's control API needs its admin token \\(HTTP 40[13]\\): give it with ${howToGive}$`));
  });

  it.each<[Command, string[], NodeJS.ProcessEnv, string]>([
    ['listen', ['--admin-token', wrongToken], {}, '--admin-token'],
    ['listen', [], { MOCK_ADMIN_TOKEN: wrongToken }, 'MOCK_ADMIN_TOKEN'],
    ['trigger', ['--admin-token', wrongToken], {}, '--admin-token'],
    ['trigger', [], { MOCK_ADMIN_TOKEN: wrongToken }, 'MOCK_ADMIN_TOKEN'],
    ['conformance', ['--admin-token', wrongToken], {}, '--admin-token'],
  ])('%s %j %j with a wrong token: the token of %s was refused', async (command, extra, env, from) => {
    const printed = await run(command, extra, env);
    expect(printed.code).toBe(1);
    expect(refusal(command, printed)).toMatch(new RegExp(`^the mock refused the admin token given in ${from} \\(HTTP 40[13]\\): it is not the one the mock was started with$`));
    const all = [...printed.out, ...printed.err].join('\n');
    expect(all).not.toMatch(/needs (its|the) admin token|Pass --admin-token/);
    expect(all).not.toContain(wrongToken);
  });
});
