// One load run: requests per second and latency percentiles of one request at a number of
// connections, plus how many answers were not 2xx (a load figure over errors means nothing), the
// load generator's own CPU time per request (it shares the machine with the server) and, given
// the server's pid, the server's CPU time per request.
//
// A closed loop on keep-alive sockets: each connection sends its next request as soon as its
// answer has arrived. It is written here rather than taken from autocannon for two reasons.
// Its CPU: a signed deposit create cost autocannon 56–72 µs (it rebuilds each request made
// anew through objects and parses every answer in JavaScript), about as much as the mock spends
// answering it, and on 2 cores that CPU is taken from the server measured; undici's Pool cost
// 56–59 µs. This loop writes each request as one string and reads only each answer's framing
// and status: 27–42 µs a signed create, 11 µs a ping. And what it counts: each latency runs
// from the request's write to its answer, so their mean is 50 ÷ req/s at 50 connections, as a
// closed loop's must be; autocannon's was 12–13 % below, the wait of the requests it wrote last
// in a busy turn left uncounted. docs/performance.md ("The load generator") has the runs.
import { connect, type Socket } from 'node:net';
import { AnswerFraming } from './answer-framing.js';
import { cpuMs } from './cpu.js';

export interface LoadRequest {
  url: string;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Makes each request anew (a unique body, a signature over it): headers to add and the body. */
  each?: () => { headers: Record<string, string>; body?: string };
}

export interface LoadFigures {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  /** Server CPU (user + system) per answered request, in µs; NaN without a pid. */
  serverCpuUs: number;
  /** This process's CPU (the load generator's) per answered request, in µs. */
  clientCpuUs: number;
}

/** How long a connection the server closed (or refused) waits before it connects again. */
const reconnectDelayMs = 10;

export async function load(request: LoadRequest, connections: number, durationSeconds: number, serverPid?: number): Promise<LoadFigures> {
  const target = new URL(request.url);
  const nextRequest = requestMaker(request, target);
  const latencies = new Latencies();
  const counts = { answered: 0, non2xx: 0, errors: 0 };
  const sockets = new Set<Socket>();
  // Every socket reads into this one buffer; the framing copies out only the start of an answer
  // whose end has not arrived. A Buffer per read, as 'data' events make, kept the generator's
  // young generation filling: its parallel scavenges then ran on both cores and held the
  // server's thread off its core for 2–4 ms at a time (docs/performance.md, "The load
  // generator's garbage").
  const readBuffer = Buffer.allocUnsafe(64 * 1024);
  let running = true;

  const open = (): void => {
    let sentAt = 0;
    const send = () => {
      sentAt = performance.now();
      socket.write(nextRequest());
    };
    const framing = new AnswerFraming((status) => {
      latencies.add(performance.now() - sentAt);
      counts.answered += 1;
      if (status < 200 || status > 299) counts.non2xx += 1;
      if (running) send();
    });
    const socket = connect({
      host: target.hostname,
      port: Number(target.port),
      onread: {
        buffer: readBuffer,
        callback: (length) => {
          try {
            framing.push(readBuffer.subarray(0, length));
          } catch {
            counts.errors += 1;
            socket.destroy();
          }
          return true; // keep reading
        },
      },
    });
    socket.setNoDelay(true);
    sockets.add(socket);
    socket.on('connect', send);
    socket.on('error', () => undefined); // counted at 'close', which follows
    socket.on('close', () => {
      sockets.delete(socket);
      if (!running) return;
      counts.errors += 1;
      setTimeout(open, reconnectDelayMs);
    });
  };

  const cpuBefore = serverPid === undefined ? Number.NaN : cpuMs(serverPid);
  const clientBefore = process.cpuUsage();
  for (let i = 0; i < connections; i += 1) open();
  await new Promise((resolve) => setTimeout(resolve, durationSeconds * 1000));
  running = false; // answers still on their way are not counted, as autocannon does
  const cpu = serverPid === undefined ? Number.NaN : cpuMs(serverPid) - cpuBefore;
  const client = process.cpuUsage(clientBefore);
  for (const socket of sockets) socket.destroy();

  const { answered } = counts;
  return {
    requestsPerSecond: answered / durationSeconds,
    ...latencies.percentiles(),
    non2xx: counts.non2xx,
    errors: counts.errors,
    serverCpuUs: answered > 0 ? (cpu * 1000) / answered : Number.NaN,
    clientCpuUs: answered > 0 ? (client.user + client.system) / answered : Number.NaN,
  };
}

/** The request's bytes as a string: the same one every time, or made anew by `each`. */
function requestMaker(request: LoadRequest, target: URL): () => string {
  const head = `${request.method} ${target.pathname}${target.search} HTTP/1.1\r\nhost: ${target.host}\r\n${headerLines(request.headers ?? {})}`;
  const { each } = request;
  if (each === undefined) {
    const fixed = withBody(head, request.body);
    return () => fixed;
  }
  return () => {
    const made = each();
    return withBody(head + headerLines(made.headers), made.body ?? request.body);
  };
}

function headerLines(headers: Record<string, string>): string {
  let lines = '';
  for (const name in headers) lines += `${name}: ${headers[name]}\r\n`;
  return lines;
}

function withBody(head: string, body: string | undefined): string {
  return body === undefined ? `${head}\r\n` : `${head}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

/** Latencies in ms, kept whole so the percentiles are exact. */
class Latencies {
  #values = new Float64Array(1 << 16);
  #count = 0;

  add(ms: number): void {
    if (this.#count === this.#values.length) {
      const grown = new Float64Array(this.#values.length * 2);
      grown.set(this.#values);
      this.#values = grown;
    }
    this.#values[this.#count] = ms;
    this.#count += 1;
  }

  /** The nearest-rank p50 and p99, from one sort; NaN when nothing was answered. */
  percentiles(): { p50Ms: number; p99Ms: number } {
    const sorted = this.#values.subarray(0, this.#count).sort();
    const rank = (p: number) => (this.#count === 0 ? Number.NaN : sorted[Math.max(0, Math.ceil((p / 100) * this.#count) - 1)]!);
    return { p50Ms: rank(50), p99Ms: rank(99) };
  }
}
