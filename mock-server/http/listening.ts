// A node:http server started as a promise, and the URL it is reached at.
import type { Server } from 'node:http';
import type { ListenOptions } from 'node:net';

/** Resolves once `server` listens, with it; rejects with the error when it cannot (a port in use). */
export function listening<S extends Server>(server: S, at: ListenOptions): Promise<S> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(at, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

/** The base URL of a listener on `host` (a wildcard address shown as 127.0.0.1). */
export function baseUrl(host: string, port: number): string {
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${shown.includes(':') ? `[${shown}]` : shown}:${port}`;
}
