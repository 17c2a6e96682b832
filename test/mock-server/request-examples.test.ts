// Every request example of the three contracts, sent to the mock as written, must succeed: the
// parameter examples of an operation together, each query parameter example on its own (a
// `cursor` without `page`, say), and each body example. Only what a server creates is bound to
// a live resource of the caller (ids in paths, a quote_id and its snapshot_hash, an upload
// intent, an order reference, a verification, a webhook endpoint); every other value goes as the
// example says. Each request comes from a fresh caller (a minted key, a new site), so the
// Idempotency-Key the examples share never meets another request.
import Ajv2020Module from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHmacSigner, DepositV1Client, depositV1Operations, depositV1SignatureScheme } from '../../generated/deposit-v1/client.js';
import { exchangeV3Operations, ExchangeV3Client } from '../../generated/exchange-v3/client.js';
import type { ExchangeRoute, Order } from '../../generated/exchange-v3/types.js';
import { orderMachine } from '../../generated/machines.js';
import type { OperationSpec } from '../../generated/runtime/client-runtime.js';
import { depositV1RoutesBasePath } from '../../generated/deposit-v1/routes.js';
import { exchangeV3RoutesBasePath } from '../../generated/exchange-v3/routes.js';
import { sandboxControlOperations } from '../../generated/sandbox-control/client.js';
import { sandboxControlRoutesBasePath } from '../../generated/sandbox-control/routes.js';
import type { OrderMachineEvent } from '../../generated/sandbox-control/types.js';
import type { Json } from '../support/contracts.js';
import { requestExamples, type ContractFile, type RequestExamples } from '../support/request-examples.js';
import { inboxUrlOf, startTestServer, type TestServer } from './support/server.js';
import { fileBytes, filePart, uploaded } from './uploads-helpers.js';

// ajv is CommonJS with a default export; under NodeNext it sits on `.default`.
const Ajv2020 = Ajv2020Module.default;

let server: TestServer;

beforeAll(async () => {
  // One attempt per delivery, so a delivery to a closed port is `failed` at once (the retry examples need one).
  server = await startTestServer({ seed: 61, webhookRetrySchedule: [0] });
});

afterAll(() => server.close());

interface Caller {
  v3: ExchangeV3Client;
  v1: DepositV1Client;
}

const noRetry = { retry: false } as const;

async function freshCaller(): Promise<Caller> {
  const key = (await server.control.mintToken({ body: {} })).body.result;
  const site = (await server.control.createSite({ body: { callback_url: inboxUrlOf(server) } })).body.result;
  const signer = createHmacSigner(depositV1SignatureScheme, { key: site.site.api_key, secret: site.api_secret }, { now: () => server.sandbox.clock.nowMs() });
  return { v3: new ExchangeV3Client({ baseUrl: server.url, token: key.token, ...noRetry }), v1: new DepositV1Client({ baseUrl: server.url, signer, ...noRetry }) };
}

type Body = Record<string, unknown>;
/** Live values for what the example names but the server creates: path values and body fields. */
type Binding = (caller: Caller, example: { body: Body }) => Promise<{ path?: Record<string, string>; body?: Body }>;

// --- live resources of a caller -----------------------------------------------------------

const exampleOrder = requestExamples('exchange-v3').find((e) => e.operationId === 'createOrder')!.bodies.example!.value as { email: string; requisites: Record<string, string> };

let orderRoute: number | undefined;
/**
 * A route whose published requisites are exactly the ones the order examples show (found once:
 * route ids are the catalog's; limits are read afresh, a reset to another seed changes them).
 */
async function routeForExampleRequisites(v3: ExchangeV3Client): Promise<ExchangeRoute> {
  if (orderRoute !== undefined) return (await v3.getRoute({ path: { route: orderRoute } })).body.result.route;
  const ajv = new Ajv2020({ strict: false });
  const wanted = Object.keys(exampleOrder.requisites).sort();
  for await (const route of v3.runtime.paginate<ExchangeRoute>(exchangeV3Operations.listRoutes, { query: { per_page: 100 } }, 'page')) {
    if (!route.is_enabled) continue;
    const schema = (await v3.getRouteCapabilities({ path: { route: route.id } })).body.result.capabilities.requisites?.schema as { required?: string[] } | undefined;
    if (schema !== undefined && JSON.stringify([...(schema.required ?? [])].sort()) === JSON.stringify(wanted) && ajv.validate(schema, exampleOrder.requisites)) {
      orderRoute = route.id;
      return route;
    }
  }
  throw new Error('no route takes the order examples’ requisites');
}

