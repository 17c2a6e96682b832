// Whose the webhooks part's records are: the engine's client ids are a v3 client's id or a site's
// (`site:<id>`, site-endpoint.ts), and a record whose client the document lacks would become the
// client's that is minted or created with that id later. A site's callback is one endpoint the
// engine finds by an id drawn from the site (siteEndpoint), so that id is the site's alone.
// Checked once the document's keys and sites are restored, before anything is replaced.
import { siteClientId, siteEndpointId } from '../domain/webhooks/site-endpoint.js';
import { StateRejected } from '../domain/state-rejected.js';
import type { SandboxGeneration } from '../sandbox.js';
import type { EndpointRecord, EventRecord } from '../store/records/webhook-records.js';

export function checkWebhooksOwners(records: { endpoints: readonly EndpointRecord[]; events: readonly EventRecord[] }, accounts: Pick<SandboxGeneration, 'keys' | 'sites'>): void {
  const clients = new Set(accounts.keys.all().map((key) => String(key.client.id)));
  // A site's client id → the id of its endpoint.
  const siteEndpoints = new Map(accounts.sites.all().map((site) => [siteClientId(site), siteEndpointId(site)]));
  const siteEndpointIds = new Set(siteEndpoints.values());
  const requireClient = (clientId: string, pointer: string): void => {
    if (!clients.has(clientId) && !siteEndpoints.has(clientId)) throw new StateRejected(pointer, `no key or site is the client ${JSON.stringify(clientId)}`);
  };
  records.endpoints.forEach((endpoint, index) => {
    const pointer = `/webhooks/endpoints/${index}`;
    requireClient(endpoint.clientId, `${pointer}/clientId`);
    const ownId = siteEndpoints.get(endpoint.clientId);
    if (ownId === undefined ? siteEndpointIds.has(endpoint.id) : endpoint.id !== ownId) {
      throw new StateRejected(`${pointer}/id`, ownId === undefined ? "is a site's endpoint id" : `a site's endpoint has the id ${ownId}`);
    }
    // Only a site's endpoint mirrors it, and the endpoint machine leaves such an endpoint alone.
    if (endpoint.mirrorsSite !== (ownId !== undefined)) throw new StateRejected(`${pointer}/mirrorsSite`, ownId === undefined ? "only a site's endpoint mirrors a site" : "a site's endpoint mirrors the site");
  });
  // A delivery's client is its event's (webhookRecordsOf).
  records.events.forEach((event, index) => requireClient(event.clientId, `/webhooks/events/${index}/clientId`));
}
