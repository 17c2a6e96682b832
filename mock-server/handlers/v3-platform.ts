// The v3 operations the platform answers itself: reachability, the machine-readable description,
// contracts and schemas, the order-status dictionary, the rates file, and the calling account
// (client profile, health, usage, scopes).
import { exchangeV3SignatureScheme } from '../../generated/exchange-v3/client.js';
import type { ExchangeV3Handlers } from '../../generated/exchange-v3/routes.js';
import { exchangeV3Routes, exchangeV3RoutesBasePath } from '../../generated/exchange-v3/routes.js';
import type { HandlerContext } from '../../generated/runtime/router-runtime.js';
import type { ApiKey } from '../domain/accounts/api-keys.js';
import { meterReport } from '../domain/accounts/key-meter.js';
import { orderCounts, webhookHealth } from '../domain/exchange/client-summary.js';
import { balance, ledgerOf } from '../domain/exchange/partner-ledger.js';
import { scopeCatalog } from '../domain/accounts/scope-catalog.js';
import { orderStatuses, type PlatformCatalog } from '../domain/platform/catalog.js';
import { HttpError } from '../http/http-error.js';
import { requestLocals } from '../http/locals.js';
import { v3Success } from '../http/respond.js';
import type { Sandbox } from '../sandbox.js';

type PlatformOperation =
  | 'ping' | 'getOpenApiDocument' | 'listPublicContracts' | 'getPublicContract' | 'listPublicSchemas' | 'getPublicSchema'
  | 'listPublicOrderStatuses' | 'privatePing' | 'getClientHealth' | 'getClient' | 'getUsage' | 'listScopes'
  | 'listContracts' | 'getContract' | 'listSchemas' | 'getSchema' | 'listOrderStatuses';

