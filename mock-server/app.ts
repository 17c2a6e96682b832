// createApp(): the whole mock as a node:http request listener, without listen (server.ts listens).
// One linear pipeline per family: request context → route match → platform middleware (body,
// auth, limits, idempotency) → validation → handler → response; unmatched requests get 404/405
// and every failure goes through one error handler. The v3 and v1 families are reached through
// the front door (http/front-door.ts); /docs, the control API and the rest through express.
import express from 'express';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { createDepositV1Router, depositV1Routes, type DepositV1Handlers } from '../generated/deposit-v1/routes.js';
import { createExchangeV3Router, exchangeV3Routes, exchangeV3RoutesBasePath, type ExchangeV3Handlers } from '../generated/exchange-v3/routes.js';
import { runChain, type RouteDefinition, type ValidationDetails } from '../generated/runtime/router-runtime.js';
import { loadPlatformCatalog } from './domain/platform/catalog.js';
import { controlHandlers } from './control/handlers.js';
import { faultStep } from './control/fault-step.js';
import { OperationFaults } from './control/operation-faults.js';
import { OverrideRegistry } from './overrides/override-registry.js';
import { withOverrides } from './overrides/with-overrides.js';
import { sandboxControlSecuritySchemes } from '../generated/sandbox-control/contract-data.js';
import { createSandboxControlRouter, sandboxControlRoutes, sandboxControlRoutesBasePath } from '../generated/sandbox-control/routes.js';
import { platformHandlers } from './handlers/v3-platform.js';
import { catalogHandlers } from './handlers/v1-catalog.js';
import { amlHandlers } from './handlers/v1-aml.js';
import { depositAmlHandlers } from './handlers/v1-deposit-aml.js';
import { siteWebhookHandlers } from './handlers/v1-webhooks.js';
import { depositHandlers } from './handlers/v1-deposits.js';
import { staticAddressHandlers } from './handlers/v1-static-addresses.js';
import { webhookHandlers } from './handlers/v3-webhooks.js';
import { exchangeCatalogHandlers } from './handlers/v3-exchange-catalog.js';
import { quoteHandlers } from './handlers/v3-quotes.js';
import { reviewHandlers } from './handlers/v3-reviews.js';
import { partnerHandlers } from './handlers/v3-partner.js';
import { orderHandlers } from './handlers/v3-orders.js';
import { orderSimulationHandlers } from './handlers/v3-orders-simulate.js';
import { fileHandlers } from './handlers/v3-files.js';
import { verificationHandlers } from './handlers/v3-verifications.js';
import { orderVerificationHandlers } from './handlers/v3-order-verifications.js';
import { malformedRequests, type MalformedRequests } from './http/client-error.js';
import { errorHandler } from './http/error-handler.js';
import { expressMessages, frontDoor, type FamilyMount } from './http/front-door.js';
import { journalBeforeAnswer } from './http/journal-before-answer.js';
import { storedBeforeAnswer } from './http/stored-before-answer.js';
import { families, sendError } from './http/families.js';
import type { FamilyName } from './http/locals.js';
import { unmatched } from './http/fallback.js';
import { HttpError } from './http/http-error.js';
import { createPipeline } from './http/pipeline.js';
import { rememberRoute, requestContext } from './http/request-context.js';
import { strictResponses } from './http/strict-responses.js';
import { trustedProxies } from './http/trusted-proxies.js';
import { refuseOtherOrigins } from './http/other-origin-guard.js';
import { inspectorPage } from './ui/inspector-page.js';
import { Sandbox, type SandboxOptions } from './sandbox.js';
import { bundledText } from './bundled-contracts.js';
import { kitPath } from '../kit-files.js';
import type { Logger } from 'pino';
import { requestLog } from './http/request-log.js';
import { docsPage } from './docs-page/router.js';
import type { TryItOutSigning } from './docs-page/signing-panel.js';
import type { ReplayOptions } from './replay/replay-book.js';
import { replayStep } from './replay/replay-step.js';
import { depositV1Info } from '../generated/deposit-v1/contract-data.js';
import { exchangeV3Info } from '../generated/exchange-v3/contract-data.js';

export interface AppOptions extends SandboxOptions {
  /** Serve the sandbox control API under /__mock (default true). */
  control?: boolean | undefined;
  /** When set, the control API requires it in X-Mock-Admin-Token. */
  adminToken?: string | undefined;
  /** Validate every response against the contract; a mismatch becomes a loud 500 (tests). */
  strict?: boolean | undefined;
  /** One line per request (method, path, status, ms, request id); none when absent. */
  logger?: Logger | undefined;
  /** Serve the API reference under /docs (default true). */
  docs?: boolean | undefined;
  /** Answer the v3 and v1 requests recorded by `proxy --record` first (`serve --replay DIR`). */
  replay?: ReplayOptions | undefined;
  /** The most the webhook inbox's records may take in its listing (default 16 MiB; the oldest go first). */
  webhookInboxBytes?: number | undefined;
  /**
   * The proxies whose X-Forwarded-For is believed, as addresses, CIDRs or `loopback`,
   * `linklocal`, `uniquelocal` (express's trust proxy). Default none: the caller is the peer.
   */
  trustProxy?: string[] | undefined;
}

