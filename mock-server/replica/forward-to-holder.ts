// A replica that does not hold the shared sandbox answers every request by forwarding it to the
// process that does (its peer listener, mock-server/http/peer-listener.ts), and the holder's answer back as it came.
// A body within every family's JSON limit is read whole first, so a request the holder never saw
// (its port refused the connection, it no longer holds the sandbox) is sent again to the holder
// found next, until `waitMs` has passed without one: then, and when a holder took a request that
// is not safe to repeat but died before answering, the connection is closed unanswered, as the
// holder's own would have been. A kept-alive connection reset under a request is such a death:
// the holder may have carried the request out (node's agent lets an idle connection go before
// the holder's Keep-Alive timeout says it would close it, so a reset is not that race). So is a
// holder that took the request but is wedged (stopped by kill -STOP, its event loop stuck): its
// kernel keeps accepting, so the replica watches, while the answer's head has not come, whether
// the holder answers at all (holder-alive.ts); once it has answered nothing for `waitMs`, the
// request to it is destroyed, and a safe one is sent to a different holder if one has taken the
// sandbox over by then (the deadline has passed: the holder's address is asked for once more).
// An answer that has begun is passed on however long it lasts (an event stream never ends). A
// larger body (an upload, a sandbox document, one too large for its route) streams through
// unkept: the holder reads it, or answers its 413, as it would its own caller's; it is not sent
// twice. The caller's address is read here, through the same `trust proxy` list the holder has,
// and sent along: the holder's IP allow-lists check the caller, not the replica.
import { Agent, request, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import proxyaddr from 'proxy-addr';
import { withoutHopByHop } from '../http/hop-by-hop.js';
import { bodyPending } from '../http/pending-body.js';
import type { HolderAddress, JournalHolding } from '../store/record-journal.js';
import { callerAddressHeader, notHolderHeader, replicaSecretHeader } from '../http/replica-headers.js';
import { watchHolder } from './holder-alive.js';

export interface ForwardingOptions {
  /** The `trust proxy` list every replica is started with (express's names, addresses and CIDRs). */
  trustProxy: readonly string[];
  /**
   * How long a request may wait for a holder to take it (default 30 s: a takeover resumes the
   * sandbox first), and for the holder that took it to show it is alive while its answer has not begun.
   */
  waitMs?: number;
  /** The largest body kept to be sent again; a larger one streams through once. */
  keptBodyBytes: number;
}

export interface HolderForwarding {
  listener: RequestListener;
  /** Ends the kept-alive connections to the holder. */
  close(): void;
}

/** What became of one try to have the holder answer. */
type Outcome = 'answered' | 'unsent' | 'lost';

/** Methods whose request may be sent again when the holder died with it (RFC 9110 9.2.1, as proxies retry). */
const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/** How often the holder's address is asked for while none answers. */
const lookupEveryMs = 50;

export function forwardToHolder(holding: Pick<JournalHolding, 'holder'>, options: ForwardingOptions): HolderForwarding {
  const trust = proxyaddr.compile([...options.trustProxy]);
  const waitMs = options.waitMs ?? 30_000;
  const agent = new Agent({ keepAlive: true, scheduling: 'lifo' });
  const holders = new HolderLookup(holding);

  const listener: RequestListener = (req, res) => {
    void readBody(req, options.keptBodyBytes).then(async (body) => {
      if (body === undefined) return void res.destroy();
      // Undefined only when the caller's connection is gone already.
      const caller = proxyaddr(req, trust) ?? '';
      const deadline = Date.now() + waitMs;
      let stale: HolderAddress | undefined;
      for (;;) {
        const holder = await holders.find(stale, deadline);
        if (holder === undefined) return void res.destroy();
        const outcome = await sendTo(holder, req, body, caller, res, agent, waitMs);
        if (outcome === 'answered') return;
        // The next request asks where the holder is rather than trying this one first: a wedged
        // holder would take it too, though another may have taken the sandbox over meanwhile.
        if (outcome === 'lost') holders.forget(holder);
        // Sent again only when it can be: kept whole, and never carried out (or harmless to repeat).
        if (!Buffer.isBuffer(body) || (outcome === 'lost' && !safeMethods.has(req.method ?? ''))) return void res.destroy();
        stale = holder;
      }
    });
  };
  return { listener, close: () => agent.destroy() };
}

/** The holder's address, asked for again only when the one known did not take a request. */
class HolderLookup {
  private known: HolderAddress | undefined;
  private asking: Promise<HolderAddress | undefined> | null = null;

  constructor(private readonly holding: Pick<JournalHolding, 'holder'>) {}

  /**
   * A holder other than `stale`, asked for until `deadline`, and at least once: a wedged holder is
   * noticed only once the deadline has passed, and another may have taken the sandbox over by then.
   */
  async find(stale: HolderAddress | undefined, deadline: number): Promise<HolderAddress | undefined> {
    for (;;) {
      if (this.known !== undefined && !same(this.known, stale)) return this.known;
      this.asking ??= this.holding.holder().finally(() => (this.asking = null));
      const found = await this.asking.catch(() => undefined);
      if (found !== undefined && !same(found, stale)) return (this.known = found);
      if (Date.now() >= deadline) return undefined;
      await new Promise((resolve) => setTimeout(resolve, lookupEveryMs));
    }
  }

  /** Forgets `lost` as the holder, so the next request asks for the address again. */
  forget(lost: HolderAddress): void {
    if (this.known !== undefined && same(this.known, lost)) this.known = undefined;
  }
}

function same(a: HolderAddress, b: HolderAddress | undefined): boolean {
  return b !== undefined && a.url === b.url && a.secret === b.secret;
}

/** A body kept whole, or what was read of one larger than the kept size and the stream of the rest. */
type Body = Buffer | { read: Buffer[]; rest: IncomingMessage };

/** The body, kept whole when it is at most `kept` bytes; undefined when the caller went away. */
function readBody(req: IncomingMessage, kept: number): Promise<Body | undefined> {
  if (Number(req.headers['content-length'] ?? 0) > kept) return Promise.resolve({ read: [], rest: req });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      chunks.push(chunk);
      size += chunk.length;
      if (size <= kept) return;
      req.off('data', onData);
      req.pause();
      resolve({ read: chunks, rest: req });
    };
    req.on('data', onData);
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', () => resolve(undefined));
    req.on('close', () => resolve(undefined));
  });
}

