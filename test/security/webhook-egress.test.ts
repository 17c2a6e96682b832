// The webhook egress policy, one class of target at a time, as a tenant meets it: refused at
// registration (422 validation_error on the URL field) when the URL shows the problem, and
// refused on the address a delivery would connect to (error egress_denied, nothing sent) when
// only resolving the name shows it. Names resolve through a table the test gives the mock
// (webhookResolver), so no DNS query leaves the machine; every receiver listens on loopback.
// Three sandboxes: `local` (the default mode), `public` (a shared sandbox) and `public` with
// --webhook-allow 127.0.0.1/32.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, type ExchangeV3Client } from '../../generated/exchange-v3/client.js';
import { failure } from '../mock-server/support/failure.js';
import { startTestServer, type TestServer } from '../mock-server/support/server.js';
import { useRecordingServer } from '../support/recording-server.js';
import { deliverTestEvent, freshClient, tableResolver } from './support/webhooks.js';

const receiver = useRecordingServer(() => ({ status: 204 }));
// Where a redirecting receiver points: it must never be contacted.
const redirectTarget = useRecordingServer(() => ({ status: 204 }));

const resolver = tableResolver({
  'receiver.test': '127.0.0.1',
  'private.test': '10.0.0.7',
  'metadata.test': '169.254.169.254',
  // First answer loopback (allowed in local mode), then the metadata address: a rebinding name.
  'rebind.test': ['127.0.0.1', '169.254.169.254'],
});

let local: TestServer;
let shared: TestServer;
let sharedWithAllow: TestServer;
// A shared sandbox on an IPv6-only network, which reaches IPv4 through NAT64 (and 6to4) translators.
let sharedThroughNat64: TestServer;

beforeAll(async () => {
  local = await startTestServer({ seed: 61, webhookEgress: 'local', webhookResolver: resolver });
  shared = await startTestServer({ seed: 62, webhookEgress: 'public', webhookResolver: resolver });
  sharedWithAllow = await startTestServer({ seed: 63, webhookEgress: 'public', webhookAllow: ['127.0.0.1/32'], webhookResolver: resolver });
  sharedThroughNat64 = await startTestServer({ seed: 64, webhookEgress: 'public', webhookAllow: ['64:ff9b::/96', '2002::/16'], webhookResolver: resolver });
  for (const server of [local, shared, sharedWithAllow, sharedThroughNat64]) server.sandbox.stopDispatching();
});

afterAll(async () => {
  await Promise.all([local, shared, sharedWithAllow, sharedThroughNat64].map((server) => server?.close()));
});

const portOf = (server: TestServer) => new URL(server.url).port;
const receiverPort = () => new URL(receiver.baseUrl).port;

/** The 422 details of registering `url` as a v3 endpoint, or undefined when it is accepted. */
async function registrationRefusal(server: TestServer, url: string): Promise<string[] | undefined> {
  const client = await freshClient(server);
  const outcome = await client.createWebhookEndpoint({ body: { name: 'probe', url, events: ['api.test'] } }).then(
    () => undefined,
    (error: unknown) => error,
  );
  if (outcome === undefined) return undefined;
  expect(outcome).toBeInstanceOf(ApiError);
  expect([(outcome as ApiError).status, (outcome as ApiError).code], url).toEqual([422, 'validation_error']);
  return (outcome as ApiError).details.url;
}

/** The same URL through every path that sets a webhook URL: v3 create, v3 update, a v1 site's callback_url. */
async function refusedEverywhere(server: TestServer, url: string): Promise<void> {
  const client: ExchangeV3Client = await freshClient(server);
  const create = await failure(client.createWebhookEndpoint({ body: { name: 'probe', url, events: ['api.test'] } }));
  expect([create.status, create.code, Object.keys(create.details)], url).toEqual([422, 'validation_error', ['url']]);

  // A name any mode registers (nothing is sent to it: no event is emitted).
  const fineUrl = 'https://hooks.example.test/fine';
  const endpoint = (await client.createWebhookEndpoint({ body: { name: 'fine', url: fineUrl, events: ['api.test'] } })).body.result.endpoint;
  const update = await failure(client.updateWebhookEndpoint({ path: { webhook: endpoint.id }, body: { url } }));
  expect([update.status, update.code, Object.keys(update.details)], url).toEqual([422, 'validation_error', ['url']]);
  expect((await client.getWebhookEndpoint({ path: { webhook: endpoint.id } })).body.result?.endpoint.url).toBe(fineUrl);

  const site = await failure(server.control.createSite({ body: { callback_url: url } }));
  expect([site.status, site.code, Object.keys(site.details)], url).toEqual([422, 'validation_error', ['callback_url']]);
}

