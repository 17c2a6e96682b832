// What the machine walk (machine-walk.test.ts) needs of each machine: a driver that puts a
// resource of the machine in its initial state and fires any of its transitions the way a user
// does (the public APIs, the simulated chain, the clock, a control knob), reads its status, and
// says which webhooks are about it.
import type { DepositV1Client } from '../../../generated/deposit-v1/client.js';
import type { Transition } from '../../../generated/machines.js';
import type { TestServer } from '../support/server.js';

export type AnyTransition = Transition<string, string>;

/** A webhook the built-in inbox received: its type and parsed body. */
export interface ReceivedWebhook {
  type: string;
  body: Record<string, unknown>;
}

export interface WalkContext {
  server: TestServer;
  /** A v1 site whose callback is the inbox (deposit.* events arrive there). */
  site: { id: number; v1: DepositV1Client };
  /** A URL of the test's own receiver, answering 204 unless a fault set through the control API says otherwise. */
  receiverUrl(name: string): string;
  /** A new v1 site with this callback URL (subscribed to these deposit.* events, default all), and a client signing as it. */
  newSite(callbackUrl: string, events?: string[]): Promise<DepositV1Client>;
}

export interface MachineDriver<H> {
  /**
   * A new resource in the machine's initial state, arranged so that `path` (from the initial
   * state, the transition under test last) can be walked; the handle may name nothing yet when
   * the path's first step creates the resource (a check skipped at creation).
   */
  create(context: WalkContext, path: readonly AnyTransition[]): Promise<H>;
  /** Fires `step` of `path` on the resource, which is in `step.from`. */
  fire(context: WalkContext, handle: H, step: AnyTransition, path: readonly AnyTransition[]): Promise<void>;
  /** The resource's status as its API shows it; null when it does not exist yet. */
  status(context: WalkContext, handle: H): Promise<string | null>;
  /** The types of the received webhooks that are about this resource, in order (default: none is). */
  about?(handle: H, received: readonly ReceivedWebhook[]): string[];
  /** A step the mock takes by itself right after the previous one, so it has no action of its own. */
  automatic?(step: AnyTransition): boolean;
  /** Its steps send webhooks themselves (deliveries), so the walk must not send what is due between them. */
  ownsDispatch?: boolean;
}

/** The path's steps that match, e.g. to see whether it ever falls short. */
export function pathHas(path: readonly AnyTransition[], match: Partial<AnyTransition>): boolean {
  return path.some((step) => (Object.keys(match) as (keyof AnyTransition)[]).every((key) => step[key] === match[key]));
}
