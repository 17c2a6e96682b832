// Webhook attempts over real HTTP (node:http, node:https) within the egress policy:
// - http and https URLs only, never with credentials in them;
// - the host name is resolved here (by an injectable Resolver), every address is checked by the
//   policy, and the connection is made to a checked address through a lookup hook that returns
//   exactly that address: what was checked is what is connected to, so DNS rebinding cannot pass;
// - a delivery to the mock's own listener (or a replica's, read anew once connected, before
//   anything is sent) is refused, unless its path is served in-process (the inbox), in which
//   case it is handed over without a request sent;
// - redirects are not followed: a 3xx is the attempt's answer, and so is a 101 switching protocols;
//   an answer whose status the contract cannot show (node reads 000 or 999) is an error instead;
// - the receiver's answer is read as a stream and cut at maxResponseBodyBytes (the rest is never read);
// - the attempt ends when its signal aborts, whatever it waits for (a slow name server too).
// Connections are kept alive and reused, pooled by the checked address they were made to (the
// host name is only the Host header and the TLS server name): a reused socket goes to an address
// the policy allowed when it connected, and a name that now resolves elsewhere is checked again.
import { lookup as dnsLookup } from 'node:dns/promises';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction, type Socket } from 'node:net';
import type { AttemptRequest } from '../store/records/webhook-records.js';
import { recordableAnswer } from './answer-status.js';
import { targetPort, urlProblem, type EgressPolicy, type Verdict } from './egress-policy.js';
import type { OwnListener } from './own-listener.js';
import { EgressDeniedError, untilAborted, type Transport, type TransportResponse } from './transport.js';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Turns a host name into addresses; tests and embedders pass their own (e.g. a name that must resolve to 10.0.0.1). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export interface HttpTransportOptions {
  policy: EgressPolicy;
  ownListener?: OwnListener;
  /** Default: the system resolver (getaddrinfo, as every other program on the machine). */
  resolve?: Resolver;
  /** The receiver's body is read up to this many bytes (default 64 KiB). */
  maxResponseBodyBytes?: number;
}

const defaultMaxResponseBodyBytes = 64 * 1024;

export function httpTransport(options: HttpTransportOptions): Transport {
  const resolve = options.resolve ?? systemResolver;
  const limit = options.maxResponseBodyBytes ?? defaultMaxResponseBodyBytes;
  // Idle sockets are dropped after a few seconds, so a receiver that goes away holds nothing long.
  const agents = { 'http:': new HttpAgent({ keepAlive: true, timeout: idleSocketMs }), 'https:': new HttpsAgent({ keepAlive: true, timeout: idleSocketMs }) };
  const attempt: Transport = async (request, signal) => {
    const target = webhookTarget(request.url);
    const port = targetPort(target);
    const host = target.hostname.replace(/^\[|\]$/g, '');
    const candidates = isIP(host) !== 0 ? [{ address: host, family: isIP(host) }] : await resolve(host);
    if (candidates.length === 0) throw Object.assign(new Error(`${host} has no address`), { code: 'ENOTFOUND' });
    const checked = candidates.map((candidate) => ({ candidate, verdict: options.policy.check(candidate.address, port) }));
    const sent = { ...request, headers: sentHeaders(target, request) };
    // An address of the mock itself settles it: the in-process route, or nothing.
    const toOwn = (verdict: Verdict): Promise<TransportResponse> => {
      const local = options.ownListener?.route(target.pathname);
      if (local !== undefined) return local(sent, signal);
      throw denied(verdict);
    };
    const own = checked.find(({ verdict }) => !verdict.allowed && verdict.ownListener);
    if (own !== undefined) return toOwn(own.verdict);
    const chosen = checked.find(({ verdict }) => verdict.allowed);
    if (chosen === undefined) throw denied(checked[0]!.verdict);
    // Once connected, before anything is sent, checked again with where a shared sandbox's
    // replicas listen read anew: a replica forwards only what comes on connections it accepted
    // once its port was recorded, so a connection to one is always seen as one here.
    const connected = async (): Promise<Verdict> => {
      await options.ownListener?.refresh();
      return options.policy.check(chosen.candidate.address, port);
    };
    const agent = target.protocol === 'https:' ? agents['https:'] : agents['http:'];
    return post(target, chosen.candidate, sent, signal, limit, agent, connected).then(recordableAnswer, (error: unknown) => {
      if (!(error instanceof RefusedOnceConnected)) throw error;
      if (error.verdict.ownListener) return toOwn(error.verdict);
      throw denied(error.verdict);
    });
  };
  // The attempt timeout covers all of it: a name whose servers never answer (getaddrinfo cannot
  // be cancelled), the replicas' listeners read from the store, an answer node never settles.
  return (request, signal) => untilAborted(attempt(request, signal), signal);
}

