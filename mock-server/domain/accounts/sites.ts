// Sites of the v1 deposit family: the API key and secret the `hmac` scheme signs with, the
// webhook secret and callback URL deliveries use, and the site's AML setting.
import type { DepositV1Webhook } from './deposit-webhook-events.js';
import type { Random } from '../../random.js';
import type { RecordMarks } from '../record-marks.js';

export interface Site {
  id: number;
  name: string;
  apiKey: string;
  apiSecret: string;
  webhookSecret: string;
  callbackUrl: string | null;
  amlEnabled: boolean;
  /** Event types delivered to the callback URL (the v1 catalog's `subscribed`). */
  webhookEvents: DepositV1Webhook[];
  createdAt: Date;
}

export interface CreateSiteInput {
  name?: string;
  apiKey?: string;
  apiSecret?: string;
  callbackUrl?: string | null;
  amlEnabled?: boolean;
  webhookEvents: DepositV1Webhook[];
}

export class SiteRegistry {
  private readonly byKey = new Map<string, Site>();
  private lastId = 0;

  constructor(
    private readonly random: Random,
    private readonly marks: RecordMarks,
  ) {}

  create(input: CreateSiteInput, now: Date): Site {
    const id = (this.lastId += 1);
    const apiKey = input.apiKey ?? `site_${this.random.string(32)}`;
    if (this.byKey.has(apiKey)) throw new Error('a site with this API key already exists');
    const site: Site = {
      id,
      name: input.name ?? `site-${id}`,
      apiKey,
      apiSecret: input.apiSecret ?? `sec_${this.random.string(48)}`,
      webhookSecret: `whsec_${this.random.string(32)}`,
      callbackUrl: input.callbackUrl ?? null,
      amlEnabled: input.amlEnabled ?? true,
      webhookEvents: [...input.webhookEvents],
      createdAt: now,
    };
    this.byKey.set(apiKey, site);
    this.marks.changed('site', String(id));
    return site;
  }

  find(apiKey: string): Site | undefined {
    return this.byKey.get(apiKey);
  }

  /** Every site, in the order they were created or adopted. */
  all(): Site[] {
    return [...this.byKey.values()];
  }

  /** Takes over a site from an earlier registry (sandbox reset keeps the default site). */
  adopt(site: Site): void {
    this.byKey.set(site.apiKey, site);
    this.lastId = Math.max(this.lastId, site.id);
  }
}