async function quote(v3: ExchangeV3Client): Promise<{ quoteId: string; snapshotHash: string }> {
  const route = await routeForExampleRequisites(v3);
  const quoted = (await v3.createQuote({ body: { route_id: route.id, amount: route.limits.min_give } })).body.result.quote;
  const { snapshot } = (await v3.getRouteDetails({ path: { route: route.id } })).body.result;
  return { quoteId: quoted.id, snapshotHash: snapshot.hash };
}

async function order(v3: ExchangeV3Client): Promise<Order> {
  const { quoteId } = await quote(v3);
  return (await v3.createOrder({ body: { quote_id: quoteId, email: exampleOrder.email, requisites: exampleOrder.requisites } })).body.result.order;
}

/** An order driven by the sandbox to `status` along the order machine's non-client transitions. */
async function orderIn(v3: ExchangeV3Client, status: string): Promise<Order> {
  const created = await order(v3);
  for (const event of eventsTo(status)) await server.control.forceOrderEvent({ path: { order: created.public_id }, body: { event } });
  return created;
}

function eventsTo(status: string): OrderMachineEvent[] {
  const paths = new Map<string, OrderMachineEvent[]>([[orderMachine.initial, []]]);
  const queue: string[] = [orderMachine.initial];
  for (let state = queue.shift(); state !== undefined; state = queue.shift()) {
    for (const t of orderMachine.transitions.filter((t) => t.from === state && t.actor !== 'client' && !paths.has(t.to))) {
      paths.set(t.to, [...paths.get(state)!, t.event as OrderMachineEvent]);
      queue.push(t.to);
    }
  }
  const path = paths.get(status);
  if (path === undefined) throw new Error(`the order machine does not reach ${status}`);
  return path;
}

const jpeg = { name: 'passport.jpg', bytes: fileBytes('jpeg'), type: 'image/jpeg' };

async function identityKinds(v3: ExchangeV3Client): Promise<string[]> {
  return (await v3.getVerificationRequirements()).body.result.requirements.identity.documents;
}

/** An identity verification of an order: `complete` gives it every document (in review), else only the first (pending). */
async function identityVerification(v3: ExchangeV3Client, complete: boolean): Promise<{ id: string; order: Order }> {
  const target = await order(v3);
  const kinds = await identityKinds(v3);
  const documents = [];
  for (const kind of complete ? kinds : kinds.slice(0, 1)) {
    const upload = await uploaded(v3, { purpose: 'identity_verification', resource_type: 'order', resource_id: String(target.id), field_key: kind }, jpeg);
    documents.push({ upload_intent: upload.uuid, kind: kind as 'passport' });
  }
  const created = (await v3.createIdentityVerification({ body: { documents, order: target.public_id } })).body.result.verification;
  return { id: created.id, order: target };
}

async function cardVerification(v3: ExchangeV3Client): Promise<string> {
  const target = await order(v3);
  const upload = await uploaded(v3, { purpose: 'card_verification', resource_type: 'order', resource_id: String(target.id), field_key: null }, jpeg);
  const example = requestExamples('exchange-v3').find((e) => e.operationId === 'createCardVerification')!.bodies.example!.value as { card_number: string; holder_name: string };
  return (await v3.createCardVerification({ body: { ...example, upload_intent: upload.uuid, order: target.public_id } })).body.result.verification.id;
}

async function endpoint(v3: ExchangeV3Client, url = inboxUrlOf(server)): Promise<string> {
  return (await v3.createWebhookEndpoint({ body: { name: 'examples', url, events: ['api.test'] } })).body.result.endpoint.id;
}

async function testEvent(v3: ExchangeV3Client, url?: string): Promise<{ event: string; delivery: string }> {
  const sent = (await v3.sendTestWebhook({ body: { endpoint_id: await endpoint(v3, url) } })).body.result;
  return { event: sent.event.id, delivery: sent.deliveries[0]!.id };
}

