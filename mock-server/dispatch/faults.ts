// Fault injection for webhook targets (sandbox control setWebhookFault): a table of faults by
// target URL prefix, and a Transport wrapper that applies them in the sender, before a request
// leaves the mock: answer an attempt itself with a status, wait before sending (so the attempt
// timeout can be reached), or send an attempt twice. The delivery machine records a faulted
// attempt like any real one.
import type { Transport, TransportResponse } from './transport.js';

export interface FaultInput {
  url: string;
  failNext?: number;
  status?: number;
  delayMs?: number;
  duplicate?: boolean;
}

export interface Fault {
  url: string;
  /** Attempts still to be answered with `status`; null: `status` answers every attempt (or none when it is null). */
  failNext: number | null;
  status: number | null;
  delayMs: number;
  /** Whether the next attempt that reaches the target is still to be sent twice. */
  duplicate: boolean;
  createdAt: Date;
}

/** What one attempt gets from the fault that matches its target. */
export interface FaultEffects {
  delayMs: number;
  /** The status the mock answers with instead of contacting the target; null: the attempt is sent. */
  answer: number | null;
  duplicate: boolean;
}

const defaultFailStatus = 500;

export class FaultTable {
  private readonly byUrl = new Map<string, Fault>();

  /** Sets the fault for `url`, replacing an earlier one for the same url. */
  set(input: FaultInput, now: Date): Fault {
    const failing = input.failNext !== undefined;
    const fault: Fault = {
      url: input.url,
      failNext: failing ? (input.failNext ?? 0) : null,
      status: input.status ?? (failing ? defaultFailStatus : null),
      delayMs: input.delayMs ?? 0,
      duplicate: input.duplicate ?? false,
      createdAt: now,
    };
    this.byUrl.set(fault.url, fault);
    return { ...fault };
  }

  clear(): number {
    const count = this.byUrl.size;
    this.byUrl.clear();
    return count;
  }

  get size(): number {
    return this.byUrl.size;
  }

  /**
   * The effects on one attempt to `target`, from the matching fault with the longest url; the
   * one-time effects it uses are consumed now, when the attempt starts, so attempts in flight
   * together never share one. Null when no fault matches.
   */
  take(target: string): FaultEffects | null {
    const fault = this.match(target);
    if (fault === undefined) return null;
    let answer: number | null = null;
    if (fault.failNext === null) {
      answer = fault.status;
    } else if (fault.failNext > 0) {
      fault.failNext -= 1;
      answer = fault.status;
    }
    // An attempt the mock answers itself sends nothing, so it does not use up the duplicate.
    const duplicate = answer === null && fault.duplicate;
    if (duplicate) fault.duplicate = false;
    if (inert(fault)) this.byUrl.delete(fault.url);
    return { delayMs: fault.delayMs, answer, duplicate };
  }

  private match(target: string): Fault | undefined {
    let best: Fault | undefined;
    for (const fault of this.byUrl.values()) {
      if (target.startsWith(fault.url) && (best === undefined || fault.url.length > best.url.length)) best = fault;
    }
    return best;
  }
}

/** A fault with nothing left to do: no attempt left to fail, no delay, no duplicate to send. */
function inert(fault: Fault): boolean {
  const failsMore = fault.failNext === null ? fault.status !== null : fault.failNext > 0;
  return !failsMore && fault.delayMs === 0 && !fault.duplicate;
}

/** Wraps `inner` with the faults of `table()` (read on every attempt, so a reset's new table applies). */
export function faultTransport(inner: Transport, table: () => FaultTable): Transport {
  return async (request, signal) => {
    const effects = table().take(request.url);
    if (effects === null) return inner(request, signal);
    await sleep(effects.delayMs, signal);
    if (effects.answer !== null) return faultAnswer(effects.answer);
    const response = await inner(request, signal);
    if (effects.duplicate) {
      // The copy's fate does not change the attempt's outcome: the first answer counts.
      await inner(request, signal).catch(() => undefined);
    }
    return response;
  };
}

function faultAnswer(status: number): TransportResponse {
  return {
    status,
    headers: { 'content-type': 'text/plain' },
    body: `answered by the mock's fault injection (setWebhookFault) with ${status}; the target was not contacted`,
  };
}

/** Waits `ms` of real time; rejects with the signal's reason (a TimeoutError) when it aborts first. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
