// The inspector page's script: every second it reads the clock, the faults in force and one page
// of each kind of record (listInspectorRecords, with each table's search, status filter and
// page), and renders them; it sends the page's actions to the control API. Operation paths, the
// admin-token header, the statuses of each kind, the events each order status allows and the
// retryable delivery statuses come from config.json (read from the contracts by the server).
//
// Admin token: when the mock has one, the control API answers 401 and the page asks for it; it
// can also be given once in the URL fragment (/__mock/ui/#token=…), which never reaches a server
// or a log.
import { call, connect, useToken } from './api.js';
import { el, time } from './dom.js';
import { tableSpecs } from './kinds.js';
import { buildSection, renderPage, renderRows, tableQuery } from './tables.js';

const pollMs = 1000;

let specs = [];
let refreshing = null;
let again = false;

function say(text, isError = false) {
  const message = document.getElementById('message');
  message.textContent = text;
  message.classList.toggle('error', isError);
}

/** Runs a page action: its success message, or the failure, in the status line; then a refresh. */
async function act(action) {
  try {
    say(await action());
  } catch (error) {
    say(error.message, true);
  }
  await refresh();
}

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

function renderClock(clock) {
  document.getElementById('clock-now').textContent = time(clock.now);
  document.getElementById('clock-frozen').textContent = clock.frozen ? 'yes' : 'no';
  document.getElementById('clock-offset').textContent = formatOffset(clock.offset_seconds);
}

/** One read of everything the page shows. */
async function readAll() {
  const records = specs.filter((spec) => spec.records);
  const faults = specs.find((spec) => spec.field === 'faults');
  const [clock, faultList, ...pages] = await Promise.all([
    call('getClock'),
    call('listFaults'),
    ...records.map((spec) => call('listInspectorRecords', { path: { kind: spec.field }, query: tableQuery(spec) })),
  ]);
  renderClock(clock);
  renderRows(faults, faultList.faults, faultList.faults.length);
  records.forEach((spec, i) => renderPage(spec, pages[i], refresh));
}

/**
 * One poll; callers during a poll share it, and a change asked for meanwhile (a new search, an
 * action) gets one more read after it, since the poll under way may predate the change.
 */
function refresh() {
  if (refreshing !== null) {
    again = true;
    return refreshing;
  }
  refreshing = (async () => {
    const refreshed = document.getElementById('refreshed');
    do {
      again = false;
      try {
        await readAll();
        refreshed.textContent = `Updated ${new Date().toLocaleTimeString()} (your time).`;
      } catch (error) {
        refreshed.textContent = `Could not read the mock: ${error.message}`;
      }
    } while (again);
    refreshing = null;
  })();
  return refreshing;
}

async function poll() {
  await refresh();
  setTimeout(poll, pollMs);
}

function showTokenForm() {
  document.getElementById('token-section').hidden = false;
}

function wire(config) {
  document.getElementById('token-form').addEventListener('submit', (event) => {
    event.preventDefault();
    useToken(document.getElementById('token-input').value);
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
  networks.replaceChildren(...config.networks.map((n) => el('option', { value: n.code }, `${n.code} · ${n.name}${n.memoName ? ` (memo: ${n.memoName})` : ''}`)));
}

/** A token given as #token=… is kept for the tab and removed from the address bar. */
function takeTokenFromFragment() {
  const token = new URLSearchParams(location.hash.slice(1)).get('token');
  if (token === null) return;
  useToken(token);
  history.replaceState(null, '', location.pathname + location.search);
}

async function start() {
  takeTokenFromFragment();
  const config = await (await fetch('config.json')).json();
  connect(config, showTokenForm);
  specs = tableSpecs({ act, call, say, config });
  const sections = specs.map((spec) => buildSection(spec, { statuses: config.kinds[spec.field]?.statuses ?? [], onChange: refresh }));
  document.getElementById('records').replaceChildren(...sections);
  wire(config);
  await poll();
}

start().catch((error) => say(`The inspector could not start: ${error.message}`, true));