/** A delivery to a closed port, `failed` after its single attempt. */
async function failedDelivery(v3: ExchangeV3Client): Promise<string> {
  const { delivery } = await testEvent(v3, 'http://127.0.0.1:1/closed');
  for (let tries = 0; tries < 200; tries += 1) {
    await server.control.runDueWebhooks();
    if ((await v3.getWebhookDelivery({ path: { delivery } })).body.result.delivery.status === 'failed') return delivery;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the delivery to a closed port did not fail');
}

async function deposit(v1: DepositV1Client): Promise<{ uuid: string; orderId: string }> {
  const asset = (await v1.listAssets()).body.data.find((a) => a.depositEnabled)!;
  const created = (await v1.createDeposit({ body: { order_id: `examples-${Math.random().toString(36).slice(2)}`, asset: asset.code } })).body.data;
  return { uuid: created.uuid, orderId: created.orderId };
}

async function staticAddress(v1: DepositV1Client): Promise<{ uuid: string; orderId: string }> {
  const asset = (await v1.listAssets()).body.data.find((a) => a.depositEnabled)!;
  const created = (await v1.createStaticAddress({ body: { orderId: `examples-${Math.random().toString(36).slice(2)}`, asset: asset.code } })).body.data;
  return { uuid: created.uuid, orderId: created.orderId };
}

// --- what each operation's example names that the server creates ----------------------------

const byOrder: Binding = async ({ v3 }) => ({ path: { order: (await order(v3)).public_id } });
const byEndpoint: Binding = async ({ v3 }) => ({ path: { webhook: await endpoint(v3) } });
const byIdentity: Binding = async ({ v3 }) => ({ path: { verification: (await identityVerification(v3, true)).id } });
const byCard: Binding = async ({ v3 }) => ({ path: { verification: await cardVerification(v3) } });
const byDeposit: Binding = async ({ v1 }) => ({ path: { uuid: (await deposit(v1)).uuid } });
const byDepositOrderId: Binding = async ({ v1 }) => ({ path: { orderId: (await deposit(v1)).orderId } });

const bindings: Record<string, Binding> = {
  createQuote: async ({ v3 }, { body }) => ({ body: { snapshot_hash: (await v3.getRouteDetails({ path: { route: Number(body.route_id) } })).body.result.snapshot.hash } }),
  preflightOrder: async ({ v3 }) => {
    const { quoteId, snapshotHash } = await quote(v3);
    return { body: { quote_id: quoteId, snapshot_hash: snapshotHash } };
  },
  createOrder: async ({ v3 }) => {
    const { quoteId, snapshotHash } = await quote(v3);
    return { body: { quote_id: quoteId, snapshot_hash: snapshotHash } };
  },
  getExchangeOrder: byOrder,
  deleteOrder: byOrder,
  getOrderActions: byOrder,
  getOrderStatus: byOrder,
  confirmOrder: byOrder,
  cancelOrder: byOrder,
  getOrder: byOrder,
  listOrderVerifications: byOrder,
  createUploadIntent: async ({ v3 }) => ({ body: { resource_id: String((await order(v3)).id) } }),
  getUploadIntent: async ({ v3 }) => ({ path: { intent: (await v3.createUploadIntent({ body: { purpose: 'identity_verification' } })).body.result.upload_intent.uuid } }),
  // The example names a file; the bytes are a real JPEG by that name.
  commitUploadIntent: async ({ v3 }) => ({
    path: { intent: (await v3.createUploadIntent({ body: { purpose: 'identity_verification' } })).body.result.upload_intent.uuid },
    body: filePart(jpeg.name, jpeg.bytes, jpeg.type) as unknown as Body,
  }),
  submitOrderVerifications: async ({ v3 }) => {
    // Pending with its first document, then given the others by upload: ready to submit.
    const { id, order: target } = await identityVerification(v3, false);
    for (const kind of (await identityKinds(v3)).slice(1)) await uploaded(v3, { purpose: 'identity_verification', resource_type: 'verification', resource_id: id, field_key: kind }, jpeg);
    return { path: { order: target.public_id }, body: { verifications: [id] } };
  },
  createIdentityVerification: async ({ v3 }) => {
    const target = await order(v3);
    const upload = await uploaded(v3, { purpose: 'identity_verification', resource_type: 'order', resource_id: String(target.id), field_key: 'passport' }, jpeg);
    return { body: { documents: [{ upload_intent: upload.uuid, kind: 'passport' }], order: target.public_id } };
  },
  getIdentityVerification: byIdentity,
  getIdentityVerificationActions: byIdentity,
  createCardVerification: async ({ v3 }) => {
    const target = await order(v3);
    const upload = await uploaded(v3, { purpose: 'card_verification', resource_type: 'order', resource_id: String(target.id), field_key: null }, jpeg);
    return { body: { upload_intent: upload.uuid, order: target.public_id } };
  },
  getCardVerification: byCard,
  getCardVerificationActions: byCard,
  sendTestWebhook: async ({ v3 }) => ({ body: { endpoint_id: await endpoint(v3) } }),
  getWebhookEvent: async ({ v3 }) => ({ path: { event: (await testEvent(v3)).event } }),
  getWebhookDelivery: async ({ v3 }) => ({ path: { delivery: (await testEvent(v3)).delivery } }),
  retryWebhookDelivery: async ({ v3 }) => ({ path: { delivery: await failedDelivery(v3) } }),
  getWebhookEndpoint: byEndpoint,
  updateWebhookEndpoint: byEndpoint,
  deleteWebhookEndpoint: byEndpoint,
  rotateWebhookSecret: byEndpoint,
  createReview: async ({ v3 }) => ({ body: { order: (await orderIn(v3, 'completed')).public_id } }),

  getAmlCheck: async ({ v1 }) => {
    const example = requestExamples('deposit-v1').find((e) => e.operationId === 'createAmlCheck')!.bodies.address!.value as Body;
    return { path: { uuid: (await v1.createAmlCheck({ body: example as never })).body.data.uuid } };
  },
  resendWebhookEvent: async ({ v1 }) => ({ path: { eventId: (await v1.sendSiteTestWebhook()).body.data.eventId } }),
  getDeposit: byDeposit,
  refreshDeposit: byDeposit,
  getDepositAml: byDeposit,
  getDepositByOrderId: byDepositOrderId,
  getDepositAmlByOrderId: byDepositOrderId,
  getStaticAddress: async ({ v1 }) => ({ path: { uuid: (await staticAddress(v1)).uuid } }),
  listStaticAddressPayments: async ({ v1 }) => ({ path: { uuid: (await staticAddress(v1)).uuid } }),
  getStaticAddressByOrderId: async ({ v1 }) => ({ path: { orderId: (await staticAddress(v1)).orderId } }),

  forceWebhookRetry: async ({ v3 }) => ({ path: { delivery: await failedDelivery(v3) } }),
  removeFault: async () => {
    const example = requestExamples('sandbox-control').find((e) => e.operationId === 'injectFault')!;
    const body = Object.values(example.bodies)[0]!.value as never;
    return { path: { fault: String((await server.control.injectFault({ body })).body.result.fault.id) } };
  },
  addChainConfirmations: async () => {
    const injected = await server.control.injectChainTransaction({ body: { network: 'TRON', address: 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8', amount: '1' } });
    return { path: { hash: injected.body.result.hash } };
  },
  forceOrderEvent: byOrder,
  reviewVerification: byIdentity,
  forceStaticAddressEvent: async ({ v1 }) => ({ path: { static_address: (await staticAddress(v1)).uuid } }),
  // The sandbox's own state, loaded back: every record and key stays what it was.
  importSandboxState: async () => ({ body: (await server.control.exportSandboxState()).body.result as unknown as Body }),
  moderateReview: async ({ v3 }) => {
    const completed = await orderIn(v3, 'completed');
    const written = await v3.createReview({ body: { order: completed.public_id, rating: 5, text: 'Paid out within the hour.', author_name: 'Examples' } });
    return { path: { review: String(written.body.result.review.id) } };
  },
};

// --- the requests -----------------------------------------------------------------------------

interface ExampleRequest {
  name: string;
  examples: RequestExamples;
  query: Record<string, Json>;
  headers: Record<string, Json>;
  body: { contentType: string; value: Json } | undefined;
}

/** The examples of an operation as requests: all parameters with each body, then each query parameter alone. */
function exampleRequests(examples: RequestExamples): ExampleRequest[] {
  const bodies = Object.entries(examples.bodies);
  const base = { examples, headers: examples.headers };
  const requests: ExampleRequest[] = bodies.length === 0
    ? [{ ...base, name: 'its parameter examples', query: examples.query, body: undefined }]
    : bodies.map(([name, body]) => ({ ...base, name: `body example ${name}`, query: examples.query, body }));
  if (Object.keys(examples.query).length > 1) {
    for (const [name, value] of Object.entries(examples.query)) requests.push({ ...base, name: `query ${name} alone`, query: { [name]: value }, body: bodies[0]?.[1] });
  }
  return requests;
}

const families: { contract: ContractFile; basePath: string; specs: Record<string, OperationSpec>; client: (caller: Caller) => { runtime: ExchangeV3Client['runtime'] } }[] = [
  { contract: 'exchange-v3', basePath: exchangeV3RoutesBasePath, specs: exchangeV3Operations, client: (caller) => caller.v3 },
  { contract: 'deposit-v1', basePath: depositV1RoutesBasePath, specs: depositV1Operations, client: (caller) => caller.v1 },
  // Last: its examples reset the sandbox, move the clock and change the AML provider.
  { contract: 'sandbox-control', basePath: sandboxControlRoutesBasePath, specs: sandboxControlOperations, client: () => server.control },
];

describe.each(families)('the request examples of $contract', ({ contract, basePath, specs, client }) => {
  const cases = requestExamples(contract).flatMap((examples) => exampleRequests(examples).map((request) => [`${examples.operationId}: ${request.name}`, request] as const));

  it.each(cases)('%s succeeds', async (_name, request) => {
    const { operationId } = request.examples;
    const caller = await freshCaller();
    const exampleBody = isBody(request.body?.value) ? request.body.value : {};
    const bind: Binding = bindings[operationId] ?? (async () => ({}));
    const bound = await bind(caller, { body: exampleBody });
    // An operation without a body example (a whole sandbox state) takes the body its binding makes.
    const body = request.body === undefined ? bound.body : isBody(request.body.value) ? { ...request.body.value, ...bound.body } : request.body.value;
    const path = { ...(request.examples.path as Record<string, string>), ...bound.path };
    if (request.examples.successTypes.includes('text/event-stream')) {
      // A stream never ends: its answer is judged by status and type, then closed.
      const streamed = await openStream(basePath, specs[operationId]!, path, request.query);
      expect([streamed.status, streamed.contentType], operationId).toEqual([200, expect.stringMatching(/^text\/event-stream/)]);
      return;
    }
    const answer = await client(caller)
      .runtime.request(specs[operationId]!, { path, query: request.query, headers: request.headers as Record<string, string>, body })
      .catch((error: unknown) => error as { status?: number; body?: unknown; message: string });
    const status = 'status' in answer ? answer.status : undefined;
    const said = JSON.stringify('body' in answer ? answer.body : (answer as Error).message) ?? '(no body)';
    expect(status !== undefined && status >= 200 && status < 300, `${operationId}: HTTP ${String(status)} ${said.slice(0, 600)}`).toBe(true);
  });
});

async function openStream(basePath: string, spec: OperationSpec, path: Record<string, string>, query: Record<string, Json>): Promise<{ status: number; contentType: string }> {
  const url = new URL(`${server.url}${basePath}${spec.path.replace(/\{(\w+)\}/g, (_whole, name: string) => encodeURIComponent(path[name]!))}`);
  // Arrays as comma lists (style form, explode false), as the contracts declare their list parameters.
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, Array.isArray(value) ? value.join(',') : String(value));
  const abort = new AbortController();
  const response = await fetch(url, { signal: abort.signal });
  abort.abort();
  return { status: response.status, contentType: response.headers.get('content-type') ?? '' };
}

function isBody(value: unknown): value is Body {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