export interface MockApp {
  /** The request listener of a node:http server: the API families, then the express app for the rest. */
  listener: RequestListener;
  /** The server's IncomingMessage and ServerResponse options: objects born with express's prototypes (front-door.ts). */
  messages: { IncomingMessage: typeof IncomingMessage; ServerResponse: typeof ServerResponse };
  sandbox: Sandbox;
  /** Per-test overrides of v3 and v1 operations (RunningMockServer.use). */
  overrides: OverrideRegistry;
  /** The server's 'clientError' and 'connect' listeners: what node's parser refuses gets the family's error body. */
  malformed: MalformedRequests;
}

export function createApp(options: AppOptions = {}): MockApp {
  const sandbox = new Sandbox(options);
  const faults = new OperationFaults(sandbox.clock, () => sandbox.seedInUse);
  const overrides = new OverrideRegistry();
  const platform = createPipeline(sandbox, { admitted: faultStep(faults) });
  // Every matched route first records itself (auth and strict mode read it), then the platform steps.
  const pipeline = {
    v3: (route: RouteDefinition) => [rememberRoute(route), ...platform.v3(route)],
    v1: (route: RouteDefinition) => [rememberRoute(route), ...platform.v1(route)],
    control: (route: RouteDefinition) => [rememberRoute(route), ...platform.control(route)],
  };
  const familyContext = (family: FamilyName) => (options.strict ? [requestContext(family, sandbox.clock), strictResponses()] : [requestContext(family, sandbox.clock)]);
  const replay = (limitBytes: number) => (options.replay === undefined ? [] : [replayStep(options.replay, sandbox.clock, limitBytes)]);
  const catalog = loadPlatformCatalog(kitPath('contracts'));
  const openApiYaml = bundledText('exchange-v3');

  const app = express();
  app.disable('x-powered-by');
  // The IP allow-list check reads req.ip: the peer's address, or behind a trusted proxy the
  // address X-Forwarded-For names. Trusting a proxy nobody configured would let any client
  // claim any address with the header.
  app.set('trust proxy', trustedProxies(options.trustProxy ?? []));
  // Every request is logged once: the API families log in their own chain (front-door.ts).
  const logged = options.logger ? [requestLog(options.logger)] : [];
  for (const step of logged) app.use(step);

  const v3Handlers: ExchangeV3Handlers = {
    ...platformHandlers(sandbox, catalog, openApiYaml),
    ...webhookHandlers(sandbox),
    ...orderHandlers(sandbox),
    ...orderSimulationHandlers(sandbox),
    ...exchangeCatalogHandlers(sandbox),
    ...quoteHandlers(sandbox),
    ...reviewHandlers(sandbox),
    ...partnerHandlers(sandbox),
    ...fileHandlers(sandbox),
    ...verificationHandlers(sandbox),
    ...orderVerificationHandlers(sandbox),
  };
  const v3: FamilyMount = {
    prefix: apiPathPrefixes.v3,
    strip: true,
    chain: [
      ...logged,
      ...familyContext('v3'),
      ...replay(exchangeV3Info['x-body-limit-bytes']),
      createExchangeV3Router(withOverrides(v3Handlers, overrides, 'exchange-v3', sandbox.clock), { routeMiddleware: pipeline.v3, onValidationError: validationFailed(sandbox, 'v3') }),
      unmatched(exchangeV3Routes, exchangeV3RoutesBasePath),
    ],
  };

  // The v1 paths are written in full (/v1/public/...), so its chain gets them unstripped.
  const v1Handlers: DepositV1Handlers = {
    ...siteWebhookHandlers(sandbox),
    ...catalogHandlers(sandbox),
    ...depositHandlers(sandbox),
    ...staticAddressHandlers(sandbox),
    ...amlHandlers(sandbox),
    ...depositAmlHandlers(sandbox),
  };
  const v1: FamilyMount = {
    prefix: apiPathPrefixes.v1,
    strip: false,
    chain: [
      ...logged,
      ...familyContext('v1'),
      ...replay(depositV1Info['x-body-limit-bytes']),
      createDepositV1Router(withOverrides(v1Handlers, overrides, 'deposit-v1', sandbox.clock), { routeMiddleware: pipeline.v1, onValidationError: validationFailed(sandbox, 'v1') }),
      unmatched(depositV1Routes, ''),
    ],
  };

  if (options.docs !== false) app.use('/docs', oneLayer(requestContext('v3', sandbox.clock), docsPage({ signing: tryItOutSigning(options) })));

  if (options.control !== false) {
    const webhookControlOptions = options.webhookInboxBytes === undefined ? {} : { inboxBytes: options.webhookInboxBytes };
    app.use(`${sandboxControlRoutesBasePath}/ui`, inspectorPage());
    app.use(
      sandboxControlRoutesBasePath,
      oneLayer(
        ...familyContext('control'),
        // With an admin token, the token is the gate: a page cannot know it, nor send it without a
        // CORS preflight the mock never grants. Without one, only the browser's headers tell a
        // forged request from the inspector's, so those are checked instead.
        options.adminToken === undefined ? refuseOtherOrigins() : adminGuard(options.adminToken),
        createSandboxControlRouter(controlHandlers(sandbox, faults, webhookControlOptions), { routeMiddleware: pipeline.control, onValidationError: validationFailed(sandbox, 'control') }),
        unmatched(sandboxControlRoutes, sandboxControlRoutesBasePath),
      ),
    );
  }

  app.use(oneLayer(requestContext('v3', sandbox.clock), unmatched([], '')));
  const onError = errorHandler(sandbox.clock);
  app.use(onError);
  const listener = frontDoor(app, [v3, v1], onError);
  // Only a durable store pays for the journal (the memory engine keeps nothing to write).
  const journaled =
    sandbox.store.journal === undefined
      ? listener
      : journalBeforeAnswer(listener, async (req, res) => {
          // A read changes no setting or counter (what it updates lazily is a record, marked).
          if (!readsOnly.has(req.method ?? '')) sandbox.journal?.headersMayChange();
          // A clock change this answer may tell of is kept before it, as its records are.
          const clock = sandbox.clockSaves.pending();
          const kept = clock === undefined ? sandbox.journal?.flush() : clock.then(() => sandbox.journal?.flush());
          const stored = storedBeforeAnswer(res);
          return stored === undefined ? kept : Promise.all([kept, stored]);
        });
  return { listener: journaled, messages: expressMessages(app), sandbox, overrides, malformed: malformedRequests(sandbox.clock, v1.prefix) };
}

