// A mock started on a database whose sandbox another process holds (postgres://): a replica. It
// listens on its own port all the same and answers every request there by forwarding it to the
// holder (forward-to-holder.ts), while it waits to hold the sandbox. When the holder stops or
// dies, one waiting replica gets the hold, takes the sandbox up from the database as a restart
// does, and answers on the same port itself (the others now forward to it). Its port is recorded
// in the database while it runs, so the holder never sends a webhook there.
import { createServer, type RequestListener } from 'node:http';
import { depositV1Info } from '../../generated/deposit-v1/contract-data.js';
import { exchangeV3Info } from '../../generated/exchange-v3/contract-data.js';
import { sandboxControlInfo } from '../../generated/sandbox-control/contract-data.js';
import type { AddressInfo, Socket } from 'node:net';
import { flushPerTurn } from '../http/flush-per-turn.js';
import { baseUrl, listening } from '../http/listening.js';
import { checkedSeed } from '../snapshot/journal-resume.js';
import { prepareMockServer, serverTimeouts, type PreparedMockServer, type RunningMockServer, type StartOptions } from '../server.js';
import { listenerAddress } from '../dispatch/own-listener.js';
import type { RecordedListener } from '../store/record-journal.js';
import type { SandboxStore } from '../store/sandbox-store.js';
import { forwardToHolder } from './forward-to-holder.js';

export interface RunningStandby {
  url: string;
  /** Resolves with the mock once this process holds the sandbox and answers on its port itself. */
  takeover: Promise<RunningMockServer>;
  /** Stops forwarding, and the mock when it took over. Close the store after it. */
  close(): Promise<void>;
}

/** The largest body the families take as JSON (their contracts' limit): what a replica keeps to send again. */
const largestJsonBodyBytes = Math.max(...[exchangeV3Info, depositV1Info, sandboxControlInfo].map((info) => info['x-body-limit-bytes']));

/** How often, and how many times, the port is asked for again while the forwarding listener lets go of it. */
const relistenEveryMs = 10;
const relistenTries = 100;

export async function startStandby(options: StartOptions & { store: SandboxStore }): Promise<RunningStandby> {
  const holding = options.store.journal?.holding;
  if (holding === undefined) throw new Error(`the store ${options.store.location} is not one replicas share`);
  // A --seed that is not the sandbox's is refused now, not when this replica takes over.
  await checkedSeed(options.store, options.seed);
  const forwarding = forwardToHolder(holding, { trustProxy: options.trustProxy ?? [], keptBodyBytes: largestJsonBodyBytes });
  const host = options.host ?? '127.0.0.1';
  // The holder must count a webhook aimed at this port as aimed at itself (dispatch/own-listener.ts):
  // it reads where replicas listen once its connection is made. So a request is forwarded only
  // on a connection accepted while this port's record counted, the same writing of it as now
  // (not before it was first written, not while it was lost); the others are closed unanswered.
  let recorded: RecordedListener | undefined;
  const acceptedUnder = new WeakMap<Socket, number | undefined>();
  const whileRecorded: RequestListener = (req, res) => {
    const under = acceptedUnder.get(req.socket);
    if (under === undefined || under !== recorded?.since) return void res.destroy();
    forwarding.listener(req, res);
  };
  const server = flushPerTurn(createServer(serverTimeouts(options), whileRecorded));
  server.on('connection', (socket: Socket) => acceptedUnder.set(socket, recorded?.since));
  const forwarder = await listening(server, { port: options.port ?? 0, host });
  recorded = await holding.replicaListeners.record(listenerAddress(forwarder.address() as AddressInfo)).catch((error: unknown) => {
    forwarder.close();
    forwarder.closeAllConnections();
    forwarding.close();
    throw error;
  });
  const { port } = forwarder.address() as AddressInfo;
  let running: RunningMockServer | undefined;
  let closed = false;
  /** The takeover once the hold is this process's: close() waits for it, not for the hold. */
  let takingOver: Promise<RunningMockServer> | undefined;
  const takeover = holding.waitToHold().then(() => {
    takingOver = (async () => {
      if (closed) throw new Error('the replica was closed before it took the sandbox over');
      // Built and resumed while the forwarder still listens: requests keep arriving, and wait for
      // the holder this process is about to announce.
      const prepared = await prepareMockServer({ ...options, port });
      forwarder.close();
      forwarder.closeIdleConnections();
      running = await listenWhenFree(prepared);
      return running;
    })();
    return takingOver;
  });
  // A takeover cut short by close() is no error of the caller's; close() reports what it must.
  takeover.catch(() => undefined);
  return {
    url: baseUrl(host, port),
    takeover,
    close: async () => {
      closed = true;
      forwarder.close();
      forwarder.closeAllConnections();
      forwarding.close();
      await takingOver?.catch(() => undefined);
      await running?.close();
      await recorded?.removed();
    },
  };
}

/** Listens on the port the forwarder just let go of: the kernel frees it within a turn or two. */
async function listenWhenFree(prepared: PreparedMockServer): Promise<RunningMockServer> {
  for (let tries = 1; ; tries += 1) {
    try {
      return await prepared.listen();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || tries === relistenTries) throw error;
      await new Promise((resolve) => setTimeout(resolve, relistenEveryMs));
    }
  }
}
