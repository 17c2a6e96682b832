// The sandbox control API (contracts/sandbox-control.openapi.yaml) over the sandbox: reset,
// minting v3 keys and creating v1 sites; the clock is in clock-controls.ts, the webhook rooms in
// webhook-controls.ts, the API faults in fault-controls.ts, v1 signing in signature-controls.ts.
import { isIP } from 'node:net';
import { exchangeV3Routes } from '../../generated/exchange-v3/routes.js';
import type { SandboxControlHandlers } from '../../generated/sandbox-control/routes.js';
import { allScopes } from '../domain/accounts/scope-catalog.js';
import { depositV1Webhooks, isSubscribable } from '../domain/accounts/deposit-webhook-events.js';
import { HttpError } from '../http/http-error.js';
import { controlSuccess } from '../http/respond.js';
import { defaultKeyLimits, type Sandbox } from '../sandbox.js';
import { refuseUnreachable } from '../handlers/webhook-url.js';
import { webhookControlHandlers, type WebhookControlOptions } from './webhook-controls.js';
import { webhookStreamHandlers } from './webhook-stream.js';
import { chainControlHandlers } from './chain-controls.js';
import { amlControlHandlers } from './aml-controls.js';
import { orderControlHandlers } from './order-controls.js';
import { inspectorControlHandlers } from './inspector-controls.js';
import { verificationControlHandlers } from './verification-controls.js';
import { faultControlHandlers } from './fault-controls.js';
import { signatureControlHandlers } from './signature-controls.js';
import type { OperationFaults } from './operation-faults.js';
import { staticAddressControlHandlers } from './static-address-controls.js';
import { reviewControlHandlers } from './review-controls.js';
import { catalogControlHandlers } from './catalog-controls.js';
import { stateControlHandlers } from './state-controls.js';
import { clockControlHandlers } from './clock-controls.js';
import { dateTimeField } from './date-time-field.js';

const knownScopes = new Set(allScopes(exchangeV3Routes));

export function controlHandlers(sandbox: Sandbox, faults: OperationFaults, options: WebhookControlOptions = {}): SandboxControlHandlers {
  const { clock } = sandbox;

  return {
    ...webhookControlHandlers(sandbox, options),
    ...webhookStreamHandlers(sandbox),
    ...chainControlHandlers(sandbox),
    ...amlControlHandlers(sandbox),
    ...orderControlHandlers(sandbox),
    ...inspectorControlHandlers(sandbox),
    ...verificationControlHandlers(sandbox),
    ...faultControlHandlers(faults, clock),
    ...signatureControlHandlers(sandbox),
    ...staticAddressControlHandlers(sandbox),
    ...reviewControlHandlers(sandbox),
    ...catalogControlHandlers(sandbox),
    ...stateControlHandlers(sandbox, faults),
    ...clockControlHandlers(sandbox),
    resetSandbox: async (request, context) => {
      await sandbox.reset(request.body?.seed);
      faults.reset();
      return controlSuccess('resetSandbox', context, clock, 200, { seed: sandbox.seedInUse, reset_at: clock.now().toISOString() });
    },
    mintToken: (request, context) => {
      const body = request.body ?? {};
      const unknown = (body.scopes ?? []).filter((scope) => !knownScopes.has(scope));
      if (unknown.length > 0) {
        throw new HttpError('validation_error', 'Unknown scopes.', { 'body.scopes': unknown.map((s) => `${s} is not a scope of the v3 contract`) });
      }
      // The contract's IPv6 CIDR pattern is loose: parse each address (`:::::/64` matches it).
      const badIps = (body.ip_allowlist ?? []).filter((entry) => isIP(entry.split('/')[0] ?? '') === 0);
      if (badIps.length > 0) {
        throw new HttpError('validation_error', 'Invalid IP allow-list entries.', { 'body.ip_allowlist': badIps.map((e) => `${e} is not an IP address or CIDR block`) });
      }
      if (body.token !== undefined && sandbox.keys.find(body.token) !== undefined) {
        throw new HttpError('validation_error', 'A key with this token exists.', { 'body.token': ['is already in use'] });
      }
      const expiresAtMs = body.expires_at === undefined || body.expires_at === null ? null : dateTimeField(body.expires_at, 'body.expires_at');
      const key = sandbox.keys.mint(
        {
          ...(body.name !== undefined ? { name: body.name } : {}),
          ...(body.token !== undefined ? { token: body.token } : {}),
          scopes: body.scopes ?? [...knownScopes],
          clientActive: body.client_active ?? true,
          apiAccessEnabled: body.api_access_enabled ?? true,
          keyActive: body.key_active ?? true,
          expiresAt: expiresAtMs === null ? null : new Date(expiresAtMs),
          ipAllowlist: body.ip_allowlist ?? [],
          hmacRequired: body.hmac_required ?? false,
          limits: {
            perMinute: body.rate_limit_per_minute ?? defaultKeyLimits.perMinute,
            daily: body.quota_daily ?? defaultKeyLimits.daily,
            monthly: body.quota_monthly ?? defaultKeyLimits.monthly,
          },
        },
        clock.now(),
      );
      return controlSuccess('mintToken', context, clock, 201, {
        token: key.token,
        hmac_secret: key.hmacSecret,
        key: {
          id: key.id,
          name: key.name,
          scopes: key.scopes,
          client: { id: key.client.id, active: key.client.active, api_access_enabled: key.client.apiAccessEnabled },
          key_active: key.active,
          expires_at: key.expiresAt?.toISOString() ?? null,
          ip_allowlist: key.ipAllowlist,
          hmac_required: key.hmacRequired,
          rate_limit_per_minute: key.limits.perMinute,
          quota_daily: key.limits.daily,
          quota_monthly: key.limits.monthly,
          created_at: key.createdAt.toISOString(),
        },
      });
    },
    createSite: async (request, context) => {
      const body = request.body ?? {};
      // First: the check of the API key and the creation below must not have an await between them.
      if (body.callback_url !== undefined && body.callback_url !== null) await refuseUnreachable(sandbox, body.callback_url, 'body.callback_url');
      if (body.api_key !== undefined && sandbox.sites.find(body.api_key) !== undefined) {
        throw new HttpError('validation_error', 'A site with this API key exists.', { 'body.api_key': ['is already in use'] });
      }
      const unknownEvents = (body.webhook_events ?? []).filter((type) => !isSubscribable(type));
      if (unknownEvents.length > 0) {
        throw new HttpError('validation_error', 'Unknown webhook event types.', { 'body.webhook_events': unknownEvents.map((t) => `${t} is not a webhook event type of the v1 contract`) });
      }
      const site = sandbox.sites.create(
        {
          ...(body.name !== undefined ? { name: body.name } : {}),
          ...(body.api_key !== undefined ? { apiKey: body.api_key } : {}),
          ...(body.api_secret !== undefined ? { apiSecret: body.api_secret } : {}),
          callbackUrl: body.callback_url ?? null,
          amlEnabled: body.aml_enabled ?? true,
          // Every type passed the check above: the filter only narrows them to the contract's.
          webhookEvents: body.webhook_events?.filter(isSubscribable) ?? depositV1Webhooks,
        },
        clock.now(),
      );
      return controlSuccess('createSite', context, clock, 201, {
        site: {
          id: site.id,
          name: site.name,
          api_key: site.apiKey,
          callback_url: site.callbackUrl,
          aml_enabled: site.amlEnabled,
          webhook_events: site.webhookEvents,
          created_at: site.createdAt.toISOString(),
        },
        api_secret: site.apiSecret,
        webhook_secret: site.webhookSecret,
      });
    },
  };
}
