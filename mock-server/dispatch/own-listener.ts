// The mock's own listener, as the egress policy must see it: a webhook never connects to it, so a
// tenant cannot aim deliveries at the control API (/__mock) or the API families. A listener on a
// wildcard address (0.0.0.0, ::) answers on every address of the machine; one on a single
// address answers there. Loopback and unspecified addresses always count as the machine's own.
// Paths served in-process (the webhook inbox) get a delivery addressed to the listener handed
// over without any connection.
import { networkInterfaces } from 'node:os';
import ipaddr from 'ipaddr.js';
import type { Transport } from './transport.js';

interface Listening {
  port: number;
  /** Normalised addresses it answers on; null: every address of the machine. */
  addresses: ReadonlySet<string> | null;
}

export class OwnListener {
  private readonly listening: Listening[] = [];
  private machineAddresses: ReadonlySet<string> = new Set();
  private readonly routes = new Map<string, Transport>();

  /** Records a listener (call once it listens: the port is known then). */
  listeningOn(address: { address: string; port: number }): void {
    const ip = ipaddr.process(address.address);
    const wildcard = ip.range() === 'unspecified';
    this.machineAddresses = new Set(Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((entry) => normalised(entry.address))));
    this.listening.push({ port: address.port, addresses: wildcard ? null : new Set([ip.toNormalizedString()]) });
  }

  isOwn(ip: ipaddr.IPv4 | ipaddr.IPv6, port: number): boolean {
    const text = ip.toNormalizedString();
    const range = ip.range();
    const local = range === 'loopback' || range === 'unspecified';
    return this.listening.some(
      (listener) => listener.port === port && (local || (listener.addresses === null ? this.machineAddresses.has(text) : listener.addresses.has(text))),
    );
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

function normalised(address: string): string {
  const bare = address.replace(/%.*$/, ''); // an IPv6 zone (fe80::1%eth0)
  return ipaddr.isValid(bare) ? ipaddr.process(bare).toNormalizedString() : bare;
}