describe('metadata addresses', () => {
  it.each(['http://169.254.169.254/latest/meta-data/', 'http://[::169.254.169.254]/latest/meta-data/', 'http://100.100.100.200/latest/meta-data/', 'http://[fd00:ec2::254]/latest/meta-data/'])(
    'never registers %s, in any mode',
    async (url) => {
      for (const server of [local, shared, sharedWithAllow]) {
        const details = await registrationRefusal(server, url);
        expect(details?.join(' '), url).toMatch(/never a webhook target/);
      }
      await refusedEverywhere(local, url);
    },
  );

  it('never sends to a name that resolves to one', async () => {
    const delivery = await deliverTestEvent(local, 'http://metadata.test/latest/meta-data/');
    expect(delivery.response).toBeNull();
    expect(delivery.error?.code).toBe('egress_denied');
    expect(delivery.error?.message).toMatch(/169\.254\.169\.254 is a link-local address/);
  });
});

describe('link-local addresses', () => {
  it.each(['http://169.254.10.20:8080/hook', 'http://[fe80::1]/hook'])('never registers %s, in any mode', async (url) => {
    for (const server of [local, shared]) expect((await registrationRefusal(server, url))?.join(' ')).toMatch(/link-local/);
    await refusedEverywhere(local, url);
  });
});

describe('private addresses', () => {
  // [::10.0.0.1]: the deprecated IPv4-compatible form carries 10.0.0.1, and is judged as that.
  it.each(['http://10.1.2.3/hook', 'http://172.16.0.1/hook', 'http://192.168.1.10:8443/hook', 'http://[fd12:3456::1]/hook', 'http://100.64.0.1/hook', 'http://[::10.0.0.1]/hook'])(
    'a shared sandbox (public) refuses %s; the default (local) accepts it',
    async (url) => {
      expect((await registrationRefusal(shared, url))?.join(' ')).toMatch(/webhook egress "public" does not reach/);
      await refusedEverywhere(shared, url);
      expect(await registrationRefusal(local, url)).toBeUndefined();
    },
  );
});

describe('loopback addresses', () => {
  it('a shared sandbox refuses them at registration, localhost included', async () => {
    const loopbacks = ['127.0.0.1', 'localhost', 'localhost.', 'LOCALHOST.', '[::1]', '[::127.0.0.1]', '[::ffff:127.0.0.1]'];
    for (const url of loopbacks.map((host) => `http://${host}:${receiverPort()}/hook`)) {
      expect((await registrationRefusal(shared, url))?.join(' '), url).toMatch(/loopback/);
    }
  });

  it('a shared sandbox refuses a name that resolves to one, and the receiver hears nothing', async () => {
    const delivery = await deliverTestEvent(shared, `http://receiver.test:${receiverPort()}/from-shared`);
    expect(delivery.error).toMatchObject({ code: 'egress_denied' });
    expect(delivery.error?.message).toMatch(/127\.0\.0\.1 is a loopback address/);
    expect(receiver.seen.map((seen) => seen.url)).not.toContain('/from-shared');
  });

  it('the default (local) mode delivers to them, and --webhook-allow opens them to a shared sandbox', async () => {
    for (const server of [local, sharedWithAllow]) {
      const path = `/allowed-${portOf(server)}`;
      const delivery = await deliverTestEvent(server, `http://receiver.test:${receiverPort()}${path}`);
      expect(delivery.status).toBe('delivered');
      expect(receiver.seen.filter((seen) => seen.url === path)).toHaveLength(1);
    }
  });
});