/** The check made once connected refused the address: the connection is ended unused. */
class RefusedOnceConnected extends Error {
  constructor(readonly verdict: Verdict & { allowed: false }) {
    super(verdict.reason);
  }
}

/** How long a kept-alive socket may sit unused before it is closed. */
const idleSocketMs = 5_000;

/** The URL of an attempt, when it is one the mock sends to: http(s), no credentials. */
function webhookTarget(url: string): URL {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw Object.assign(new Error(`not a URL: ${url}`), { code: 'ERR_INVALID_URL' });
  }
  const problem = urlProblem(target);
  if (problem !== undefined) throw new EgressDeniedError(`refused by the webhook egress policy: the URL ${problem}`);
  return target;
}

function denied(verdict: { allowed: boolean; reason?: string }): EgressDeniedError {
  return new EgressDeniedError(`refused by the webhook egress policy: ${verdict.reason ?? 'not permitted'}`);
}

/** Every header the POST carries, by lower-case name (the in-process route sees the same). */
function sentHeaders(target: URL, request: AttemptRequest): Record<string, string> {
  const headers: Record<string, string> = { host: target.host };
  for (const [name, value] of Object.entries(request.headers)) headers[name.toLowerCase()] = value;
  headers['content-length'] = String(Buffer.byteLength(request.body));
  return headers;
}

function post(target: URL, address: ResolvedAddress, request: AttemptRequest, signal: AbortSignal, limit: number, agent: HttpAgent, connected: () => Promise<Verdict>): Promise<TransportResponse> {
  // The connection goes to the checked address, whatever a second resolution would say; the
  // address is also what the agent pools the socket by.
  const lookup = ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options.all === true) callback(null, [address]);
    else callback(null, address.address, address.family);
  }) as unknown as LookupFunction;
  const https = target.protocol === 'https:';
  const send = https ? httpsRequest : httpRequest;
  const hostname = target.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve, reject) => {
    const outgoing = send(
      {
        protocol: target.protocol,
        host: address.address,
        family: address.family,
        ...(https && isIP(hostname) === 0 ? { servername: hostname } : {}),
        port: target.port === '' ? undefined : Number(target.port),
        path: `${target.pathname}${target.search}`,
        method: 'POST',
        headers: request.headers,
        lookup,
        agent,
        signal,
      },
      (response) => readCapped(response, limit).then(resolve, reject),
    );
    outgoing.on('error', reject);
    // A 101 that switches protocols (Upgrade, Connection: upgrade) never comes as a 'response':
    // node hands the socket to 'upgrade' listeners, and without one the request would settle
    // neither way. It is the receiver's answer (not a 2xx); the socket is closed unused.
    outgoing.once('upgrade', (response: IncomingMessage, socket: Socket) => {
      socket.destroy();
      resolve(answerOf(response, ''));
    });
    // Nothing is sent (not even the headers) before the check made once the socket is connected.
    outgoing.once('socket', (socket) => {
      const check = (): void =>
        void connected().then(
          (verdict) => (verdict.allowed ? outgoing.end(request.body) : outgoing.destroy(new RefusedOnceConnected(verdict))),
          (error: unknown) => outgoing.destroy(error as Error),
        );
      if (socket.connecting) socket.once('connect', check);
      else check();
    });
  });
}

/** The answer with at most `limit` bytes of its body; past that the response is destroyed unread. */
function readCapped(response: IncomingMessage, limit: number): Promise<TransportResponse> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (): void => {
      if (settled) return;
      settled = true;
      resolve(answerOf(response, Buffer.concat(chunks).toString('utf8')));
    };
    response.on('data', (chunk: Buffer) => {
      chunks.push(chunk.subarray(0, Math.max(0, limit - size)));
      size += chunk.length;
      if (size >= limit) {
        finish();
        response.destroy();
      }
    });
    response.on('end', finish);
    response.on('error', (error) => {
      if (!settled) reject(error);
    });
  });
}

function answerOf(response: IncomingMessage, body: string): TransportResponse {
  return { status: response.statusCode ?? 0, headers: headerRecord(response), body };
}

function headerRecord(response: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}
