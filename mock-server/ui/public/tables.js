// The inspector's tables: a section per kind of record with a search box, a status filter (the
// kind's statuses, from config.json), a pager and, for webhook deliveries, a choice about the
// deliveries never sent (a v1 site without a callback URL). Each table keeps its own query; rows
// are built again only when their record changed, so an open disclosure or a chosen option
// survives the refresh.
import { disclosure, el, json, text } from './dom.js';

const searchDelayMs = 250;

/** The query a table asks listInspectorRecords for. */
export function tableQuery(spec) {
  const { q, status, page, notSent } = spec.view.query;
  return { q, status, page, ...(spec.unsentChoice ? { not_sent: notSent } : {}) };
}

/** The section of one table: heading, toolbar (records tables only), table and pager. */
export function buildSection(spec, { statuses = [], onChange }) {
  const headingId = `${spec.field}-heading`;
  const headers = [...spec.columns.map(([header]) => header), ...(spec.exchange ? [] : ['Record'])];
  const table = el('table', { id: `${spec.field}-table`, 'aria-labelledby': headingId },
    el('thead', {}, el('tr', {}, headers.map((header) => el('th', { scope: 'col' }, header)))),
    el('tbody'),
  );
  const count = el('span', { className: 'count' });
  spec.view = { table, count, rows: new Map(), query: { q: '', status: '', page: 1, notSent: 'exclude' } };
  const parts = [el('h2', { id: headingId }, spec.title, ' ', count)];
  if (spec.records) parts.push(toolbar(spec, statuses, onChange));
  parts.push(table);
  if (spec.records) parts.push(pager(spec, onChange));
  return el('section', { 'aria-labelledby': headingId, className: 'records' }, parts);
}

function toolbar(spec, statuses, onChange) {
  const { query } = spec.view;
  const changed = () => {
    query.page = 1;
    onChange();
  };
  let typing = null;
  const search = el('input', {
    type: 'search',
    placeholder: 'Search any value…',
    'aria-label': `Search ${spec.title}`,
    oninput: (event) => {
      clearTimeout(typing);
      typing = setTimeout(() => {
        query.q = event.target.value.trim();
        changed();
      }, searchDelayMs);
    },
  });
  const status = el('select', {
    'aria-label': `Status of ${spec.title}`,
    onchange: (event) => {
      query.status = event.target.value;
      changed();
    },
  }, el('option', { value: '' }, 'Any status'), statuses.map((s) => el('option', { value: s }, s)));
  const parts = [search, status];
  if (spec.unsentChoice) {
    spec.view.unsent = el('select', {
      'aria-label': `${spec.title} never sent`,
      onchange: (event) => {
        query.notSent = event.target.value;
        changed();
      },
    },
    el('option', { value: 'exclude' }, 'Hide those never sent (no callback URL)'),
    el('option', { value: 'include' }, 'Show those never sent too'),
    el('option', { value: 'only' }, 'Only those never sent'));
    spec.view.hiddenNote = el('span', { className: 'muted' });
    parts.push(spec.view.unsent, spec.view.hiddenNote);
  }
  return el('div', { className: 'inline toolbar' }, parts);
}

function pager(spec, onChange) {
  const { query } = spec.view;
  const go = (step) => () => {
    query.page = Math.max(1, query.page + step);
    onChange();
  };
  spec.view.previous = el('button', { type: 'button', 'aria-label': `Previous page of ${spec.title}`, onclick: go(-1) }, '‹ Previous');
  spec.view.next = el('button', { type: 'button', 'aria-label': `Next page of ${spec.title}`, onclick: go(1) }, 'Next ›');
  spec.view.range = el('span', { className: 'muted', 'aria-live': 'polite' });
  return el('div', { className: 'inline pager' }, spec.view.previous, spec.view.range, spec.view.next);
}

/** Shows one page of listInspectorRecords; asks for the last page again when the query went past it. */
export function renderPage(spec, result, onChange) {
  const { view } = spec;
  const lastPage = Math.max(1, Math.ceil(result.total / result.per_page));
  if (result.items.length === 0 && view.query.page > lastPage) {
    view.query.page = lastPage;
    onChange();
    return;
  }
  renderRows(spec, result.items, result.total);
  const first = (result.page - 1) * result.per_page + 1;
  view.range.textContent = result.total === 0 ? 'No rows' : `Rows ${first}–${first + result.items.length - 1} of ${result.total} · page ${result.page} of ${lastPage}`;
  view.previous.disabled = result.page <= 1;
  view.next.disabled = result.page >= lastPage;
  if (view.hiddenNote) {
    const hidden = result.not_sent_hidden;
    view.hiddenNote.textContent = hidden > 0 ? `${hidden} never sent (site without a callback URL) not shown.` : '';
  }
}

/** A row per record, built again only when its record changed since the last render. */
export function renderRows(spec, records, total) {
  const { view } = spec;
  const next = new Map();
  const rows = records.map((record) => {
    const key = String(spec.key(record));
    const serialised = JSON.stringify(record);
    const kept = view.rows.get(key);
    const row = kept !== undefined && kept.json === serialised ? kept.row : buildRow(spec, record, key);
    next.set(key, { json: serialised, row });
    return row;
  });
  view.rows = next;
  if (rows.length === 0) {
    rows.push(el('tr', {}, el('td', { className: 'empty', colspan: view.table.tHead.rows[0].cells.length }, spec.empty ?? 'None yet.')));
  }
  view.table.tBodies[0].replaceChildren(...rows);
  view.count.textContent = `(${total})`;
}

function buildRow(spec, record, key) {
  const cells = spec.columns.map(([, cell, className]) => {
    const content = cell(record, key);
    return el('td', { className }, content instanceof Node ? content : text(content));
  });
  // Deliveries show their record with the exchange; every other kind in a cell of its own.
  if (!spec.exchange) cells.push(el('td', {}, disclosure(`${spec.field}:${key}:record`, 'JSON', json(record))));
  return el('tr', { 'data-key': key }, cells);
}
