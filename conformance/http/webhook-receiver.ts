// The local webhook receiver a run starts: an HTTP server on an ephemeral port that answers 200
// to every POST and keeps each request's headers and exact body bytes for the checks.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
}

export class WebhookReceiver {
  private readonly received: ReceivedWebhook[] = [];
  private readonly waiters = new Set<() => void>();

  private constructor(
    private readonly server: Server,
    /** Scheme, host and port; `urlFor` gives the URLs to register. */
    private readonly base: string,
  ) {}

  static async start(host: string): Promise<WebhookReceiver> {
    let receiver: WebhookReceiver | undefined;
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        receiver?.accept({ path: request.url ?? '/', headers: request.headers, rawBody: Buffer.concat(chunks) });
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, host, resolve);
    });
    const { port } = server.address() as AddressInfo;
    receiver = new WebhookReceiver(server, `http://${host.includes(':') ? `[${host}]` : host}:${port}`);
    return receiver;
  }

  /** The URL to register as an endpoint or callback; what arrives there has `path` `/<name>`. */
  urlFor(name: string): string {
    return `${this.base}/${name}`;
  }

  /** Everything received so far. */
  all(): readonly ReceivedWebhook[] {
    return this.received;
  }

  private accept(webhook: ReceivedWebhook): void {
    this.received.push(webhook);
    for (const wake of this.waiters) wake();
  }

  /** The first received webhook that matches, waiting up to `timeoutMs` for it. */
  async waitFor(matches: (webhook: ReceivedWebhook) => boolean, timeoutMs: number): Promise<ReceivedWebhook | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.received.find(matches);
      const left = deadline - Date.now();
      if (found !== undefined || left <= 0) return found;
      await new Promise<void>((resolve) => {
        const wake = (): void => {
          clearTimeout(timer);
          this.waiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, left);
        this.waiters.add(wake);
      });
    }
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}

/** A header's single value (the first of repeated ones). */
export function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}