function sendTo(holder: HolderAddress, req: IncomingMessage, body: Body, caller: string, res: ServerResponse, agent: Agent, quietMs: number): Promise<Outcome> {
  const headers = withoutHopByHop(req.rawHeaders);
  const whole = Buffer.isBuffer(body);
  // A kept body goes with its length (a chunked request's Transfer-Encoding was hop-by-hop); a
  // streamed one with the length its caller announced, or chunked.
  const forwarded: string[] = [];
  for (let i = 0; i < headers.length; i += 2) {
    if (!whole || headers[i]!.toLowerCase() !== 'content-length') forwarded.push(headers[i]!, headers[i + 1]!);
  }
  if (whole) forwarded.push('content-length', String(body.length));
  forwarded.push(replicaSecretHeader, holder.secret, callerAddressHeader, caller);
  return new Promise((resolve) => {
    let answering = false;
    // The path as it came (new URL(path, base) would read one starting `//` as another host).
    const upstream = request(holder.url, { path: req.url ?? '/', method: req.method ?? 'GET', headers: forwarded, agent }, (answer) => {
      if (answer.statusCode === 421 && answer.headers[notHolderHeader] !== undefined) {
        answer.resume();
        return resolve('unsent');
      }
      answering = true;
      const head = withoutHopByHop(answer.rawHeaders);
      // The holder's rule for its own callers: an answer given before the whole body arrived closes the connection.
      if (bodyPending(req)) head.push('connection', 'close');
      res.writeHead(answer.statusCode ?? 500, answer.statusMessage, head);
      answer.pipe(res);
      answer.on('error', () => res.destroy());
      answer.on('close', () => {
        // Answered before the whole body was sent (a 413): the rest is read and dropped, as node
        // does for its own handlers, so the caller gets the answer rather than a reset.
        if (!req.complete) {
          req.unpipe();
          req.resume();
        }
        resolve('answered');
      });
    });
    // Wedged: as if it died with the request.
    const stopWatching = watchHolder(holder.url, quietMs, () => {
      upstream.destroy();
      resolve('lost');
    });
    upstream.once('response', stopWatching);
    upstream.once('close', stopWatching);
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      // An answer given before the whole body was taken (a 413) may end the connection under it.
      if (answering) return;
      // Refused or unreachable: it has not seen the request.
      const unsent = error.code === 'ECONNREFUSED' || error.code === 'EHOSTUNREACH' || error.code === 'ENOTFOUND';
      resolve(unsent ? 'unsent' : 'lost');
    });
    // The caller went away: so does the request to the holder.
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    if (whole) {
      upstream.end(body);
      return;
    }
    for (const chunk of body.read) upstream.write(chunk);
    body.rest.pipe(upstream);
    body.rest.resume();
  });
}
