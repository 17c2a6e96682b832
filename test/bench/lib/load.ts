// One autocannon run: requests per second and latency percentiles of one request at a number of
// connections, plus how many answers were not 2xx (a load figure over errors means nothing), the
// load generator's own CPU time per request (it shares the machine with the server) and, given
// the server's pid, the server's CPU time per request.
import autocannon, { type Request } from 'autocannon';
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
  /** This process's CPU (autocannon's) per answered request, in µs. */
  clientCpuUs: number;
}

export async function load(request: LoadRequest, connections: number, durationSeconds: number, serverPid?: number): Promise<LoadFigures> {
  const each = request.each;
  const cpuBefore = serverPid === undefined ? Number.NaN : cpuMs(serverPid);
  const clientBefore = process.cpuUsage();
  const result = await autocannon({
    url: request.url,
    method: request.method,
    headers: request.headers ?? {},
    ...(request.body === undefined ? {} : { body: request.body }),
    ...(each === undefined
      ? {}
      : {
          requests: [
            {
              setupRequest: (req: Request): Request => {
                const made = each();
                return { ...req, headers: { ...req.headers, ...made.headers }, ...(made.body === undefined ? {} : { body: made.body }) };
              },
            },
          ],
        }),
    connections,
    duration: durationSeconds,
  });
  const cpu = serverPid === undefined ? Number.NaN : cpuMs(serverPid) - cpuBefore;
  const client = process.cpuUsage(clientBefore);
  const answered = result.requests.total;
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    serverCpuUs: answered > 0 ? (cpu * 1000) / answered : Number.NaN,
    clientCpuUs: answered > 0 ? (client.user + client.system) / answered : Number.NaN,
  };
}
