// The forwarding core of `exchange-api-kit proxy`: a node:http server that streams every request
// to the target and the target's answer back, changing nothing but the hop-by-hop headers
// (mock-server/http/hop-by-hop.ts) and Host (the target's, so
// a virtual host answers). Header names keep their case and order (raw headers), bodies are
// forwarded byte for byte as they arrive (compressed answers stay compressed), and a copy of
// each body up to a cap is kept for the contract check. node:http rather than fetch/undici's
// fetch: fetch would decompress answers, add headers of its own (accept-encoding, user-agent,
// sec-fetch-mode) and buffer differently; the raw module forwards exactly and needs no
// dependency.
import { createServer, Agent as HttpAgent, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { withoutHopByHop } from '../../mock-server/http/hop-by-hop.js';
import { BodyCapture, decodeBody } from './body-capture.js';
import type { ObservedExchange } from './contract-check.js';

export interface ProxyServerOptions {
  /** Where requests go: scheme, host, port and an optional base path (`https://staging.example.com/gw`). */
  target: URL;
  port: number;
  host: string;
  /** Bytes of each body kept for judging and recording; larger bodies are forwarded, not judged. */
  maxBodyBytes: number;
  /** Milliseconds the target may take to start answering (default 120 s), then 504. */
  timeoutMs?: number;
  /** Called once per exchange that got an answer from the target. */
  onExchange(exchange: ForwardedExchange): void;
  /** Called when the target could not be reached or did not answer in time. */
  onFailure(failure: ForwardFailure): void;
}

export interface ForwardedExchange {
  /** 1, 2, … in the order requests arrived. */
  sequence: number;
  startedAt: Date;
  durationMs: number;
  observed: ObservedExchange;
}

export interface ForwardFailure {
  sequence: number;
  method: string;
  url: string;
  reason: string;
}

export interface RunningProxy {
  url: string;
  /**
   * Stops accepting connections and waits for exchanges in flight (at most `graceMs`, or until
   * `hurry` aborts); one the target has not answered by then gets 503 and is reported as a failure.
   */
  close(graceMs?: number, hurry?: AbortSignal): Promise<void>;
}

export async function startProxyServer(options: ProxyServerOptions): Promise<RunningProxy> {
  const secure = options.target.protocol === 'https:';
  const agent = secure ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  const send = secure ? httpsRequest : httpRequest;
  const basePath = options.target.pathname.replace(/\/+$/, '');
  const inFlight = new Set<Promise<void>>();
  /** How to end each exchange still in flight when the proxy stops: resolves once its client has the answer. */
  const stoppers = new Set<() => Promise<void>>();
  let sequence = 0;

  const server = createServer((req, res) => {
    sequence += 1;
    const done = forward(sequence, req, res);
    inFlight.add(done);
    void done.finally(() => inFlight.delete(done));
  });

  function forward(number: number, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const startedAt = new Date();
    const started = performance.now();
    const url = req.url ?? '/';
    const method = req.method ?? 'GET';
    const requestBody = new BodyCapture(options.maxBodyBytes);
    return new Promise<void>((resolve) => {
      let settled = false;
      const fail = (reason: string, status: number): void => {
        if (settled) return;
        settled = true;
        stoppers.delete(stopper);
        options.onFailure({ sequence: number, method, url, reason });
        if (!res.headersSent) res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(`exchange-api-kit proxy: ${reason}\n`);
        else res.destroy();
        resolve();
      };
      // An answer already under way (an event stream through the proxy) is just cut, as before.
      const stopper = (): Promise<void> => {
        const answered = new Promise<void>((done) => res.once('close', done));
        if (res.headersSent) res.destroy();
        else fail('the proxy stopped before the target answered', 503);
        upstream.destroy();
        return answered;
      };
      stoppers.add(stopper);
      const upstream = send(
        {
          protocol: options.target.protocol,
          hostname: options.target.hostname,
          port: options.target.port,
          method,
          path: `${basePath}${url}`,
          headers: forwardedHeaders(req.rawHeaders, options.target.host),
          agent,
          timeout: options.timeoutMs ?? 120_000,
        },
        (answer) => {
          const responseBody = new BodyCapture(options.maxBodyBytes);
          res.writeHead(answer.statusCode ?? 502, answer.statusMessage, withoutHopByHop(answer.rawHeaders));
          answer.on('data', (chunk: Buffer) => {
            responseBody.add(chunk);
            // Backpressure: a slow client slows the read from the target, not the proxy's memory.
            if (!res.write(chunk)) {
              answer.pause();
              res.once('drain', () => answer.resume());
            }
          });
          answer.on('end', () => {
            res.end();
            if (settled) return;
            settled = true;
            stoppers.delete(stopper);
            options.onExchange({
              sequence: number,
              startedAt,
              durationMs: Math.round(performance.now() - started),
              observed: {
                method,
                url,
                requestHeaders: req.headers,
                requestBody: requestBody.result(),
                status: answer.statusCode ?? 502,
                responseHeaders: answer.headers,
                responseBody: decodeBody(responseBody.result(), headerText(answer.headers['content-encoding']), options.maxBodyBytes),
              },
            });
            resolve();
          });
          answer.on('error', (error) => fail(`the target's answer broke off: ${describe(error)}`, 502));
        },
      );
      upstream.on('timeout', () => upstream.destroy(new Error(`no answer within ${options.timeoutMs ?? 120_000} ms`)));
      upstream.on('error', (error) => fail(`cannot reach ${options.target.origin}: ${describe(error)}`, /no answer within/.test(error.message) ? 504 : 502));
      // The client went away before the answer was complete: stop the exchange at the target too.
      res.on('close', () => {
        if (!res.writableFinished) upstream.destroy();
        if (!settled) {
          settled = true;
          stoppers.delete(stopper);
          resolve();
        }
      });
      req.on('data', (chunk: Buffer) => requestBody.add(chunk));
      req.pipe(upstream);
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = options.host === '0.0.0.0' || options.host === '::' ? '127.0.0.1' : options.host;
  return {
    url: `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}`,
    close: async (graceMs = 5_000, hurry?: AbortSignal) => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const hurried = new Promise((resolve) => (hurry?.aborted === true ? resolve(undefined) : hurry?.addEventListener('abort', resolve, { once: true })));
      await Promise.race([Promise.allSettled([...inFlight]), new Promise((resolve) => setTimeout(resolve, graceMs).unref()), hurried]);
      // Still waiting for the target: tell the client and the report, rather than just hang up.
      await Promise.race([Promise.allSettled([...stoppers].map((stop) => stop())), new Promise((resolve) => setTimeout(resolve, 1_000).unref())]);
      server.closeAllConnections();
      agent.destroy();
      await closed;
    },
  };
}

/** The request's raw headers for the target: hop-by-hop ones dropped, Host the target's. */
function forwardedHeaders(raw: readonly string[], targetHost: string): string[] {
  const headers = withoutHopByHop(raw);
  const forwarded = ['Host', targetHost];
  for (let i = 0; i < headers.length; i += 2) if (headers[i]!.toLowerCase() !== 'host') forwarded.push(headers[i]!, headers[i + 1]!);
  return forwarded;
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

function describe(error: Error): string {
  return (error as NodeJS.ErrnoException).code ?? error.message;
}
