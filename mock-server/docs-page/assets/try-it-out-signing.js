// Signs the deposit v1 reference's "Try it out" requests: before Swagger UI sends one, the page
// asks the mock's control API (signDepositRequest, at the panel's data-sign-url) for the hmac
// headers of exactly that method, path, query and body, as the default site or as the site typed
// into the panel, and adds them. The credentials and the admin token stay in sessionStorage (this
// tab); the admin token is shared with the inspector page (/__mock/ui) of the same mock.
(() => {
  const panel = document.querySelector('[data-sign-url]');
  if (panel === null) return;
  const signUrl = panel.dataset.signUrl;
  const adminHeader = panel.dataset.adminTokenHeader;
  const keys = { credentials: 'exchange-api-kit.docs.signing', adminToken: 'exchange-api-kit.inspector.admin-token' };
  const form = document.getElementById('signing-form');
  const status = document.getElementById('signing-status');

  const stored = () => JSON.parse(sessionStorage.getItem(keys.credentials) ?? '{}');
  const say = (text) => {
    status.textContent = text;
  };
  const signer = (credentials) => (credentials.apiKey ? `site ${credentials.apiKey}` : 'the default site');

  form.elements.apiKey.value = stored().apiKey ?? '';
  form.elements.adminToken.value = sessionStorage.getItem(keys.adminToken) ?? '';
  say(`Requests are signed as ${signer(stored())}.`);

  const save = (credentials) => {
    sessionStorage.setItem(keys.credentials, JSON.stringify(credentials));
    const token = form.elements.adminToken.value;
    if (token === '') sessionStorage.removeItem(keys.adminToken);
    else sessionStorage.setItem(keys.adminToken, token);
    say(`Requests are signed as ${signer(credentials)}.`);
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const apiKey = form.elements.apiKey.value.trim();
    const apiSecret = form.elements.apiSecret.value;
    save({ ...(apiKey ? { apiKey } : {}), ...(apiSecret ? { apiSecret } : {}) });
  });
  document.getElementById('signing-default').addEventListener('click', () => {
    form.elements.apiKey.value = '';
    form.elements.apiSecret.value = '';
    save({});
  });

  /** Swagger UI's requestInterceptor: may return a promise of the request. */
  window.signTryItOut = async (request) => {
    if (request.loadSpec) return request;
    const credentials = stored();
    const url = new URL(request.url, location.href);
    const body = { method: String(request.method).toUpperCase(), path: url.pathname + url.search };
    if (typeof request.body === 'string' && request.body !== '') body.body = request.body;
    if (credentials.apiKey) body.api_key = credentials.apiKey;
    if (credentials.apiSecret) body.api_secret = credentials.apiSecret;
    const headers = { 'Content-Type': 'application/json', Accept: 'application/json' };
    const token = sessionStorage.getItem(keys.adminToken);
    if (token) headers[adminHeader] = token;
    try {
      const response = await fetch(signUrl, { method: 'POST', headers, body: JSON.stringify(body) });
      const envelope = await response.json().catch(() => null);
      if (!response.ok || envelope?.state !== 0) {
        const details = Object.values(envelope?.error?.details ?? {}).flat().join('; ');
        const hint = response.status === 401 ? ' Enter the mock’s admin token above.' : '';
        say(`Not signed: ${envelope?.message ?? `HTTP ${response.status}`}${details ? ` (${details})` : ''}.${hint}`);
        return request;
      }
      Object.assign(request.headers, envelope.result.headers);
      say(`${body.method} ${body.path} signed as ${signer(credentials)}.`);
    } catch (error) {
      say(`Not signed: ${error.message}`);
    }
    return request;
  };
})();
