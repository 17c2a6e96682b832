// The sandbox control API's webhook rooms (contracts/sandbox-control.openapi.yaml, tag Webhooks):
// the built-in inbox, fault injection and "send what is due now". The inbox and the faults
// belong to the sandbox's current webhook engine: reset() builds a new engine, so they start
// empty again without the sandbox knowing about them. Faults act through a Transport wrapper
// installed once on sandbox.webhookTransport, which also tracks the attempts in flight so
// runDueWebhooks can wait for them. Deliveries addressed to the inbox on the mock's own listener
// are handed to it in-process: the mock never connects to itself (dispatch/own-listener.ts).
import type { IncomingHttpHeaders } from 'node:http';
import type { HandlerContext } from '../../generated/runtime/router-runtime.js';
import { sandboxControlRoutes, sandboxControlRoutesBasePath, type SandboxControlHandlers } from '../../generated/sandbox-control/routes.js';
import { faultTransport, FaultTable, type Fault } from '../dispatch/faults.js';
import { defaultInboxBytes, signatureValidity, WebhookInbox, type InboxRecord } from '../dispatch/inbox.js';
import { HttpError } from '../http/http-error.js';
import { requestLocals } from '../http/locals.js';
import { controlSuccess } from '../http/respond.js';
import type { Sandbox } from '../sandbox.js';
import type { WebhookEngine } from '../webhook-engine.js';

/** Records the inbox keeps (the oldest go first); their total size is bounded too (WebhookControlOptions). */
const inboxCapacity = 1000;

export interface WebhookControlOptions {
  /** The most the inbox's records may take in its listing (default 16 MiB). */
  inboxBytes?: number;
}

/** Where the inbox lives on the mock's listener: the path of receiveInboxWebhook. */
const inboxPath = `${sandboxControlRoutesBasePath}${sandboxControlRoutes.find((route) => route.operationId === 'receiveInboxWebhook')!.path}`;

interface WebhookControlState {
  inbox: WebhookInbox;
  faults: FaultTable;
}

const states = new WeakMap<WebhookEngine, WebhookControlState>();
const inFlight = new WeakMap<Sandbox, Set<Promise<unknown>>>();

function stateOf(sandbox: Sandbox, inboxBytes: number): WebhookControlState {
  let state = states.get(sandbox.webhooks);
  if (state === undefined) {
    state = { inbox: new WebhookInbox(inboxCapacity, inboxBytes), faults: new FaultTable() };
    states.set(sandbox.webhooks, state);
  }
  return state;
}

/** Wraps the sandbox's transport with the faults and the in-flight tracking, once per sandbox. */
function installTransport(sandbox: Sandbox, faults: () => FaultTable): Set<Promise<unknown>> {
  const existing = inFlight.get(sandbox);
  if (existing !== undefined) return existing;
  const pending = new Set<Promise<unknown>>();
  inFlight.set(sandbox, pending);
  const faulty = faultTransport(sandbox.webhookTransport, faults);
  sandbox.webhookTransport = (request, signal) => {
    const attempt = faulty(request, signal);
    pending.add(attempt);
    const forget = (): void => {
      pending.delete(attempt);
    };
    attempt.then(forget, forget);
    return attempt;
  };
  return pending;
}

type WebhookControlOperation = 'receiveInboxWebhook' | 'listInboxWebhooks' | 'clearInbox' | 'setWebhookFault' | 'clearWebhookFaults' | 'runDueWebhooks';

