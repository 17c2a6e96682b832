// The hop-by-hop headers a proxy drops (RFC 9110 7.6.1: Connection, Keep-Alive, TE, Trailer,
// Transfer-Encoding, Upgrade, Proxy-Authorization, Proxy-Authenticate and what Connection names),
// shared by `exchange-api-kit proxy` and a replica forwarding to the holder of its sandbox.

const hopByHop = new Set(['connection', 'keep-alive', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'proxy-authorization', 'proxy-authenticate', 'proxy-connection']);

/** Raw headers (name, value, name, value…) without the hop-by-hop ones and those Connection names. */
export function withoutHopByHop(raw: readonly string[]): string[] {
  const named = new Set<string>();
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.toLowerCase() === 'connection') for (const token of raw[i + 1]!.split(',')) named.add(token.trim().toLowerCase());
  }
  const kept: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (!hopByHop.has(name) && !named.has(name)) kept.push(raw[i]!, raw[i + 1]!);
  }
  return kept;
}
