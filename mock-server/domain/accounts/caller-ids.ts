// The ids a v3 key and a v1 site are known by where one store holds both families' records:
// `key:<id>` and `site:<id>`, so the two id sequences never meet. Idempotency records are scoped
// by them (http/pipeline.ts), a site's is also its client id in the webhook engine
// (webhooks/site-endpoint.ts), and a loaded snapshot's records are checked against them
// (snapshot/limits-owners.ts, webhooks-owners.ts).
import type { ApiKey } from './api-keys.js';
import type { Site } from './sites.js';

const sitePrefix = 'site:';

export function keyCallerId(key: Pick<ApiKey, 'id'>): string {
  return `key:${key.id}`;
}

export function siteCallerId(site: Pick<Site, 'id'>): string {
  return `${sitePrefix}${site.id}`;
}

/** Whether `id` is a site's (siteCallerId) rather than a key's or a v3 client's. */
export function isSiteCallerId(id: string): boolean {
  return id.startsWith(sitePrefix);
}
