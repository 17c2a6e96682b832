// `serve --workers N`: a node:cluster primary that forks N workers, each the same `serve` on the
// same port (each accepts on the listening socket they share) over the same postgres://
// sandbox: one of them holds it, the others are its replicas (mock-server/replica/). The primary
// serves nothing itself. It forwards SIGINT/SIGTERM to the workers and exits 0 once they have all
// stopped, and it replaces a worker that dies while it runs, so a killed holder's place is taken
// (a waiting replica takes the sandbox over) and the number of processes stays N.
import cluster, { type Worker } from 'node:cluster';
import { createServer } from 'node:net';
import type { CommandIo } from './io.js';

export interface WorkersPlan {
  workers: number;
  port: number;
  host: string;
  /** The store as shown (without a password). */
  store: string;
}

/** Forks the workers with `argv` (plus --port, fixed first when it is 0) and runs until they have stopped; resolves with the exit code. */
export async function serveWithWorkers(plan: WorkersPlan, argv: readonly string[], io: CommandIo): Promise<number> {
  // Every worker, and every replacement, must listen on the one port: a port 0 is chosen once here.
  const port = plan.port === 0 ? await freePort(plan.host) : plan.port;
  // The workers accept their connections themselves. With node's default (the primary accepts
  // and hands each connection to a worker in turn), a connection handed to the holder as it was
  // killed stayed with the primary, open and unanswered, for good; accepted by the worker, it
  // closes with it, and the client sees the failure at once. That the kernel may give one worker
  // more connections than the other does not matter here: the holder answers every request anyway.
  cluster.schedulingPolicy = cluster.SCHED_NONE;
  cluster.setupPrimary({ args: ['serve', ...argv, '--port', String(port)] });
  let stopping = false;
  // A worker that dies before it ever listened (port in use, database unreachable) is not
  // replaced: another would fail alike. Its exit code becomes the primary's.
  let failedStart: number | undefined;
  const fork = (): Worker => {
    const worker = cluster.fork();
    let listened = false;
    worker.once('listening', () => (listened = true));
    worker.once('exit', (code, signal) => {
      if (stopping) return;
      if (!listened) {
        failedStart = code ?? 1;
        stop();
        return;
      }
      const how = signal === null ? `exited with code ${code}` : `was killed by ${signal}`;
      io.stderr(`exchange-api-kit serve: worker pid ${worker.process.pid} ${how}; started pid ${fork().process.pid} in its place`);
    });
    return worker;
  };
  const stop = () => {
    if (stopping) return;
    stopping = true;
    // SIGTERM to each, also for a SIGINT: a Ctrl-C in a terminal has already sent the workers
    // SIGINT, and a second SIGINT to a worker that handles it once would end it abruptly.
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
  };
  const pids = Array.from({ length: plan.workers }, () => fork().process.pid);
  io.stdout(`exchange-api-kit serve: ${plan.workers} worker processes (pids ${pids.join(', ')}) on port ${port} sharing the sandbox of ${plan.store};
  the one holding the sandbox prints the credentials, the others say they are replicas; this process (pid ${process.pid}) serves nothing itself\n`);
  // Kept for every signal: a second Ctrl-C must not end the primary before its workers.
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  await allStopped();
  return failedStart ?? 0;
}

function allStopped(): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (Object.keys(cluster.workers ?? {}).length === 0) resolve();
    };
    cluster.on('exit', () => setImmediate(check));
  });
}

function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, host, () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.once('error', reject);
  });
}
