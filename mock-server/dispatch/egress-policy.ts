// Where webhooks may go: the sandbox's egress policy. A delivery is checked on the address its
// connection is actually made to (http-transport.ts resolves the name, checks every address and
// connects to a checked one), so a name that resolves elsewhere later (DNS rebinding) cannot
// pass. Registration checks what it can without resolving: an IP-literal host.
//   never        link-local (cloud metadata lives there), unspecified, multicast and broadcast
//                addresses, the metadata addresses outside link-local, and the mock's own listener
//   loopback     only this machine (127.0.0.0/8, ::1): CI and tests
//   local        (default) loopback, private (10/8, 172.16/12, 192.168/16, fc00::/7, 100.64/10)
//                and public addresses: laptops and CI
//   public       public unicast addresses only: a sandbox shared with tenants one does not trust
// `allow` CIDRs add ranges to any mode; the never-list stays closed whatever they say. Other
// special-purpose ranges (documentation, benchmarking, 6to4, Teredo, NAT64, reserved) need `allow`,
// and a NAT64 or 6to4 address reaches only an IPv4 address the policy allows as well.
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { OwnListener } from './own-listener.js';

export const egressModes = ['loopback', 'local', 'public'] as const;
export type EgressMode = (typeof egressModes)[number];

export interface EgressPolicyOptions {
  /** Default `local`. */
  mode?: EgressMode | undefined;
  /** CIDRs (or single addresses) permitted whatever the mode; never the never-list. */
  allow?: readonly string[] | undefined;
}

export type Verdict = { allowed: true } | { allowed: false; reason: string; ownListener: boolean };

type Range = ReturnType<ipaddr.IPv4['range']> | ReturnType<ipaddr.IPv6['range']>;

/** Ranges no mode and no allow-list opens. */
const neverRanges: ReadonlySet<string> = new Set(['linkLocal', 'unspecified', 'multicast', 'broadcast']);

/**
 * Instance-metadata services outside link-local: Alibaba Cloud (in 100.64/10) and AWS's IPv6
 * endpoint (in fc00::/7). The link-local ones (169.254.169.254, 169.254.170.2) are never-listed.
 */
const metadataAddresses = ['100.100.100.200', 'fd00:ec2::254'].map((text) => ipaddr.parse(text).toNormalizedString());

const modeRanges: Record<EgressMode, ReadonlySet<string>> = {
  loopback: new Set(['loopback']),
  local: new Set(['loopback', 'private', 'uniqueLocal', 'carrierGradeNat', 'unicast']),
  public: new Set(['unicast']),
};

const rangeNames: Record<string, string> = {
  linkLocal: 'a link-local address (cloud metadata services live there)',
  unspecified: 'the unspecified address (it reaches this machine)',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
  loopback: 'a loopback address',
  private: 'a private address',
  uniqueLocal: 'a private (unique local) address',
  carrierGradeNat: 'a shared (carrier-grade NAT) address',
  unicast: 'a public address',
};

export class EgressPolicy {
  readonly mode: EgressMode;
  private readonly allow: [ipaddr.IPv4 | ipaddr.IPv6, number][];

  constructor(
    options: EgressPolicyOptions = {},
    private readonly ownListener?: OwnListener,
  ) {
    this.mode = options.mode ?? 'local';
    if (!egressModes.includes(this.mode)) throw new RangeError(`webhook egress must be one of ${egressModes.join(', ')}, got "${String(this.mode)}"`);
    this.allow = (options.allow ?? []).map(parseAllowed);
  }