export function platformHandlers(sandbox: Sandbox, catalog: PlatformCatalog, openApiYaml: string): Pick<ExchangeV3Handlers, PlatformOperation> {
  const { clock } = sandbox;
  // Endpoints as the contract writes paths: relative to the server (`GET /private/client`).
  const scopes = scopeCatalog(exchangeV3Routes, '');
  const usageOf = async (key: ApiKey, now: Date) => {
    const [meter, usage] = await Promise.all([sandbox.meters.get(String(key.id), now.getTime()), sandbox.usage.read(key.id)]);
    return meterReport(meter, usage, now.getTime());
  };

  // The public and private twins answer the same payload, each under its own operation.
  const contract = (key: string) => {
    const found = catalog.contracts.find((c) => c.key === key);
    if (found === undefined) throw new HttpError('not_found', `No contract ${key}.`);
    return { contract: found };
  };
  const schemaList = (visibility: 'public' | 'private') => ({
    schemas: catalog.schemas.map(({ key, title, version, contract: owner }) => ({
      key, title, version, contract: owner, content_type: 'application/schema+json' as const,
      endpoint: `${exchangeV3RoutesBasePath}/${visibility}/schemas/${key}`,
    })),
  });
  const schema = (key: string) => {
    const found = catalog.schemas.find((s) => s.key === key);
    if (found === undefined) throw new HttpError('not_found', `No schema ${key}.`);
    return { schema: found.schema };
  };

  return {
    ping: (_request, context) => v3Success('ping', context, clock, 200, null),
    privatePing: (_request, context) => v3Success('privatePing', context, clock, 200, null),
    getOpenApiDocument: () => ({ status: 200, body: openApiYaml, contentType: 'application/yaml' }),
    listPublicContracts: (_request, context) => v3Success('listPublicContracts', context, clock, 200, { contracts: catalog.contracts }),
    listContracts: (_request, context) => v3Success('listContracts', context, clock, 200, { contracts: catalog.contracts }),
    getPublicContract: (request, context) => v3Success('getPublicContract', context, clock, 200, contract(request.path.contract)),
    getContract: (request, context) => v3Success('getContract', context, clock, 200, contract(request.path.contract)),
    listPublicSchemas: (_request, context) => v3Success('listPublicSchemas', context, clock, 200, schemaList('public')),
    listSchemas: (_request, context) => v3Success('listSchemas', context, clock, 200, schemaList('private')),
    getPublicSchema: (request, context) => v3Success('getPublicSchema', context, clock, 200, schema(request.path.schema)),
    getSchema: (request, context) => v3Success('getSchema', context, clock, 200, schema(request.path.schema)),
    listPublicOrderStatuses: (_request, context) => v3Success('listPublicOrderStatuses', context, clock, 200, { statuses: orderStatuses() }),
    listOrderStatuses: (_request, context) => v3Success('listOrderStatuses', context, clock, 200, { statuses: orderStatuses() }),
    listScopes: (_request, context) => v3Success('listScopes', context, clock, 200, { scopes }),
    getClient: (_request, context) => {
      const key = callerKey(context);
      const { services } = sandbox;
      // The client is a partner: its balance is the partner balance its completed orders earned.
      const account = services.partners.account(key.client, key.createdAt);
      return v3Success('getClient', context, clock, 200, {
        id: key.client.id,
        name: key.client.name,
        email: key.client.email,
        balance: balance(account, ledgerOf(services, account), services.partners.payoutsOf(account.clientId)),
        orders: orderCounts(services.orders.ordersOf(String(key.client.id))),
        api_token: {
          id: key.id,
          name: key.name,
          scopes: key.scopes,
          scope_details: scopes.filter((s) => key.scopes.includes(s.scope)),
          security: { hmac_required: key.hmacRequired, hmac_verified: signedRequest(context), signature_algorithm: 'hmac-sha256' },
          last_used_at: key.lastUsedAt?.toISOString() ?? null,
          expires_at: key.expiresAt?.toISOString() ?? null,
        },
      });
    },
    getClientHealth: async (_request, context) => {
      const key = callerKey(context);
      const now = clock.now();
      const { day, month } = await usageOf(key, now);
      const dailyRemaining = Math.max(0, key.limits.daily - day.used);
      const monthlyRemaining = Math.max(0, key.limits.monthly - month.used);
      // Degraded while the key still works but needs attention: quota nearly spent, expiry within a
      // week, or a webhook endpoint whose deliveries fail.
      const expiresSoon = key.expiresAt !== null && key.expiresAt.getTime() - now.getTime() < 7 * 86_400_000;
      const quotaLow = dailyRemaining < key.limits.daily * 0.1 || monthlyRemaining < key.limits.monthly * 0.1;
      const webhooks = webhookHealth(await sandbox.webhooks.service.listEndpoints(String(key.client.id)));
      return v3Success('getClientHealth', context, clock, 200, {
        health: {
          version: 'client-health-v1',
          status: expiresSoon || quotaLow || webhooks.failing > 0 ? 'degraded' : 'ok',
          client: { id: key.client.id, name: key.client.name, active: key.client.active, api_access_enabled: key.client.apiAccessEnabled },
          token: { id: key.id, name: key.name, active: key.active, expires_at: key.expiresAt?.toISOString() ?? null, scopes_count: key.scopes.length },
          security: { hmac_required: key.hmacRequired, ip_allowlist_enabled: key.ipAllowlist.length > 0 },
          quota: { daily_remaining: dailyRemaining, monthly_remaining: monthlyRemaining },
          webhooks,
          contracts: Object.fromEntries(catalog.contracts.map((c) => [c.key, c.version])),
          time: now.toISOString(),
        },
      });
    },
    getUsage: async (_request, context) => {
      const key = callerKey(context);
      const now = clock.now();
      const { day, month, operations } = await usageOf(key, now);
      return v3Success('getUsage', context, clock, 200, {
        api_token: { id: String(key.id), name: key.name, status: keyStatus(key, now), plan: 'sandbox', billable: false },
        quota: {
          day: { limit: key.limits.daily, used: day.used, remaining: Math.max(0, key.limits.daily - day.used), resets_at: day.resetsAt.toISOString() },
          month: { limit: key.limits.monthly, used: month.used, remaining: Math.max(0, key.limits.monthly - month.used), resets_at: month.resetsAt.toISOString() },
        },
        billing: { currency: 'USD', unit_price: '0', estimated_amount: '0', billable_units: 0 },
        usage: operations,
      });
    },
  };
}

function callerKey(context: HandlerContext): ApiKey {
  const key = requestLocals(context.res).key;
  if (key === undefined) throw new Error(`${context.route.operationId} ran without an authenticated key`);
  return key;
}

function signedRequest(context: HandlerContext): boolean {
  return context.req.get(exchangeV3SignatureScheme.headers.signature) !== undefined;
}

function keyStatus(key: ApiKey, now: Date): 'active' | 'inactive' | 'expired' {
  if (!key.active) return 'inactive';
  return key.expiresAt !== null && key.expiresAt <= now ? 'expired' : 'active';
}
