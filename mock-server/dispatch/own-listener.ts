// The mock's own listener, as the egress policy must see it: a webhook never connects to it, so a
// tenant cannot aim deliveries at the control API (/__mock) or the API families. A listener on a
// wildcard address (0.0.0.0, ::) answers on every address of the machine; one on a single
// address answers there. Loopback and unspecified addresses always count as the machine's own.
// On a shared sandbox its replicas' listeners count as its own (they forward to it). Paths served
// in-process (the webhook inbox) get a delivery addressed to any of them handed over without any
// connection.
import { networkInterfaces } from 'node:os';
import ipaddr from 'ipaddr.js';
import type { ListenerAddress } from '../store/record-journal.js';
import type { Transport } from './transport.js';

interface Listening {
  port: number;
  /** Normalised addresses it answers on. */
  addresses: ReadonlySet<string>;
}

export class OwnListener {
  private readonly listening: Listening[] = [];
  /** Other processes' listeners that count as this one's (a shared sandbox's replicas), as last read. */
  private others: Listening[] = [];
  private othersSource: (() => Promise<ListenerAddress[]>) | undefined;
  private readonly routes = new Map<string, Transport>();

  /** Records a listener (call once it listens: the port is known then). */
  listeningOn(address: { address: string; port: number }): void {
    this.listening.push(kept(listenerAddress(address)));
  }

  /**
   * Counts the listeners `source` names as this mock's own too: on a shared sandbox, a replica's
   * port forwards to the holder, so a webhook aimed there would reach the holder all the same.
   * They are read by refresh(), which a delivery awaits before it checks where it connects.
   */
  alsoListening(source: () => Promise<ListenerAddress[]>): void {
    this.othersSource = source;
  }

  /** Reads the other listeners again; rejects when they cannot be read (the attempt then fails). */
  async refresh(): Promise<void> {
    if (this.othersSource !== undefined) this.others = (await this.othersSource()).map(kept);
  }

  isOwn(ip: ipaddr.IPv4 | ipaddr.IPv6, port: number): boolean {
    const text = ip.toNormalizedString();
    const range = ip.range();
    const local = range === 'loopback' || range === 'unspecified';
    const answers = (listener: Listening) => listener.port === port && (local || listener.addresses.has(text));
    return this.listening.some(answers) || this.others.some(answers);
  }

  /** Hands deliveries to `path` on the listener to `transport` in-process. */
  serve(path: string, transport: Transport): void {
    this.routes.set(path, transport);
  }

  /** The in-process handler of a path (exactly as the URL gives it, without the query); undefined when none. */
  route(path: string): Transport | undefined {
    return this.routes.get(path);
  }
}

/** Where a listener bound to `address` answers: on that address, or on every address of the machine for a wildcard. */
export function listenerAddress(address: { address: string; port: number }): ListenerAddress {
  const ip = ipaddr.process(address.address);
  const addresses =
    ip.range() === 'unspecified' ? Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((entry) => normalised(entry.address))) : [ip.toNormalizedString()];
  return { port: address.port, addresses };
}

function kept(address: ListenerAddress): Listening {
  return { port: address.port, addresses: new Set(address.addresses) };
}

function normalised(address: string): string {
  const bare = address.replace(/%.*$/, ''); // an IPv6 zone (fe80::1%eth0)
  return ipaddr.isValid(bare) ? ipaddr.process(bare).toNormalizedString() : bare;
}
