// Whether a caller IP is in a key's allow-list of addresses and CIDR blocks (IPv4 and IPv6).
import { BlockList, isIP } from 'node:net';

export function ipAllowed(ip: string, allowlist: string[]): boolean {
  if (allowlist.length === 0) return true;
  const address = ip.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, '$1'); // IPv4-mapped IPv6 from node
  const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
  const list = new BlockList();
  for (const entry of allowlist) {
    const [net, prefix] = entry.split('/');
    if (net === undefined || isIP(net) === 0) continue;
    const entryFamily = isIP(net) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(net, entryFamily);
    else list.addSubnet(net, Number(prefix), entryFamily);
  }
  return list.check(address, family);
}