/** Methods whose requests change no part of the sandbox but records (which their services mark). */
const readsOnly: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A family's middleware as one express layer: express matches the mount path of every layer
 * it passes, so a stack of five layers per family cost five matches per request (a tenth of
 * the mock's CPU per request in profiles); one layer runs the same steps in the same order.
 */
function oneLayer(...handlers: express.RequestHandler[]): express.RequestHandler {
  return (req, res, next) => runChain(handlers, req, res, next);
}

/** The path segments every path starts with: where the v1 family lives (its paths are written in full). */
function sharedPathPrefix(paths: readonly string[]): string {
  const [first = [], ...rest] = paths.map((path) => path.split('/'));
  let length = 0;
  while (length < first.length - 1 && rest.every((segments) => segments[length] === first[length] && !first[length]!.includes('{'))) length += 1;
  return first.slice(0, length).join('/');
}

/** The path prefixes the two API families are served under (`/api/v3`, `/v1/public`). */
export const apiPathPrefixes = { v3: exchangeV3RoutesBasePath, v1: sharedPathPrefix(depositV1Routes.map((route) => route.path)) } as const;

/** Where the docs page's deposit v1 "Try it out" gets its signatures: the control API, if served. */
function tryItOutSigning(options: AppOptions): TryItOutSigning | null {
  if (options.control === false) return null;
  const route = sandboxControlRoutes.find((r) => r.operationId === 'signDepositRequest');
  if (route === undefined) throw new Error('the control contract has no signDepositRequest');
  return { path: `${sandboxControlRoutesBasePath}${route.path}`, adminTokenHeader: sandboxControlSecuritySchemes.adminToken.name };
}

function validationFailed(sandbox: Sandbox, family: FamilyName) {
  return (details: ValidationDetails, _req: unknown, res: express.Response, _route: RouteDefinition): void => {
    sendError(res, sandbox.clock, new HttpError(families[family].codes.validation, 'The given data was invalid.', details));
  };
}

function adminGuard(adminToken: string): express.RequestHandler {
  const header = sandboxControlSecuritySchemes.adminToken.name;
  return (req, _res, next) => {
    if (isAdminToken(req.get(header), adminToken)) {
      next();
      return;
    }
    next(new HttpError('unauthorized', `The sandbox control API needs the admin token in ${header}.`));
  };
}

/**
 * Whether `given` (the header, absent when not sent) is the admin token, compared in constant
 * time. Fails closed: a missing header never matches, nor does anything match an empty token,
 * which startMockServer refuses but a program mounting createApp() could still pass.
 */
function isAdminToken(given: string | undefined, adminToken: string): boolean {
  if (given === undefined || adminToken === '') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(adminToken);
  return a.length === b.length && timingSafeEqual(a, b);
}

