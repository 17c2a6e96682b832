// What the holder of a shared sandbox answers on its peer port: the requests its replicas forward
// (mock-server/replica/forward-to-holder.ts), each taken as if its caller had sent it here. A request without the
// holder's secret is not a replica's: it gets 421 and the not-holder header, so a replica that read
// an old address asks for the holder again, and a caller that found the port learns nothing.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import type { JournalHolding } from '../store/record-journal.js';
import { listening } from './listening.js';
import { trustBodyToArrive } from './pending-body.js';
import { callerAddressHeader, notHolderHeader, replicaSecretHeader } from './replica-headers.js';

export interface PeerOptions {
  /** The address it listens on (default 127.0.0.1; 0.0.0.0 when replicas run on other hosts). */
  host?: string | undefined;
  /** The host name replicas reach it at (default the host, or this machine's name when that is a wildcard). */
  advertisedHost?: string | undefined;
}

export interface PeerListening {
  server: Server;
  address: AddressInfo;
  url: string;
}

/**
 * Listens for replicas on an ephemeral port of its own (exclusive: node:cluster workers each get
 * one) and announces it, with a new secret, as the holder's address.
 */
export async function startPeerListener(holding: JournalHolding, makeServer: (listener: RequestListener) => Server, listener: RequestListener, options: PeerOptions = {}): Promise<PeerListening> {
  const secret = randomBytes(24).toString('base64url');
  const host = options.host ?? '127.0.0.1';
  const server = await listening(makeServer(peerListener(listener, secret)), { port: 0, host, exclusive: true });
  const address = server.address() as AddressInfo;
  const shown = options.advertisedHost ?? (host === '0.0.0.0' || host === '::' ? hostname() : host);
  const url = `http://${shown.includes(':') ? `[${shown}]` : shown}:${address.port}`;
  await holding.announce({ url, secret });
  return { server, address, url };
}

function peerListener(listener: RequestListener, secret: string): RequestListener {
  const expected = Buffer.from(secret);
  return (req: IncomingMessage, res: ServerResponse) => {
    const given = Buffer.from(String(req.headers[replicaSecretHeader] ?? ''));
    const caller = req.headers[callerAddressHeader];
    if (given.length !== expected.length || !timingSafeEqual(given, expected) || typeof caller !== 'string') {
      misdirected(res);
      return;
    }
    delete req.headers[replicaSecretHeader];
    delete req.headers[callerAddressHeader];
    // The caller's address as the replica saw it (express's req.ip is a getter: an own value wins).
    Object.defineProperty(req, 'ip', { value: caller, configurable: true });
    trustBodyToArrive(req);
    res.on('finish', () => {
      if (!req.complete) req.resume(); // what an early answer left unread is dropped
    });
    listener(req, res);
  };
}

/** The answer of a port that is no (longer the) holder's to whoever is not its replica. */
export function misdirected(res: ServerResponse): void {
  res.writeHead(421, { [notHolderHeader]: '1', 'content-length': '0', connection: 'close' }).end();
}
