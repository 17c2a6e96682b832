// API keys of the v3 family and the clients that own them: what the nine authentication checks
// read, minted by the sandbox control API with chosen scopes and account flags.
import type { Random } from '../../random.js';
import type { RecordMarks } from '../record-marks.js';

export interface Client {
  id: number;
  name: string;
  email: string;
  active: boolean;
  apiAccessEnabled: boolean;
}

export interface KeyLimits {
  perMinute: number;
  daily: number;
  monthly: number;
}

export interface ApiKey {
  id: number;
  name: string;
  token: string;
  /** The API HMAC secret (not a webhook secret), for keys that must sign requests. */
  hmacSecret: string;
  scopes: string[];
  client: Client;
  active: boolean;
  expiresAt: Date | null;
  /** Addresses or CIDR blocks; empty means no allow-list. */
  ipAllowlist: string[];
  hmacRequired: boolean;
  limits: KeyLimits;
  createdAt: Date;
  lastUsedAt: Date | null;
}

export interface MintKeyInput {
  name?: string;
  token?: string;
  scopes: string[];
  clientActive?: boolean;
  apiAccessEnabled?: boolean;
  keyActive?: boolean;
  expiresAt?: Date | null;
  ipAllowlist?: string[];
  hmacRequired?: boolean;
  limits: KeyLimits;
}

/** Keys by token; ids and secrets from the seeded random source. */
export class ApiKeyRegistry {
  private readonly byToken = new Map<string, ApiKey>();
  private lastId = 0;

  constructor(
    private readonly random: Random,
    private readonly marks: RecordMarks,
  ) {}

  mint(input: MintKeyInput, now: Date): ApiKey {
    const id = (this.lastId += 1);
    const token = input.token ?? `eak_${this.random.string(40)}`;
    if (this.byToken.has(token)) throw new Error('a key with this token already exists');
    const key: ApiKey = {
      id,
      name: input.name ?? `key-${id}`,
      token,
      hmacSecret: `hms_${this.random.string(40)}`,
      scopes: [...input.scopes],
      client: {
        id,
        name: id === 1 ? 'Sandbox client' : `Sandbox client ${id}`,
        email: `client${id}@sandbox.test`,
        active: input.clientActive ?? true,
        apiAccessEnabled: input.apiAccessEnabled ?? true,
      },
      active: input.keyActive ?? true,
      expiresAt: input.expiresAt ?? null,
      ipAllowlist: input.ipAllowlist ?? [],
      hmacRequired: input.hmacRequired ?? false,
      limits: input.limits,
      createdAt: now,
      lastUsedAt: null,
    };
    this.byToken.set(token, key);
    this.marks.changed('key', String(id));
    return key;
  }

  find(token: string): ApiKey | undefined {
    return this.byToken.get(token);
  }

  /** The key authenticated a request at `now` (its last_used_at: a statistic, written on the next timer beat). */
  used(key: ApiKey, now: Date): void {
    key.lastUsedAt = now;
    this.marks.changedLater('key', String(key.id));
  }

  /** Every key, in the order they were minted or adopted. */
  all(): ApiKey[] {
    return [...this.byToken.values()];
  }

  /** Takes over a key as it is, from an earlier registry (the default key) or a snapshot. */
  adopt(key: ApiKey): void {
    this.byToken.set(key.token, key);
    this.lastId = Math.max(this.lastId, key.id);
  }
}