describe("the mock's own listener", () => {
  it('is never a target: not by address, not by localhost, not by the unspecified address', async () => {
    for (const host of ['127.0.0.1', 'localhost', '0.0.0.0', '[::1]']) {
      const url = `http://${host}:${portOf(local)}/__mock/clock/freeze`;
      expect((await registrationRefusal(local, url))?.join(' '), url).toMatch(/own listener|unspecified/);
    }
  });

  it('is not reached through a name either: the control API stays untouched', async () => {
    await local.control.resumeClock();
    const delivery = await deliverTestEvent(local, `http://receiver.test:${portOf(local)}/__mock/clock/freeze`);
    expect(delivery.error).toMatchObject({ code: 'egress_denied' });
    expect(delivery.error?.message).toMatch(/own listener/);
    expect((await local.control.getClock()).body.result.frozen).toBe(false);
  });

  it('hands a delivery to its own inbox over in-process, without a connection', async () => {
    await local.control.clearInbox();
    const delivery = await deliverTestEvent(local, `http://receiver.test:${portOf(local)}/__mock/webhooks/inbox`);
    expect(delivery.status).toBe('delivered');
    const records = (await local.control.listInboxWebhooks()).body.result.deliveries;
    expect(records.map((record) => [record.delivery_id, record.signature_valid])).toEqual([[delivery.id, true]]);
    expect(records[0]!.headers.host).toBe(`receiver.test:${portOf(local)}`);
  });
});

describe('translated addresses (NAT64, 6to4) once --webhook-allow opens them', () => {
  it('reach only an IPv4 address the policy allows: never metadata, a private address or the mock itself', async () => {
    const refused: [string, RegExp][] = [
      ['http://[64:ff9b::a9fe:a9fe]/latest/meta-data/', /translated to IPv4: 169\.254\.169\.254 is a link-local address/],
      ['http://[2002:a9fe:a9fe::1]/latest/meta-data/', /translated to IPv4: 169\.254\.169\.254 is a link-local address/],
      ['http://[64:ff9b::6464:64c8]/latest/meta-data/', /100\.100\.100\.200 is a cloud metadata address/],
      ['http://[64:ff9b::a00:7]/hook', /10\.0\.0\.7 is a private address/],
      [`http://[64:ff9b::7f00:1]:${portOf(sharedThroughNat64)}/__mock/clock/freeze`, /own listener/],
    ];
    for (const [url, reason] of refused) {
      expect((await registrationRefusal(sharedThroughNat64, url))?.join(' '), url).toMatch(reason);
      await refusedEverywhere(sharedThroughNat64, url);
    }
    // A public IPv4 address through either translator is what the allow-list is for.
    for (const url of ['http://[64:ff9b::808:808]/hook', 'http://[2002:808:808::1]/hook']) expect(await registrationRefusal(sharedThroughNat64, url), url).toBeUndefined();
  });
});

describe('schemes other than http and https', () => {
  it.each(['file:///etc/passwd', 'gopher://127.0.0.1:70/_stats', 'javascript:alert(1)', 'ftp://files.example.test/hook', 'data:text/plain,hi'])(
    'refuses %s wherever a webhook URL is set',
    async (url) => {
      await refusedEverywhere(local, url);
    },
  );
});

describe('credentials in the URL', () => {
  it.each(['http://user:secret@receiver.test/hook', 'http://user@127.0.0.1:8080/hook', 'https://:token@hooks.example.test/'])(
    'refuses %s wherever a webhook URL is set',
    async (url) => {
      await refusedEverywhere(local, url);
    },
  );
});

describe('a host name that resolves to a private address', () => {
  it('registers (names are not resolved then) but every attempt is refused on the resolved address', async () => {
    const delivery = await deliverTestEvent(shared, 'http://private.test/hook');
    expect(delivery).toMatchObject({ status: 'retrying', response: null, error: { code: 'egress_denied' } });
    expect(delivery.error?.message).toMatch(/10\.0\.0\.7 is a private address/);
  });

  it('is resolved once per attempt, and the connection goes to the address that was checked (DNS rebinding)', async () => {
    const path = '/rebind';
    const delivery = await deliverTestEvent(local, `http://rebind.test:${receiverPort()}${path}`);
    // A second look-up would have answered 169.254.169.254; the attempt never asked again.
    expect(resolver.calls.get('rebind.test')).toBe(1);
    expect(delivery.status).toBe('delivered');
    expect(receiver.seen.filter((seen) => seen.url === path)).toHaveLength(1);
  });
});

describe('a redirect to a private address', () => {
  it('is not followed: the 3xx is the attempt’s answer and the Location is never contacted', async () => {
    for (const location of ['http://10.0.0.9/internal', `${redirectTarget.baseUrl}/internal`]) {
      receiver.handler = () => ({ status: 302, headers: { location }, body: 'moved' });
      const delivery = await deliverTestEvent(local, `${receiver.baseUrl}/redirecting`);
      expect(delivery.response?.status, location).toBe(302);
      expect(delivery.status).not.toBe('delivered');
    }
    receiver.handler = () => ({ status: 204 });
    expect(redirectTarget.seen).toEqual([]);
  });
});
