// A transport that delivers only to this machine (loopback addresses and localhost); any other
// target fails the attempt as a refused connection without any traffic leaving the host. For
// CI sandboxes and our own tests, where a random or typo'd URL must never be contacted.
import { isIP } from 'node:net';
import type { Transport } from './transport.js';

export function loopbackOnly(transport: Transport): Transport {
  // async: an unparsable URL rejects (an attempt error) instead of throwing.
  return async (request, signal) => {
    const host = new URL(request.url).hostname.replace(/^\[|\]$/g, '');
    const loopback = host === 'localhost' || (isIP(host) === 4 && host.startsWith('127.')) || host === '::1';
    if (!loopback) {
      const error = Object.assign(new Error(`refused: ${host} is not a loopback address (loopbackWebhooksOnly)`), { code: 'ECONNREFUSED' });
      throw error;
    }
    return transport(request, signal);
  };
}
