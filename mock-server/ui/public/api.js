// The inspector page's access to the control API: operation paths and the admin-token header
// come from config.json (read from the contracts by the server). When the mock has an admin
// token, the control API answers 401 and the page asks for it; it is kept in sessionStorage
// (this tab only) and sent in the contract's header.

const tokenKey = 'exchange-api-kit.inspector.admin-token';

const state = { config: null, token: sessionStorage.getItem(tokenKey), onUnauthorized: () => {} };

export function connect(config, onUnauthorized) {
  state.config = config;
  state.onUnauthorized = onUnauthorized;
}

export function useToken(token) {
  state.token = token;
  sessionStorage.setItem(tokenKey, token);
}

export class ApiFailure extends Error {
  constructor(status, envelope) {
    const details = envelope?.error?.details;
    const lines = details ? Object.entries(details).map(([field, messages]) => `${field}: ${[].concat(messages).join('; ')}`) : [];
    super([envelope?.message ?? `HTTP ${status}`, ...lines].join(' — '));
    this.status = status;
  }
}

/** Calls a control operation; resolves with the envelope's `result`. */
export async function call(operationId, { path = {}, query = {}, body } = {}) {
  const operation = state.config.operations[operationId];
  let url = operation.path.replace(/\{(\w+)\}/g, (_, name) => encodeURIComponent(String(path[name])));
  const defined = Object.entries(query).filter(([, value]) => value !== undefined && value !== null && value !== '');
  const search = new URLSearchParams(defined).toString();
  if (search) url += `?${search}`;
  const headers = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (state.token) headers[state.config.adminTokenHeader] = state.token;
  const response = await fetch(url, { method: operation.method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const envelope = await response.json().catch(() => null);
  if (response.status === 401) state.onUnauthorized();
  if (!response.ok || envelope === null || envelope.state !== 0) throw new ApiFailure(response.status, envelope);
  return envelope.result;
}
