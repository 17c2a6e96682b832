// The serve options as integrators give them: flags, environment variables and a config file
// (JSON or YAML, the flag names as keys), flags winning over the environment over the file, and
// every bad value refused as a usage error naming where it came from.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../cli/main.js';
import { UsageError } from '../../cli/options.js';
import { serveStartOptions } from '../../cli/serve.js';
import type { CommandIo } from '../../cli/io.js';

const dir = mkdtempSync(join(tmpdir(), 'exchange-api-kit-options-'));
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

function startOptions(argv: string[], env: NodeJS.ProcessEnv = {}) {
  const read = serveStartOptions(argv, env);
  if (read.help) throw new Error('help');
  return read.start;
}

function usageError(argv: string[], env: NodeJS.ProcessEnv = {}): string {
  try {
    serveStartOptions(argv, env);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error(`no usage error for ${argv.join(' ')}`);
}

describe('serve options', () => {
  it('defaults: port 4010 on 127.0.0.1, info logs, control API and docs on', () => {
    expect(startOptions([])).toEqual({ port: 4010, host: '127.0.0.1', logLevel: 'info', control: true, docs: true });
  });

  it('reads a YAML config file with the flag names, lists as arrays', () => {
    const config = file('mock.yaml', 'port: 0\nseed: 7\nno-control: true\nwebhook-retry-schedule: [0, 5, 60]\nwebhook-disable-after: 3\nwebhook-egress-ips: 10.0.0.1,10.0.0.2\nlog-level: warn\n');
    expect(startOptions(['--config', config])).toMatchObject({
      port: 0,
      seed: 7,
      control: false,
      webhookRetrySchedule: [0, 5, 60],
      webhookFailedDeliveriesLimit: 3,
      webhookEgressIps: ['10.0.0.1', '10.0.0.2'],
      logLevel: 'warn',
    });
  });

  it('flags win over the environment, which wins over the file (also named by MOCK_CONFIG)', () => {
    const config = file('mock.json', JSON.stringify({ port: 1111, seed: 1, host: '0.0.0.0' }));
    expect(startOptions(['--port', '3333'], { PORT: '2222', MOCK_SEED: '2', MOCK_CONFIG: config })).toMatchObject({ port: 3333, seed: 2, host: '0.0.0.0' });
  });

  it('reads --store from the flag, MOCK_STORE or the config key store (default memory)', () => {
    const storeOf = (argv: string[], env: NodeJS.ProcessEnv = {}) => {
      const read = serveStartOptions(argv, env);
      if (read.help) throw new Error('help');
      return read.store;
    };
    expect(storeOf([])).toBe('memory');
    expect(storeOf(['--config', file('durable.yaml', 'store: sqlite:from-file.db\n')])).toBe('sqlite:from-file.db');
    expect(storeOf([], { MOCK_STORE: 'sqlite:from-env.db' })).toBe('sqlite:from-env.db');
    expect(storeOf(['--store', 'sqlite:from-flag.db'], { MOCK_STORE: 'sqlite:from-env.db' })).toBe('sqlite:from-flag.db');
    expect(storeOf([], { MOCK_STORE: 'postgres://kit@db.internal:5432/sandbox' })).toBe('postgres://kit@db.internal:5432/sandbox');
    expect(usageError(['--store', 'sqlite:'])).toBe('--store is not understood: use memory, sqlite:PATH or postgres://USER@HOST:PORT/DATABASE, got "sqlite:"');
  });

  it('names where a store spec it does not understand came from, and where a good one did', () => {
    const config = file('bad-store.yaml', 'store: garbage\n');
    expect(usageError([], { MOCK_STORE: 'garbage' })).toMatch(/^MOCK_STORE is not understood: use memory, .*, got "garbage"$/);
    expect(usageError(['--config', config])).toMatch(new RegExp(`^"store" in ${config} is not understood: use memory, .*, got "garbage"$`));
    const givenBy = (argv: string[], env: NodeJS.ProcessEnv = {}) => {
      const read = serveStartOptions(argv, env);
      if (read.help) throw new Error('help');
      return read.storeGivenBy;
    };
    expect(givenBy([], { MOCK_STORE: 'sqlite:from-env.db' })).toBe('MOCK_STORE');
    expect(givenBy(['--config', file('good-store.yaml', 'store: sqlite:from-file.db\n')])).toMatch(/^"store" in .*good-store\.yaml$/);
    expect(givenBy(['--store', 'memory'])).toBe('--store');
  });

  it('takes switches from the environment as 1/0 or true/false', () => {
    expect(startOptions([], { MOCK_WEBHOOKS_LOOPBACK_ONLY: '1' }).webhookEgress).toBe('loopback');
    expect(startOptions([], { MOCK_WEBHOOKS_LOOPBACK_ONLY: 'false' }).webhookEgress).toBeUndefined();
  });

  it('reads the security options: webhook egress and allow-list, inbox bound, trusted proxies, timeouts in seconds', () => {
    const config = file('shared.yaml', 'webhook-egress: public\nwebhook-allow: [10.20.0.0/16, 192.0.2.7]\ntrust-proxy: loopback\nheaders-timeout: 5\n');
    expect(startOptions(['--config', config, '--webhook-inbox-bytes', '2097152'], { MOCK_REQUEST_TIMEOUT: '30' })).toMatchObject({
      webhookEgress: 'public',
      webhookAllow: ['10.20.0.0/16', '192.0.2.7'],
      trustProxy: ['loopback'],
      webhookInboxBytes: 2097152,
      headersTimeoutMs: 5000,
      requestTimeoutMs: 30000,
    });
    // The old switch is the loopback mode; with the same mode named it is no contradiction.
    expect(startOptions(['--webhooks-loopback-only', '--webhook-egress', 'loopback']).webhookEgress).toBe('loopback');
  });

  it.each([
    [['--port', '70000'], {}, /^--port must be an integer from 0 to 65535, got "70000"$/],
    [['--seed', '1.5'], {}, /^--seed must be integer/],
    [['--seed=-5'], {}, /^--seed must be >= 0/],
    [[], { PORT: 'http' }, /^PORT must be an integer/],
    [['--log-level', 'loud'], {}, /^--log-level must be one of fatal, error, warn, info, debug, trace, silent/],
    [['--token', 'short'], {}, /^--token must NOT have fewer than 16 characters/],
    [['--token', 'has space in it 0123456789'], {}, /^--token must match pattern/],
    [['--webhook-retry-schedule', '0,x'], {}, /^--webhook-retry-schedule must be an integer/],
    [[], { MOCK_WEBHOOK_DISABLE_AFTER: '-1' }, /^MOCK_WEBHOOK_DISABLE_AFTER must be an integer from 0 to 1000000/],
    [[], { MOCK_WEBHOOKS_LOOPBACK_ONLY: 'yes' }, /^MOCK_WEBHOOKS_LOOPBACK_ONLY must be true or false/],
    [['--webhook-egress', 'anywhere'], {}, /^--webhook-egress must be one of loopback, local, public/],
    [['--webhooks-loopback-only', '--webhook-egress', 'public'], {}, /--webhooks-loopback-only contradicts --webhook-egress public/],
    [['--webhook-allow', '10.0.0.0/8,intranet'], {}, /^--webhook-allow must be CIDRs or IP addresses \(not "intranet"\), got "10\.0\.0\.0\/8,intranet"$/],
    [[], { MOCK_WEBHOOK_ALLOW: 'intranet, 10.0.0.0/8, 300.1.1.1' }, /^MOCK_WEBHOOK_ALLOW must be CIDRs or IP addresses \(not "intranet", "300\.1\.1\.1"\), got "intranet, 10\.0\.0\.0\/8, 300\.1\.1\.1"$/],
    // A message that already quotes the whole value does not repeat it.
    [['--trust-proxy', 'everyone'], {}, /^--trust-proxy trusted proxies must be IP addresses, CIDRs or loopback, linklocal, uniquelocal; not "everyone"$/],
    [['--webhook-allow', 'intranet'], {}, /^--webhook-allow must be CIDRs or IP addresses \(not "intranet"\)$/],
    [['--webhook-inbox-bytes', '1000'], {}, /^--webhook-inbox-bytes must be an integer from 1048576 to 268435456/],
    [['--headers-timeout', '90', '--request-timeout', '60'], {}, /--headers-timeout cannot be longer than --request-timeout/],
    [['--nope'], {}, /Unknown option '--nope'/],
    [['--config', '/no/such/file.yaml'], {}, /--config: cannot read \/no\/such\/file.yaml: ENOENT/],
  ])('refuses %j %j', (argv, env, message) => {
    expect(usageError(argv, env)).toMatch(message);
  });

  it('refuses config files with unknown keys, bad values, bad syntax or another format, naming the file', () => {
    const unknownKey = file('unknown.yaml', 'port: 0\nprot: 1\n');
    expect(usageError(['--config', unknownKey])).toMatch(new RegExp(`--config ${unknownKey}: unknown option "prot" \\(known: port, host,`));
    const badValue = file('bad.json', '{"port": "x"}');
    expect(usageError(['--config', badValue])).toBe(`"port" in ${badValue} must be an integer from 0 to 65535, got "x"`);
    const badType = file('object.json', '{"host": {"a": 1}}');
    expect(usageError(['--config', badType])).toMatch(/"host" in .* must be a string, a number or a list of them/);
    expect(usageError(['--config', file('broken.json', '{"port": ')])).toMatch(/broken\.json: .*JSON/);
    expect(usageError(['--config', file('list.yaml', '- 1\n')])).toMatch(/expected an object of options/);
    expect(usageError(['--config', file('mock.toml', 'port = 1')])).toMatch(/must end in .json, .yaml or .yml/);
  });
});

describe('the exchange-api-kit command', () => {
  function io(): CommandIo & { out: string[]; err: string[] } {
    const out: string[] = [];
    const err: string[] = [];
    return { env: {}, out, err, stdout: (text) => void out.push(text), stderr: (text) => void err.push(text) };
  }

  it('without a command, or an unknown one, prints the usage and exits 2', async () => {
    for (const argv of [[], ['serv']]) {
      const streams = io();
      expect(await main(argv, streams)).toBe(2);
      expect(streams.err.join('\n')).toMatch(/usage: exchange-api-kit <command>/);
    }
  });

  it('--help lists the commands and the exit codes', async () => {
    const streams = io();
    expect(await main(['--help'], streams)).toBe(0);
    for (const text of ['serve', 'generate', 'conformance', 'Exit codes: 0 ok, 1 failure']) expect(streams.out.join('\n')).toContain(text);
  });

  it('serve --help lists every option with its environment variable; a bad flag exits 2 with the usage', async () => {
    const help = io();
    expect(await main(['serve', '--help'], help)).toBe(0);
    for (const text of ['--port <n>', '[env PORT]', '--log-level', '[env MOCK_LOG_LEVEL]', '--config <file>', '[env MOCK_CONFIG]']) {
      expect(help.out.join('\n')).toContain(text);
    }
    const bad = io();
    expect(await main(['serve', '--port', 'x'], bad)).toBe(2);
    expect(bad.err.join('\n')).toMatch(/--port must be an integer[\s\S]*usage: exchange-api-kit serve/);
  });
});
