// The accounts part of a sandbox snapshot: the v3 keys with their clients, and the v1 sites. The
// default key and site keep the running mock's credentials (the key's token and HMAC secret, the
// site's API key, secret and webhook secret: what a test suite is configured with, as after a
// reset); the rest of their records is the document's, which must hold them. Other records may
// not reuse their ids or credentials.
import type { SandboxStateAccounts, SandboxStateKey, SandboxStateSite } from '../../generated/sandbox-control/types.js';
import type { ApiKey, Client } from '../domain/accounts/api-keys.js';
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
 * default key and site already: the document's records of them take their places) and answers
 * the look-ups the other parts resolve ids with.
 */
export function restoreAccountsState(generation: Pick<SandboxGeneration, 'keys' | 'sites' | 'defaultKey' | 'defaultSite'>, state: SandboxStateAccounts): StateReferences {
  const clients = new Map<number, Client>();
  state.keys.forEach((record, index) => {
    const pointer = `/accounts/keys/${index}`;
    if (clients.has(record.id)) throw new StateRejected(`${pointer}/id`, `key ${record.id} appears twice`);
    // Minting gives every key a client of its own with the key's id (ApiKeyRegistry.mint), and a
    // key minted later takes the next id for both: a key whose client had another id would share
    // that client's records with the key minted with that id.
    if (record.client.id !== record.id) throw new StateRejected(`${pointer}/client/id`, `must be the key's id ${record.id}: each key has a client of its own`);
    const isDefault = record.id === generation.defaultKey.id;
    if (!isDefault && generation.keys.find(record.token) !== undefined) throw new StateRejected(`${pointer}/token`, 'another key has this token');
    const { token, hmacSecret } = generation.defaultKey;
    const key = keyOf(isDefault ? { ...record, token, hmacSecret } : record);
    generation.keys.adopt(key);
    if (isDefault) generation.defaultKey = key;
    clients.set(key.id, key.client);
  });
  const sites = new Map<number, Site>();
  state.sites.forEach((record, index) => {
    const pointer = `/accounts/sites/${index}`;
    if (sites.has(record.id)) throw new StateRejected(`${pointer}/id`, `site ${record.id} appears twice`);
    const isDefault = record.id === generation.defaultSite.id;
    if (!isDefault && generation.sites.find(record.apiKey) !== undefined) throw new StateRejected(`${pointer}/apiKey`, 'another site has this API key');
    const { apiKey, apiSecret, webhookSecret } = generation.defaultSite;
    const site = siteOf(isDefault ? { ...record, apiKey, apiSecret, webhookSecret } : record, pointer);
    generation.sites.adopt(site);
    if (isDefault) generation.defaultSite = site;
    sites.set(site.id, site);
  });
  if (!clients.has(generation.defaultKey.id)) throw new StateRejected('/accounts/keys', `holds no record of the default key (id ${generation.defaultKey.id})`);
  if (!sites.has(generation.defaultSite.id)) throw new StateRejected('/accounts/sites', `holds no record of the default site (id ${generation.defaultSite.id})`);
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
