// The inspector page's script: polls the control API's getInspectorState every second and
// renders each kind of record as a table (rows are kept while their record is unchanged, so an
// open disclosure or a chosen option survives the refresh), and sends the page's actions to the
// control API. Operation paths, the admin-token header, the events each order status allows and
// the retryable delivery statuses come from config.json (read from the contracts by the server).
//
// Admin token: when the mock has one, the control API answers 401 and the page asks for it; it
// can also be given once in the URL fragment (/__mock/ui/#token=…), which never reaches a server
// or a log. It is kept in sessionStorage (this tab only) and sent in the contract's header.

const pollMs = 1000;
const tokenKey = 'exchange-api-kit.inspector.admin-token';

const page = {
  config: null,
  token: sessionStorage.getItem(tokenKey),
  /** Keys of the open disclosures, so a re-rendered row opens them again. */
  open: new Set(),
};

class ApiFailure extends Error {
  constructor(status, envelope) {
    const details = envelope?.error?.details;
    const lines = details ? Object.entries(details).map(([field, messages]) => `${field}: ${[].concat(messages).join('; ')}`) : [];
    super([envelope?.message ?? `HTTP ${status}`, ...lines].join(' — '));
    this.status = status;
  }
}

// ---------------------------------------------------------------------------------------------
// The control API

