// The accounts part of a sandbox snapshot: the v3 keys with their clients, and the v1 sites. The
// default key and site are the running mock's own (its configured credentials, as after a reset):
// the document's records of them are skipped, and other records may not reuse their ids or
// credentials.
import type { SandboxStateAccounts, SandboxStateKey, SandboxStateSite } from '../../generated/sandbox-control/types.js';
import type { ApiKey } from '../domain/accounts/api-keys.js';
import type { Site } from '../domain/accounts/sites.js';
import { isSubscribable } from '../domain/accounts/deposit-webhook-events.js';
import { StateRejected, type StateReferences } from '../domain/state-rejected.js';
import type { SandboxGeneration } from '../sandbox.js';
import { dateOf, msOf } from './instants.js';

/** `withRecords` false: the keys and sites left out (a journal's header, journal-rows.ts). */
export function exportAccountsState(generation: Pick<SandboxGeneration, 'keys' | 'sites'>, withRecords = true): SandboxStateAccounts {
  return withRecords ? { keys: generation.keys.all().map(keyState), sites: generation.sites.all().map(siteState) } : { keys: [], sites: [] };
}

/** One key, by id, as exportAccountsState lists it; undefined when there is none. */
export function exportKeyRecord(generation: Pick<SandboxGeneration, 'keys'>, id: string): SandboxStateKey | undefined {
  const key = generation.keys.all().find((candidate) => String(candidate.id) === id);
  return key === undefined ? undefined : keyState(key);
}

/** One site, by id, as exportAccountsState lists it; undefined when there is none. */
export function exportSiteRecord(generation: Pick<SandboxGeneration, 'sites'>, id: string): SandboxStateSite | undefined {
  const site = generation.sites.all().find((candidate) => String(candidate.id) === id);
  return site === undefined ? undefined : siteState(site);
}

/**
 * Adopts the document's keys and sites into a new generation's registries (which hold the
 * default key and site already) and answers the look-ups the other parts resolve ids with.
 */
export function restoreAccountsState(generation: Pick<SandboxGeneration, 'keys' | 'sites'>, state: SandboxStateAccounts, defaults: { key: ApiKey; site: Site }): StateReferences {
  const clients = new Map([[defaults.key.client.id, defaults.key.client]]);
  const sites = new Map([[defaults.site.id, defaults.site]]);
  const keyIds = new Set<number>();
  state.keys.forEach((record, index) => {
    const pointer = `/accounts/keys/${index}`;
    if (keyIds.has(record.id)) throw new StateRejected(`${pointer}/id`, `key ${record.id} appears twice`);
    keyIds.add(record.id);
    // Minting gives every key a client of its own with the key's id (ApiKeyRegistry.mint), and a
    // key minted later takes the next id for both: a key whose client had another id would share
    // that client's records with the key minted with that id.
    if (record.client.id !== record.id) throw new StateRejected(`${pointer}/client/id`, `must be the key's id ${record.id}: each key has a client of its own`);
    if (record.id === defaults.key.id) return;
    if (generation.keys.find(record.token) !== undefined) throw new StateRejected(`${pointer}/token`, 'another key has this token');
    const key = keyOf(record);
    generation.keys.adopt(key);
    clients.set(key.client.id, key.client);
  });
  state.sites.forEach((record, index) => {
    if (record.id === defaults.site.id) return;
    const pointer = `/accounts/sites/${index}`;
    if (sites.has(record.id)) throw new StateRejected(`${pointer}/id`, `site ${record.id} appears twice`);
    if (generation.sites.find(record.apiKey) !== undefined) throw new StateRejected(`${pointer}/apiKey`, 'another site has this API key');
    const site = siteOf(record, pointer);
    generation.sites.adopt(site);
    sites.set(site.id, site);
  });
  return {
    client: (id, pointer) => clients.get(id) ?? reject(pointer, `no key has client ${id}`),
    site: (id, pointer) => sites.get(id) ?? reject(pointer, `no site has id ${id}`),
  };
}

function reject(pointer: string, reason: string): never {
  throw new StateRejected(pointer, reason);
}

function keyState(key: ApiKey): SandboxStateKey {
  const { expiresAt, createdAt, lastUsedAt, client, scopes, ipAllowlist, limits, ...rest } = key;
  return {
    ...rest,
    scopes: [...scopes],
    client: { ...client },
    ipAllowlist: [...ipAllowlist],
    limits: { ...limits },
    expiresAtMs: msOf(expiresAt),
    createdAtMs: createdAt.getTime(),
    lastUsedAtMs: msOf(lastUsedAt),
  };
}

function keyOf(record: SandboxStateKey): ApiKey {
  const { expiresAtMs, createdAtMs, lastUsedAtMs, ...rest } = record;
  return { ...rest, expiresAt: dateOf(expiresAtMs), createdAt: new Date(createdAtMs), lastUsedAt: dateOf(lastUsedAtMs) };
}

function siteState(site: Site): SandboxStateSite {
  const { createdAt, webhookEvents, ...rest } = site;
  return { ...rest, webhookEvents: [...webhookEvents], createdAtMs: createdAt.getTime() };
}

/** A site subscribes only to the v1 contract's deposit event types, as createSite checks. */
function siteOf(record: SandboxStateSite, pointer: string): Site {
  const { createdAtMs, webhookEvents, ...rest } = record;
  const subscribed = webhookEvents.map((type, index) => (isSubscribable(type) ? type : reject(`${pointer}/webhookEvents/${index}`, `${type} is not a webhook event type of the v1 contract`)));
  return { ...rest, webhookEvents: subscribed, createdAt: new Date(createdAtMs) };
}
