// Small DOM helpers of the inspector page. Text only: record contents, such as a receiver's
// answer, are never parsed as HTML.

export function el(tag, attributes = {}, ...children) {
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

export const dash = '–';
export const text = (value) => (value === null || value === undefined || value === '' ? dash : String(value));
export const time = (iso) => (iso ? iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z') : dash);

/** A colour for a status, by what the word says; the word itself is always shown. */
function tone(status) {
  if (status === 'not_sent') return 'muted';
  if (/^(delivered|paid|completed|approved|active|committed|consumed)$/.test(status)) return 'ok';
  if (/(fail|error|expired|rejected|cancel|disabled)/.test(status)) return 'bad';
  if (/(retry|under|over|partial|hold|pending|waiting|queued|confirming|awaiting|review)/.test(status)) return 'warn';
  return 'info';
}

export const badge = (status, label = status) => el('span', { className: 'status', 'data-tone': tone(String(status)) }, text(label));

/** The open disclosures by key, so a re-rendered row opens them again. */
const open = new Set();

/** A disclosure whose open state survives re-rendering. */
export function disclosure(key, summary, ...content) {
  const details = el('details', { open: open.has(key), 'data-key': key }, el('summary', {}, summary), ...content);
  details.addEventListener('toggle', () => (details.open ? open.add(key) : open.delete(key)));
  return details;
}

export const json = (value) => el('pre', {}, JSON.stringify(value, null, 2));

export function headerList(headers) {
  const entries = Object.entries(headers ?? {});
  if (entries.length === 0) return el('p', { className: 'muted' }, 'No headers.');
  return el('dl', {}, entries.flatMap(([name, value]) => [el('dt', {}, name), el('dd', { className: 'mono' }, value)]));
}

/** A body as sent: pretty-printed when it is JSON, else as it is. */
export function bodyBlock(body) {
  try {
    return json(JSON.parse(body));
  } catch {
    return el('pre', {}, body === '' ? '(empty)' : body);
  }
}