async function call(operationId, { path = {}, query = {}, body } = {}) {
  const operation = page.config.operations[operationId];
  let url = operation.path.replace(/\{(\w+)\}/g, (_, name) => encodeURIComponent(String(path[name])));
  const search = new URLSearchParams(query).toString();
  if (search) url += `?${search}`;
  const headers = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (page.token) headers[page.config.adminTokenHeader] = page.token;
  const response = await fetch(url, { method: operation.method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const envelope = await response.json().catch(() => null);
  if (response.status === 401) showTokenForm();
  if (!response.ok || envelope === null || envelope.state !== 0) throw new ApiFailure(response.status, envelope);
  return envelope.result;
}

/** Runs a page action: its success message, or the failure, in the status line; then a refresh. */
async function act(action) {
  try {
    say(await action());
  } catch (error) {
    say(error.message, true);
  }
  // A poll already under way may have read the state before the change: read it again after.
  if (refreshing !== null) await refreshing;
  await refresh();
}

function say(text, isError = false) {
  const message = document.getElementById('message');
  message.textContent = text;
  message.classList.toggle('error', isError);
}

// ---------------------------------------------------------------------------------------------
// Small DOM helpers (text only: record contents, such as a receiver's answer, are never HTML)

function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'className') node.className = value;
    else if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

const dash = '–';
const text = (value) => (value === null || value === undefined || value === '' ? dash : String(value));
const time = (iso) => (iso ? iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z') : dash);

/** A colour for a status, by what the word says; the word itself is always shown. */
function tone(status) {
  if (/^(delivered|paid|completed|approved|active)$/.test(status)) return 'ok';
  if (/(fail|error|expired|rejected|cancel|disabled)/.test(status)) return 'bad';
  if (/(retry|under|over|partial|hold|pending|waiting|queued|confirming|awaiting)/.test(status)) return 'warn';
  return 'info';
}

const badge = (status) => el('span', { className: 'status', 'data-tone': tone(String(status)) }, text(status));

/** A disclosure whose open state survives re-rendering. */
function disclosure(key, summary, ...content) {
  const details = el('details', { open: page.open.has(key), 'data-key': key }, el('summary', {}, summary), ...content);
  details.addEventListener('toggle', () => (details.open ? page.open.add(key) : page.open.delete(key)));
  return details;
}

const json = (value) => el('pre', {}, JSON.stringify(value, null, 2));

function headerList(headers) {
  const entries = Object.entries(headers ?? {});
  if (entries.length === 0) return el('p', { className: 'muted' }, 'No headers.');
  return el('dl', {}, entries.flatMap(([name, value]) => [el('dt', {}, name), el('dd', { className: 'mono' }, value)]));
}

/** A body as sent: pretty-printed when it is JSON, else as it is. */
function bodyBlock(body) {
  try {
    return json(JSON.parse(body));
  } catch {
    return el('pre', {}, body === '' ? '(empty)' : body);
  }
}

// ---------------------------------------------------------------------------------------------
// Actions inside the tables

function forceOrderEventControl(order) {
  const events = page.config.orderEvents[order.status] ?? [];
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
  if (!page.config.retryableDeliveryStatuses.includes(delivery.status)) return dash;
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

function signature(valid) {
  if (valid === null || valid === undefined) return el('span', { className: 'muted' }, 'not sent yet');
  return el('span', { className: valid ? 'sig-valid' : 'sig-invalid' }, valid ? '✓ valid' : '✗ invalid');
}

/** What the last attempt sent and got back. */
function exchange(delivery, key) {
  const { request, response, error } = delivery;
  return disclosure(`delivery:${key}:exchange`, 'Show',
    el('h3', {}, 'Request'),
    request === null
      ? el('p', { className: 'muted' }, 'No attempt yet.')
      : [el('p', { className: 'mono' }, `POST ${request.url}`), headerList(request.headers), bodyBlock(request.body)],
    el('h3', {}, 'Response'),
    response === null
      ? el('p', { className: 'muted' }, error ? `No answer: ${error.code} (${error.message})` : 'No answer yet.')
      : [el('p', {}, `HTTP ${response.status} in ${response.duration_ms} ms`), headerList(response.headers), bodyBlock(response.body)],
    el('h3', {}, 'Record'),
    json(delivery),
  );
}

// ---------------------------------------------------------------------------------------------
// Tables: one per kind of record of the snapshot, a column being [header, cell, class]

const kinds = [
  {
    field: 'orders', title: 'Orders', key: (o) => o.id,
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
    field: 'deposits', title: 'Deposits', key: (d) => d.uuid,
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
    field: 'static_addresses', title: 'Static addresses', key: (a) => a.uuid,
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
    field: 'aml_checks', title: 'AML checks', key: (c) => c.uuid,
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
    field: 'webhook_events', title: 'Webhook events', key: (e) => e.id,
    columns: [
      ['Type', (e) => e.type],
      ['Status', (e) => badge(e.status)],
      ['Owner', (e) => e.owner, 'mono'],
      ['Resource', (e) => `${e.resource.type} ${text(e.resource.id)}`],
      ['Deliveries', (e) => e.deliveries_count],
      ['Event ID', (e) => e.id, 'mono'],
      ['Created', (e) => time(e.created_at)],
    ],
  },
  {
    field: 'webhook_deliveries', title: 'Webhook deliveries', key: (d) => d.id, exchange: true,
    columns: [
      ['Event type', (d) => d.event.type],
      ['Status', (d) => badge(d.status)],
      ['Attempts', (d) => d.attempt],
      ['Signature', (d) => signature(d.signature_valid)],
      ['Owner', (d) => d.owner, 'mono'],
      ['Endpoint', (d) => d.endpoint.url || '(no callback URL)', 'mono'],
      ['Next retry', (d) => time(d.next_retry_at)],
      ['Delivery ID', (d) => d.id, 'mono'],
      ['Retry', retryButton],
      ['Request and response', exchange],
    ],
  },
];

/** The sections and empty tables, once. */
function buildTables() {
  document.getElementById('records').replaceChildren(
    ...kinds.map((kind) => {
      const headingId = `${kind.field}-heading`;
      const headers = [...kind.columns.map(([header]) => header), ...(kind.exchange ? [] : ['Record'])];
      kind.table = el('table', { id: `${kind.field}-table`, 'aria-labelledby': headingId },
        el('thead', {}, el('tr', {}, headers.map((header) => el('th', { scope: 'col' }, header)))),
        el('tbody'),
      );
      kind.count = el('span', { className: 'count' });
      kind.rows = new Map();
      return el('section', { 'aria-labelledby': headingId }, el('h2', { id: headingId }, kind.title, ' ', kind.count), kind.table);
    }),
  );
}

function buildRow(kind, record, key) {
  const cells = kind.columns.map(([, cell, className]) => {
    const content = cell(record, key);
    return el('td', { className }, content instanceof Node ? content : text(content));
  });
  // Deliveries show their record with the exchange; every other kind in a cell of its own.
  if (!kind.exchange) cells.push(el('td', {}, disclosure(`${kind.field}:${key}:record`, 'JSON', json(record))));
  return el('tr', { 'data-key': key }, cells);
}

/**
 * Renders the kind's records: a row per record, built again only when its record changed since
 * the last render (so open disclosures and chosen options stay); rows no longer shown go.
 */
function renderKind(kind, records, total) {
  const next = new Map();
  const rows = records.map((record) => {
    const key = String(kind.key(record));
    const serialised = JSON.stringify(record);
    const kept = kind.rows.get(key);
    const row = kept !== undefined && kept.json === serialised ? kept.row : buildRow(kind, record, key);
    next.set(key, { json: serialised, row });
    return row;
  });
  kind.rows = next;
  if (rows.length === 0) {
    rows.push(el('tr', {}, el('td', { className: 'empty', colspan: kind.table.tHead.rows[0].cells.length }, 'None yet.')));
  }
  kind.table.tBodies[0].replaceChildren(...rows);
  kind.count.textContent = records.length < total ? `(newest ${records.length} of ${total})` : `(${total})`;
}

// ---------------------------------------------------------------------------------------------
// The snapshot

function formatOffset(seconds) {
  const sign = seconds < 0 ? '−' : '';
  let rest = Math.round(Math.abs(seconds));
  const parts = [];
  for (const [unit, size] of [['d', 86400], ['h', 3600], ['m', 60]]) {
    if (rest >= size) {
      parts.push(`${Math.floor(rest / size)}${unit}`);
      rest %= size;
    }
  }
  parts.push(`${rest}s`);
  return sign + parts.join(' ');
}

function render(state) {
  document.getElementById('clock-now').textContent = time(state.clock.now);
  document.getElementById('clock-frozen').textContent = state.clock.frozen ? 'yes' : 'no';
  document.getElementById('clock-offset').textContent = formatOffset(state.clock.offset_seconds);
  for (const kind of kinds) renderKind(kind, state[kind.field], state.counts[kind.field]);
}

let refreshing = null;

/** One poll; concurrent callers share it. */
function refresh() {
  refreshing ??= (async () => {
    const refreshed = document.getElementById('refreshed');
    try {
      render(await call('getInspectorState'));
      refreshed.textContent = `Updated ${new Date().toLocaleTimeString()} (your time).`;
    } catch (error) {
      refreshed.textContent = `Could not read the mock: ${error.message}`;
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

async function poll() {
  await refresh();
  setTimeout(poll, pollMs);
}

// ---------------------------------------------------------------------------------------------
// Forms and buttons

function showTokenForm() {
  document.getElementById('token-section').hidden = false;
}

function wire() {
  document.getElementById('token-form').addEventListener('submit', (event) => {
    event.preventDefault();
    page.token = document.getElementById('token-input').value;
    sessionStorage.setItem(tokenKey, page.token);
    document.getElementById('token-section').hidden = true;
    void act(async () => 'Admin token set for this tab.');
  });

  document.getElementById('advance-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const seconds = Number(event.target.elements.seconds.value);
    void act(async () => {
      const clock = await call('advanceClock', { body: { seconds } });
      return `Clock advanced by ${seconds} s to ${time(clock.now)}.`;
    });
  });

  const clockButton = (id, operationId, done) =>
    document.getElementById(id).addEventListener('click', () =>
      act(async () => {
        await call(operationId);
        return done;
      }),
    );
  clockButton('freeze-button', 'freezeClock', 'Clock frozen.');
  clockButton('resume-button', 'resumeClock', 'Clock running.');
  document.getElementById('run-due-button').addEventListener('click', () =>
    act(async () => {
      const r = await call('runDueWebhooks');
      return `Sent ${r.attempted} due deliveries: ${r.delivered} delivered, ${r.retrying} retrying, ${r.failed} failed, ${r.skipped} skipped.`;
    }),
  );

  document.getElementById('inject-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const fields = event.target.elements;
    const body = { network: fields.network.value, address: fields.address.value.trim(), amount: fields.amount.value.trim() };
    if (fields.memo.value.trim() !== '') body.memo = fields.memo.value.trim();
    if (fields.confirmations.value !== '') body.confirmations = Number(fields.confirmations.value);
    void act(async () => {
      const tx = await call('injectChainTransaction', { body });
      const credited = tx.deposit_uuid ? `credited to deposit ${tx.deposit_uuid}` : 'credited to no deposit';
      return `Transaction ${tx.hash} injected (${tx.confirmations}/${tx.required_confirmations} confirmations), ${credited}.`;
    });
  });

  const networks = document.getElementById('inject-network');
  networks.replaceChildren(...page.config.networks.map((n) => el('option', { value: n.code }, `${n.code} · ${n.name}${n.memoName ? ` (memo: ${n.memoName})` : ''}`)));
}

/** A token given as #token=… is kept for the tab and removed from the address bar. */
function takeTokenFromFragment() {
  const token = new URLSearchParams(location.hash.slice(1)).get('token');
  if (token === null) return;
  page.token = token;
  sessionStorage.setItem(tokenKey, token);
  history.replaceState(null, '', location.pathname + location.search);
}

async function start() {
  takeTokenFromFragment();
  const response = await fetch('config.json');
  page.config = await response.json();
  buildTables();
  wire();
  await poll();
}

start().catch((error) => say(`The inspector could not start: ${error.message}`, true));