export function webhookControlHandlers(sandbox: Sandbox, options: WebhookControlOptions = {}): Pick<SandboxControlHandlers, WebhookControlOperation> {
  const { clock } = sandbox;
  const state = () => stateOf(sandbox, options.inboxBytes ?? defaultInboxBytes);
  const pending = installTransport(sandbox, () => state().faults);
  const receive = async (headers: Record<string, string>, raw: Buffer): Promise<void> => {
    const signatureValid = await signatureValidity(sandbox.webhooks.store, headers, raw);
    state().inbox.add({ headers, raw, receivedAt: clock.now(), signatureValid });
  };
  sandbox.egress.ownListener.serve(inboxPath, async (request) => {
    await receive(request.headers, Buffer.from(request.body));
    return { status: 204, headers: {}, body: '' };
  });

  return {
    receiveInboxWebhook: async (_request, context) => {
      await receive(headerMap(context.req.headers), requestLocals(context.res).rawBody ?? Buffer.alloc(0));
      return { status: 204 };
    },
    listInboxWebhooks: (request, context) => {
      const records = state().inbox.list({
        ...(request.query.event_type !== undefined ? { eventType: request.query.event_type } : {}),
        ...(request.query.event_id !== undefined ? { eventId: request.query.event_id } : {}),
      });
      return controlSuccess('listInboxWebhooks', context, clock, 200, { deliveries: records.map(presentRecord) });
    },
    clearInbox: (_request, context) => controlSuccess('clearInbox', context, clock, 200, { cleared: state().inbox.clear() }),
    setWebhookFault: (request, context) => {
      const body = request.body;
      // A wait of 0 and `duplicate: false` are no effects: such a fault would only replace a real one.
      if (body.fail_next === undefined && body.status === undefined && !(body.delay_ms !== undefined && body.delay_ms > 0) && body.duplicate !== true) {
        throw new HttpError('validation_error', 'A fault needs at least one effect.', {
          body: ['needs at least one of fail_next, status, a delay_ms above 0, duplicate: true'],
        });
      }
      const fault = state().faults.set(
        {
          url: body.url,
          ...(body.fail_next !== undefined ? { failNext: body.fail_next } : {}),
          ...(body.status !== undefined ? { status: body.status } : {}),
          ...(body.delay_ms !== undefined ? { delayMs: body.delay_ms } : {}),
          ...(body.duplicate !== undefined ? { duplicate: body.duplicate } : {}),
        },
        clock.now(),
      );
      return controlSuccess('setWebhookFault', context, clock, 201, presentFault(fault));
    },
    clearWebhookFaults: (_request, context) => controlSuccess('clearWebhookFaults', context, clock, 200, { cleared: state().faults.clear() }),
    runDueWebhooks: async (_request, context: HandlerContext) => {
      const summary = await sandbox.webhooks.dispatcher.runDue();
      await settle(pending);
      return controlSuccess('runDueWebhooks', context, clock, 200, summary);
    },
  };
}

/**
 * Waits until no attempt is in flight, including those another runDue (the clock's advance
 * listener, the real-time ticker) started, and their outcomes are recorded. Recording after the
 * transport answered takes only promise callbacks, which run before the next macrotask.
 */
async function settle(pending: Set<Promise<unknown>>): Promise<void> {
  for (;;) {
    await nextMacrotask();
    if (pending.size === 0) return;
    await Promise.allSettled([...pending]);
  }
}

function nextMacrotask(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Header name → value; fromEntries defines own properties, so a `__proto__` header is just a header. */
function headerMap(headers: IncomingHttpHeaders): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).flatMap(([name, value]) =>
      value === undefined ? [] : [[name.toLowerCase(), Array.isArray(value) ? value.join(', ') : value]],
    ),
  );
}

function presentRecord(record: InboxRecord) {
  return {
    id: record.id,
    received_at: record.receivedAt.toISOString(),
    headers: record.headers,
    body: record.body,
    event_id: record.eventId,
    event_type: record.eventType,
    delivery_id: record.deliveryId,
    attempt: record.attempt,
    signature_valid: record.signatureValid,
  };
}

function presentFault(fault: Fault) {
  return {
    url: fault.url,
    fail_next: fault.failNext,
    status: fault.status,
    delay_ms: fault.delayMs,
    duplicate: fault.duplicate,
    created_at: fault.createdAt.toISOString(),
  };
}