  /**
   * Why a webhook URL cannot be registered, or undefined when it can: it must be http(s)
   * without credentials, and a host given as an IP address (or `localhost`) must be one the
   * policy permits. Other names are checked when a delivery resolves them, never here.
   */
  registrationProblem(url: string): string | undefined {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return 'must be an absolute http or https URL';
    }
    const problem = urlProblem(target);
    if (problem !== undefined) return problem;
    // A name's trailing dot (`localhost.`) names the same host.
    const host = target.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');
    const address = isIP(host) !== 0 ? host : host === 'localhost' || host.endsWith('.localhost') ? '127.0.0.1' : undefined;
    if (address === undefined) return undefined;
    const verdict = this.check(address, targetPort(target));
    if (verdict.allowed || (verdict.ownListener && this.ownListener?.route(target.pathname) !== undefined)) return undefined;
    return verdict.reason;
  }

  /** Whether a connection to `address` (an IP address) on `port` is permitted. */
  check(address: string, port: number): Verdict {
    const ip = carriedAddress(address);
    const text = ip.toString();
    // A translator takes the connection on to the IPv4 address: that must be one allowed too.
    const translated = translatedAddress(ip);
    const onward = translated === undefined ? undefined : this.check(translated.toString(), port);
    if (onward !== undefined && !onward.allowed) return { ...onward, reason: `${text} is translated to IPv4: ${onward.reason}` };
    const range: Range = ip.range();
    if (this.ownListener?.isOwn(ip, port) === true) {
      return { allowed: false, ownListener: true, reason: `${text}:${port} is this mock's own listener: a webhook may reach only its inbox there` };
    }
    if (neverRanges.has(range) || metadataAddresses.includes(ip.toNormalizedString())) {
      const what = neverRanges.has(range) ? (rangeNames[range] ?? range) : 'a cloud metadata address';
      return { allowed: false, ownListener: false, reason: `${text} is ${what}: never a webhook target` };
    }
    if (modeRanges[this.mode].has(range) || this.allow.some((cidr) => sameFamily(ip, cidr[0]) && ip.match(cidr))) return { allowed: true };
    const what = rangeNames[range] ?? `a special-purpose address (${range})`;
    return {
      allowed: false,
      ownListener: false,
      reason: `${text} is ${what}, which webhook egress "${this.mode}" does not reach (--webhook-egress, --webhook-allow)`,
    };
  }
}

/**
 * The IPv4 address a translated IPv6 one leads to: NAT64 (64:ff9b::/96, and the local-use
 * 64:ff9b:1::/48 read the same way) carries it in its last 32 bits, 6to4 (2002::/16) in bits 16
 * to 48. Neither is reached without --webhook-allow; once allowed, 64:ff9b::a9fe:a9fe is still
 * 169.254.169.254 and 64:ff9b::a00:7 still a private address.
 */
function translatedAddress(ip: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | undefined {
  if (ip.kind() !== 'ipv6') return undefined;
  const bytes = ip.toByteArray();
  if (ip.range() === 'rfc6052') return new ipaddr.IPv4(bytes.slice(12));
  if (ip.range() === '6to4') return new ipaddr.IPv4(bytes.slice(2, 6));
  return undefined;
}

/**
 * The address a connection to `address` reaches, for judging: an IPv6 address that carries an
 * IPv4 one is judged as that. ipaddr reads the mapped form (::ffff:a.b.c.d) so; the deprecated
 * IPv4-compatible form (::a.b.c.d, which ipaddr calls plain unicast) too, since a system that
 * still routes it reaches the IPv4 host: ::127.0.0.1 is loopback, not a public address.
 */
function carriedAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 {
  const ip = ipaddr.process(address);
  if (ip.kind() !== 'ipv6' || ip.range() !== 'unicast') return ip;
  const bytes = ip.toByteArray();
  return bytes.slice(0, 12).every((byte) => byte === 0) ? ipaddr.fromByteArray(bytes.slice(12)) : ip;
}

/** What makes a URL one webhooks are never sent to, whatever its address: another scheme than http(s), credentials in it. */
export function urlProblem(target: URL): string | undefined {
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return `must be an http or https URL, not ${target.protocol}`;
  if (target.username !== '' || target.password !== '') return 'must not carry credentials (user:password@)';
  return undefined;
}

/** The port a connection to the URL goes to. */
export function targetPort(target: URL): number {
  if (target.port !== '') return Number(target.port);
  return target.protocol === 'https:' ? 443 : 80;
}

/** The entries of an allow-list, checked (a RangeError names a bad one) and kept as given. */
export function parseAllowList(entries: readonly string[]): string[] {
  for (const entry of entries) parseAllowed(entry);
  return [...entries];
}

function parseAllowed(text: string): [ipaddr.IPv4 | ipaddr.IPv6, number] {
  const trimmed = text.trim();
  if (ipaddr.isValidCIDR(trimmed)) return ipaddr.parseCIDR(trimmed);
  // ipaddr also reads forms like "127.1" or "0x7f000001"; an allow-list takes plain addresses only.
  if (isIP(trimmed) !== 0) {
    const ip = ipaddr.parse(trimmed);
    return [ip, ip.kind() === 'ipv4' ? 32 : 128];
  }
  throw new RangeError(`webhook allow-list entries must be CIDRs or IP addresses, got "${text}"`);
}

function sameFamily(a: ipaddr.IPv4 | ipaddr.IPv6, b: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  return a.kind() === b.kind();
}
