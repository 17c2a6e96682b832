// `exchange-api-kit listen` as a process against a running mock: a real event reaches a local
// receiver that verifies it with verifyWebhookSignature and the site's webhook secret, the line
// shows the receiver's status, and when the mock goes away and comes back on the same port the
// stream is followed again and the next event arrives too. An empty or unknown --events exits 2,
// a --mock that answers without an event stream exits 1, and SIGINT does not wait for a receiver
// that hangs.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { listenCommand } from '../../cli/listen.js';
import { verifyWebhookSignature } from '../../generated/runtime/client-runtime.js';
import { mockClients } from '../../index.js';
import { startMockServer, type RunningMockServer } from '../../mock-server/server.js';
import { repoRoot } from '../support/contracts.js';

const bin = join(repoRoot, 'bin', 'exchange-api-kit.mjs');
const running: ChildProcess[] = [];
const received: { path: string; eventId: string; valid: boolean }[] = [];
let receiver: Server;
let receiverUrl: string;
const seed = 11; // the same seed gives the restarted mock the same default site secret

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const valid = verifyWebhookSignature(body, String(req.headers['x-signature'] ?? ''), secret);
      received.push({ path: req.url ?? '', eventId: String(req.headers['x-event-id']), valid });
      res.writeHead(valid ? 204 : 401).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
});
afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));
afterEach(() => {
  for (const child of running.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

let secret = '';

function listen(args: string[]) {
  const { PATH = '', HOME = '' } = process.env;
  const child = spawn(process.execPath, [bin, 'listen', ...args], { env: { PATH, HOME }, stdio: ['ignore', 'pipe', 'pipe'] });
  running.push(child);
  let stdout = '';
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const watchers: { pattern: RegExp; resolve: () => void }[] = [];
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    for (const watcher of watchers.filter((w) => w.pattern.test(stdout))) {
      watchers.splice(watchers.indexOf(watcher), 1);
      watcher.resolve();
    }
  });
  const done = new Promise<number | null>((resolve) => child.once('close', resolve));
  return {
    output: () => stdout,
    errors: () => stderr,
    until: (pattern: RegExp) => new Promise<void>((resolve) => (pattern.test(stdout) ? resolve() : watchers.push({ pattern, resolve }))),
    interrupt: () => child.kill('SIGINT'),
    done,
  };
}

describe('exchange-api-kit listen', () => {
  it('forwards a real event signed with the site secret, and follows the mock again after it restarts', async () => {
    let mock: RunningMockServer = await startMockServer({ seed });
    secret = mock.site.webhookSecret;
    const port = new URL(mock.url).port;
    const run = listen(['--forward-to', receiverUrl, '--mock', mock.url, '--max-events', '2']);
    await run.until(/connected to /);

    const first = (await mockClients(mock).v1.sendSiteTestWebhook()).body.data.eventId;
    await run.until(new RegExp(`webhook\\.test  ${first}  → 204`));

    await mock.close();
    await run.until(/stream dropped .*; reconnecting in/);
    mock = await startMockServer({ seed, port: Number(port) });
    try {
      await run.until(/connected to .*\(resuming after event [0-9a-f]{8}-1\)/);
      const second = (await mockClients(mock).v1.sendSiteTestWebhook()).body.data.eventId;
      expect(await run.done).toBe(0);
      expect(received).toEqual([
        { path: '/hooks', eventId: first, valid: true },
        { path: '/hooks', eventId: second, valid: true },
      ]);
      expect(run.output()).not.toContain(secret);
    } finally {
      await mock.close();
    }
  });

  it('needs the admin token of a guarded mock, and follows it with the token', async () => {
    const adminToken = 'listen-admin-token-0123456789';
    const mock = await startMockServer({ seed, adminToken });
    secret = mock.site.webhookSecret;
    const lines: string[] = [];
    const io = { env: {}, stdout: (text: string) => lines.push(text), stderr: (text: string) => lines.push(text) };
    try {
      expect(await listenCommand(['--forward-to', receiverUrl, '--mock', mock.url], io)).toBe(1);
      expect(lines.join('\n')).toMatch(/the mock's control API needs its admin token \(HTTP 401\): give it with --admin-token or MOCK_ADMIN_TOKEN/);
      const following = listenCommand(['--forward-to', receiverUrl, '--mock', mock.url, '--max-events', '1'], { ...io, env: { MOCK_ADMIN_TOKEN: adminToken } });
      while (!lines.some((line) => line.startsWith('connected to'))) await new Promise((resolve) => setTimeout(resolve, 20));
      const sent = (await mockClients(mock, { adminToken }).v1.sendSiteTestWebhook()).body.data.eventId;
      expect(await following).toBe(0);
      expect(received.at(-1)).toEqual({ path: '/hooks', eventId: sent, valid: true });
    } finally {
      await mock.close();
    }
  });

  it('tells that an admin token must be set on a mock reached by a dotted host name', async () => {
    const mock = await startMockServer({ seed });
    const mockPort = new URL(mock.url).port;
    // A front that sends every request on with the name a team's shared sandbox would have.
    const front = createServer((req, res) => {
      const upstream = request({ host: '127.0.0.1', port: mockPort, path: req.url, method: req.method, headers: { ...req.headers, host: 'sandbox.team.example' } }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    const lines: string[] = [];
    const io = { env: {}, stdout: (text: string) => lines.push(text), stderr: (text: string) => lines.push(text) };
    try {
      expect(await listenCommand(['--forward-to', receiverUrl, '--mock', `http://127.0.0.1:${(front.address() as AddressInfo).port}`], io)).toBe(1);
      expect(lines.join('\n')).toMatch(/HTTP 403 cross_origin_request\): start it with --admin-token and give that token here with --admin-token or MOCK_ADMIN_TOKEN/);
    } finally {
      await new Promise<void>((resolve) => front.close(() => resolve()));
      await mock.close();
    }
  });

  it('exits 2 for an empty --events, before following the stream', async () => {
    const mock = await startMockServer();
    try {
      const run = listen(['--forward-to', receiverUrl, '--mock', mock.url, '--events', '']);
      // Without the check it would connect and forward every event: that must not happen first.
      const ended = await Promise.race([run.done, run.until(/connected to /).then(() => 'connected')]);
      expect(ended).toBe(2);
      expect(run.errors().split('\n')[0]).toBe('exchange-api-kit listen: --events must name at least one event type (leave it out for every type), got ""');
      expect(run.output()).toBe('');
    } finally {
      await mock.close();
    }
  });

  it('exits 2 for a --mock URL with a path, which the mock does not serve under', async () => {
    const run = listen(['--forward-to', receiverUrl, '--mock', 'http://127.0.0.1:4710/sandbox']);
    expect(await run.done).toBe(2);
    expect(run.errors().split('\n')[0]).toBe(`exchange-api-kit listen: --mock must be the mock's origin (http://127.0.0.1:4710): it serves every path itself, so "/sandbox" would be dropped, got "http://127.0.0.1:4710/sandbox"`);
    expect(run.output()).toBe('');
  });

  it('stops on SIGINT while a receiver hangs, without waiting for its timeout', async () => {
    const mock = await startMockServer({ seed });
    let arrived!: () => void;
    const forwarded = new Promise<void>((resolve) => (arrived = resolve));
    const hanging = createServer(() => arrived()); // takes the request, never answers
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    try {
      const run = listen(['--forward-to', `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/hooks`, '--mock', mock.url]);
      await run.until(/connected to /);
      const sent = (await mockClients(mock).v1.sendSiteTestWebhook()).body.data.deliveryId;
      await forwarded;
      run.interrupt();
      expect(await run.done).toBe(0);
      // Without the stop reaching the forward, Ctrl-C waited out the receiver's 10 s and blamed it.
      expect(run.output()).toContain(`not delivered: listen stopped before the receiver answered (delivery ${sent})`);
      expect(run.output()).not.toContain('no answer within');
    } finally {
      hanging.closeAllConnections();
      await new Promise<void>((resolve) => hanging.close(() => resolve()));
      await mock.close();
    }
  });

  it('exits 1 naming the answer when --mock is a server that answers without an event stream', async () => {
    const other = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}'));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    try {
      const run = listen(['--forward-to', receiverUrl, '--mock', otherUrl]);
      // Without the check it reports "connected", then a dropped stream, and tries again forever.
      const ended = await Promise.race([run.done, run.until(/stream dropped/).then(() => 'dropped')]);
      expect(ended).toBe(1);
      expect(run.errors()).toContain(
        `exchange-api-kit listen: ${otherUrl}/__mock/webhooks/stream answered 200 with application/json, not an event stream: is ${otherUrl} an exchange-api-kit mock with its control API on?`,
      );
      expect(run.output()).not.toContain('connected to');
    } finally {
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  });

  it('exits 2 for an event type no contract declares', async () => {
    const mock = await startMockServer();
    try {
      const run = listen(['--forward-to', receiverUrl, '--mock', mock.url, '--events', 'order.completed']);
      expect(await run.done).toBe(2);
    } finally {
      await mock.close();
    }
  });
});
