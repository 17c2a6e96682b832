// The five requests the throughput benchmark measures, built against a running mock so each is
// a real, successful call: the v3 authenticated ping (the platform alone), the v3 route list,
// the v3 quote POST, the v1 signed deposit list and the v1 signed deposit create (a new order id,
// hence a new deposit and a new signature, on every request). Paths come from the generated route
// tables; the baselines answer the same JSON the mock answered (`canned`).
import { depositV1SignatureScheme } from '../../generated/deposit-v1/client.js';
import { depositV1Routes, depositV1RoutesBasePath } from '../../generated/deposit-v1/routes.js';
import { exchangeV3Routes, exchangeV3RoutesBasePath } from '../../generated/exchange-v3/routes.js';
import { createHmacSigner } from '../../generated/runtime/client-runtime.js';
import type { RouteDefinition } from '../../generated/runtime/router-runtime.js';

export interface Case {
  name: string;
  method: 'GET' | 'POST';
  /** Path below the server's origin, with the query. */
  target: string;
  headers: Record<string, string>;
  body?: string;
  /** Headers (and a body) made anew for every request: a v1 signature, a new order id. */
  each?: () => { headers: Record<string, string>; body?: string };
}

export interface MockCredentials {
  url: string;
  token: string;
  siteKey: string;
  siteSecret: string;
}

function pathOf(routes: readonly RouteDefinition[], base: string, operationId: string): string {
  const route = routes.find((r) => r.operationId === operationId);
  if (route === undefined) throw new Error(`no operation ${operationId} in the contracts`);
  return `${base}${route.path}`;
}
const v3Path = (operationId: string) => pathOf(exchangeV3Routes, exchangeV3RoutesBasePath, operationId);
const v1Path = (operationId: string) => pathOf(depositV1Routes, depositV1RoutesBasePath, operationId);

/** Signs each request anew with the site's credentials (the timestamp moves with real time). */
function v1Signing(mock: MockCredentials, method: string, target: string, body: () => string | undefined) {
  const signer = createHmacSigner(depositV1SignatureScheme, { key: mock.siteKey, secret: mock.siteSecret });
  const url = new URL(target, mock.url);
  return () => {
    const text = body();
    const headers = new Headers();
    void signer({ method, url, headers, body: text });
    return { headers: Object.fromEntries(headers), ...(text === undefined ? {} : { body: text }) };
  };
}

async function answer(mock: MockCredentials, c: Case): Promise<{ status: number; body: unknown }> {
  const made = c.each?.() ?? { headers: {} };
  const response = await fetch(new URL(c.target, mock.url), { method: c.method, headers: { ...c.headers, ...made.headers }, body: made.body ?? c.body ?? null });
  const body: unknown = await response.json();
  if (response.status >= 300) throw new Error(`${c.name} answered ${response.status}: ${JSON.stringify(body).slice(0, 300)}`);
  return { status: response.status, body };
}

export async function throughputCases(mock: MockCredentials): Promise<{ cases: Case[]; canned: Record<string, { status: number; body: unknown }> }> {
  const auth = { authorization: `Bearer ${mock.token}` };
  const json = { ...auth, 'content-type': 'application/json' };

  const listTarget = `${v3Path('listRoutes')}?page=1&per_page=20`;
  const listed = (await (await fetch(new URL(listTarget, mock.url), { headers: auth })).json()) as { result?: { routes?: { id: number; is_enabled: boolean; limits: { min_give: string } }[] } };
  const route = listed.result?.routes?.find((r) => r.is_enabled);
  if (route === undefined) throw new Error('listRoutes lists no enabled route to quote');
  const assetsSigned = v1Signing(mock, 'GET', v1Path('listAssets'), () => undefined)();
  const assets = (await (await fetch(new URL(v1Path('listAssets'), mock.url), { headers: assetsSigned.headers })).json()) as { data?: { code: string }[] };
  const asset = assets.data?.[0]?.code;
  if (asset === undefined) throw new Error('listAssets lists no asset to deposit');

  // The deposit list's page size: the warm-up's creates fill that page before any measured run.
  const depositPage = 20;
  const depositListTarget = `${v1Path('listDeposits')}?per_page=${depositPage}`;
  let orders = 0;
  const depositBody = () => JSON.stringify({ order_id: `bench-${process.pid}-${(orders += 1)}`, asset });
  const v1Json = { 'content-type': 'application/json' };
  const cases: Case[] = [
    { name: 'v3 authenticated ping', method: 'GET', target: v3Path('privatePing'), headers: auth },
    { name: 'v3 list GET routes', method: 'GET', target: listTarget, headers: auth },
    { name: 'v3 quote POST', method: 'POST', target: v3Path('createQuote'), headers: json, body: JSON.stringify({ route_id: route.id, amount: route.limits.min_give }) },
    { name: 'v1 signed deposit list', method: 'GET', target: depositListTarget, headers: {}, each: v1Signing(mock, 'GET', depositListTarget, () => undefined) },
    { name: 'v1 signed deposit create', method: 'POST', target: v1Path('createDeposit'), headers: v1Json, each: v1Signing(mock, 'POST', v1Path('createDeposit'), depositBody) },
  ];
  // A page of creates first, so the baselines' list answers the full page the mock's does in the
  // measured runs (captured after one create, it was 535 bytes against about 8,850).
  const canned: Record<string, { status: number; body: unknown }> = {};
  const cannedCalls = [cases[0]!, cases[1]!, cases[2]!, ...Array<Case>(depositPage).fill(cases[4]!), cases[3]!];
  for (const c of cannedCalls) canned[`${c.method} ${c.target.split('?')[0]}`] = await answer(mock, c);
  return { cases, canned };
}
