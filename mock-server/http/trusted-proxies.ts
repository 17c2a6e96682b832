// The proxies whose X-Forwarded-For the mock believes (express's `trust proxy`, which the IP
// allow-list reads through req.ip): addresses, CIDRs and express's names for ranges. None by
// default: without a proxy in front, the header is whatever the client chose to write.
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

const rangeNames = ['loopback', 'linklocal', 'uniquelocal'];

/** The list as express takes it; a RangeError names an entry that is none of the three. */
export function trustedProxies(entries: readonly string[]): string[] {
  const bad = entries.filter((entry) => !rangeNames.includes(entry) && isIP(entry) === 0 && !ipaddr.isValidCIDR(entry));
  if (bad.length > 0) {
    throw new RangeError(`trusted proxies must be IP addresses, CIDRs or ${rangeNames.join(', ')}; not ${bad.map((entry) => `"${entry}"`).join(', ')}`);
  }
  return [...entries];
}
