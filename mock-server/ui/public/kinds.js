// What each table of the inspector shows: the columns of each kind of record (the control API's
// listInspectorRecords presents every record as its own API does) and of the faults in force,
// and the actions inside rows (force an order event, pay a deposit, retry a delivery, remove a
// fault). `page` gives the control API, the status line and config.json.
import { badge, bodyBlock, dash, disclosure, el, headerList, json, text, time } from './dom.js';

export function tableSpecs(page) {
  const { act, call, say, config } = page;

  function forceOrderEventControl(order) {
    const events = config.orderEvents[order.status] ?? [];
    if (events.length === 0) return el('span', { className: 'muted' }, 'final');
    const label = `order ${order.id}`;
    const select = el('select', { 'aria-label': `Event for ${label}` }, events.map((event) => el('option', { value: event }, event)));
    const force = el('button', {
      type: 'button',
      'aria-label': `Force event on ${label}`,
      onclick: () =>
        act(async () => {
          const result = await call('forceOrderEvent', { path: { order: order.id }, body: { event: select.value } });
          const { from, event, to } = result.transition;
          return `Order ${order.id}: ${from} → ${event} → ${to}.`;
        }),
    }, 'Force');
    return el('span', { className: 'inline' }, select, force);
  }

  /** Fills the inject form with a payment to this address (and memo). */
  function payButton(kind, target) {
    return el('button', {
      type: 'button',
      'aria-label': `Pay ${kind} ${target.orderId}`,
      onclick: () => {
        const form = document.getElementById('inject-form');
        form.elements.network.value = target.network;
        form.elements.address.value = target.address;
        form.elements.memo.value = target.memo ?? '';
        form.elements.amount.value = target.amount ?? '';
        form.elements.amount.focus();
        say(`The transaction form is filled in for ${kind} ${target.orderId}; check the amount and inject it.`);
      },
    }, 'Pay');
  }

  function retryButton(delivery) {
    if (!config.retryableDeliveryStatuses.includes(delivery.status)) return dash;
    return el('button', {
      type: 'button',
      'aria-label': `Retry delivery ${delivery.id}`,
      onclick: () =>
        act(async () => {
          const result = await call('forceWebhookRetry', { path: { delivery: delivery.id } });
          return `Delivery ${delivery.id} is ${result.delivery.status}; the next dispatch sends it (“Send due webhooks” sends it now).`;
        }),
    }, 'Retry');
  }

  function removeFaultButton(fault) {
    return el('button', {
      type: 'button',
      'aria-label': `Remove fault ${fault.id}`,
      onclick: () =>
        act(async () => {
          await call('removeFault', { path: { fault: fault.id } });
          return `Fault ${fault.id} on ${fault.operation} removed.`;
        }),
    }, 'Remove');
  }

  /** A delivery (or event) never sent, its site having no callback URL, is shown as such, not as pending. */
  function sendStatus(record) {
    if (record.not_sent) return badge('not_sent', `not sent · ${config.notSentLabels[record.not_sent] ?? record.not_sent}`);
    return badge(record.status);
  }

  const resourceOf = (resource) => (resource ? `${resource.type} ${text(resource.id)}` : dash);

  return [
    {
      field: 'faults', title: 'Faults in force', key: (f) => f.id, empty: 'None: every operation behaves normally.',
      columns: [
        ['ID', (f) => f.id],
        ['Operation', (f) => `${f.operation} (${f.family})`, 'mono'],
        ['Calls of', (f) => (f.key_id !== null ? `key ${f.key_id}` : f.site_id !== null ? `site ${f.site_id}` : 'every caller')],
        ['Effect', faultEffect],
        ['Which calls', whichCalls],
        ['Applied', (f) => f.applied],
        ['Created', (f) => time(f.created_at)],
        ['Remove', removeFaultButton],
      ],
    },
    {
      field: 'orders', title: 'Orders', records: true, key: (o) => o.id,
      columns: [
        ['ID', (o) => o.id, 'mono'],
        ['Public ID', (o) => o.public_id, 'mono'],
        ['Status', (o) => badge(o.status)],
        ['Pair', (o) => `${text(o.currency_in)} → ${text(o.currency_out)}`],
        ['Amount in', (o) => o.amount_in, 'mono'],
        ['Amount out', (o) => o.amount_out, 'mono'],
        ['Expires', (o) => time(o.expires_at)],
        ['Created', (o) => time(o.created_at)],
        ['Force an event', forceOrderEventControl],
      ],
    },
    {
      field: 'deposits', title: 'Deposits', records: true, key: (d) => d.uuid,
      columns: [
        ['Order ID', (d) => d.orderId, 'mono'],
        ['Status', (d) => badge(d.status)],
        ['Asset', (d) => `${d.asset} (${d.network})`],
        ['Address', (d) => d.address, 'mono'],
        ['Memo', (d) => d.memo, 'mono'],
        ['Amount', (d) => d.amount ?? 'any', 'mono'],
        ['Received', (d) => d.receivedAmount, 'mono'],
        ['Confirmations', (d) => (d.transaction ? `${d.transaction.confirmations} / ${d.transaction.requiredConfirmations}` : dash)],
        ['Expires', (d) => time(d.expiresAt)],
        ['Pay', (d) => (d.isFinal ? dash : payButton('deposit', d))],
      ],
    },
    {
      field: 'static_addresses', title: 'Static addresses', records: true, key: (a) => a.uuid,
      columns: [
        ['Order ID', (a) => a.orderId, 'mono'],
        ['Status', (a) => badge(a.status)],
        ['Asset', (a) => `${a.asset} (${a.network})`],
        ['Address', (a) => a.address, 'mono'],
        ['Memo', (a) => a.memo, 'mono'],
        ['Payments', (a) => a.paymentsCount],
        ['Created', (a) => time(a.createdAt)],
        ['Pay', (a) => payButton('static address', { ...a, amount: null })],
      ],
    },
    {
      field: 'aml_checks', title: 'AML checks', records: true, key: (c) => c.uuid,
      columns: [
        ['UUID', (c) => c.uuid, 'mono'],
        ['Status', (c) => badge(c.status)],
        ['Type', (c) => c.type],
        ['Currency', (c) => `${c.currency} (${c.network})`],
        ['Address', (c) => c.address, 'mono'],
        ['Risk', (c) => (c.riskLevel ? `${c.riskLevel} (${c.riskScore})` : c.reason)],
        ['Created', (c) => time(c.createdAt)],
      ],
    },
    {
      field: 'upload_intents', title: 'Upload intents', records: true, key: (u) => u.uuid,
      columns: [
        ['UUID', (u) => u.uuid, 'mono'],
        ['Status', (u) => badge(u.status)],
        ['Purpose', (u) => u.purpose],
        ['Owner', (u) => u.owner, 'mono'],
        ['For', (u) => (u.resource_type ? `${u.resource_type} ${text(u.resource_id)}${u.field_key ? ` · ${u.field_key}` : ''}` : text(u.field_key))],
        ['File', (u) => (u.file ? `${u.file.name} (${u.file.content_type}, ${u.file.size} B)` : dash)],
        ['Expires', (u) => time(u.expires_at)],
        ['Committed', (u) => time(u.committed_at)],
      ],
    },
    {
      field: 'verifications', title: 'Verifications', records: true, key: (v) => v.id,
      columns: [
        ['ID', (v) => v.id, 'mono'],
        ['Type', (v) => v.type],
        ['Status', (v) => badge(v.status)],
        ['Owner', (v) => v.owner, 'mono'],
        ['Order', (v) => v.order_id, 'mono'],
        ['Documents', (v) => v.documents.map((d) => d.kind).join(', ') || dash],
        ['Rejection reason', (v) => v.rejection_reason],
        ['Expires', (v) => time(v.expires_at)],
        ['Created', (v) => time(v.created_at)],
      ],
    },
    {
      field: 'webhook_events', title: 'Webhook events', records: true, key: (e) => e.id,
      columns: [
        ['Type', (e) => e.type],
        ['Status', sendStatus],
        ['Owner', (e) => e.owner, 'mono'],
        ['Resource', (e) => resourceOf(e.resource)],
        ['Deliveries', (e) => e.deliveries_count],
        ['Event ID', (e) => e.id, 'mono'],
        ['Created', (e) => time(e.created_at)],
      ],
    },
    {
      field: 'webhook_deliveries', title: 'Webhook deliveries', records: true, unsentChoice: true, key: (d) => d.id, exchange: true,
      columns: [
        ['Event type', (d) => d.event.type],
        ['Status', sendStatus],
        ['Attempts', (d) => d.attempt],
        ['Signature', signature],
        ['Owner', (d) => d.owner, 'mono'],
        ['Resource', (d) => resourceOf(d.resource), 'mono'],
        ['Endpoint', (d) => d.endpoint.url || '(no callback URL)', 'mono'],
        ['Next retry', (d) => time(d.next_retry_at)],
        ['Delivery ID', (d) => d.id, 'mono'],
        ['Retry', retryButton],
        ['Request and response', exchange],
      ],
    },
  ];
}

function whichCalls(fault) {
  const share = fault.probability === null ? null : `${fault.probability * 100}% of calls (seed ${fault.seed})`;
  if (fault.times_left === null) return share ?? 'every call';
  return share === null ? `the next ${fault.times_left}` : `${share}, ${fault.times_left} more at most`;
}

function faultEffect(fault) {
  const parts = [];
  if (fault.latency_ms) parts.push(fault.latency_ms.min === fault.latency_ms.max ? `wait ${fault.latency_ms.min} ms` : `wait ${fault.latency_ms.min}–${fault.latency_ms.max} ms`);
  if (fault.error) parts.push(`answer ${fault.error.status} ${fault.error.code}`);
  if (fault.reset) parts.push('reset the connection');
  return parts.join(', then ');
}

function signature(delivery) {
  const valid = delivery.signature_valid;
  if (valid === null || valid === undefined) return el('span', { className: 'muted' }, delivery.not_sent ? 'never sent' : 'not sent yet');
  return el('span', { className: valid ? 'sig-valid' : 'sig-invalid' }, valid ? '✓ valid' : '✗ invalid');
}

/** What the last attempt sent and got back. */
function exchange(delivery, key) {
  const { request, response, error } = delivery;
  return disclosure(`delivery:${key}:exchange`, 'Show',
    el('h3', {}, 'Request'),
    request === null
      ? el('p', { className: 'muted' }, delivery.not_sent ? 'Never sent: the site has no callback URL.' : 'No attempt yet.')
      : [el('p', { className: 'mono' }, `POST ${request.url}`), headerList(request.headers), bodyBlock(request.body)],
    el('h3', {}, 'Response'),
    response === null
      ? el('p', { className: 'muted' }, error ? `No answer: ${error.code} (${error.message})` : 'No answer yet.')
      : [el('p', {}, `HTTP ${response.status} in ${response.duration_ms} ms`), headerList(response.headers), bodyBlock(response.body)],
    el('h3', {}, 'Record'),
    json(delivery),
  );
}
