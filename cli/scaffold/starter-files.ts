// The files of a starter server for the kit's two API families, built from the generated route
// tables (operations, tags, base paths): one handler file per contract tag, each operation
// answering the contract's typed 501 until it is implemented, an index per family that joins
// them, the express app that mounts the generated routers with their security, idempotency and
// limit-header middleware (in-memory plug-ins), a server entry, package.json and a strict tsconfig. They are the user's files: scaffold writes each once and never replaces it.
import { readFileSync } from 'node:fs';
import * as depositV1 from '../../generated/deposit-v1/routes.js';
import * as exchangeV3 from '../../generated/exchange-v3/routes.js';
import type { RouteDefinition } from '../../generated/runtime/router-runtime.js';
import { camelCase, pascalCase } from '../../generator/emit/file.js';
import { kitPath } from '../../kit-files.js';

export interface StarterFile {
  /** Relative to the project folder. */
  path: string;
  contents: string;
}

interface Family {
  /** The contract's name: its folder under src/generated. */
  name: string;
  routes: readonly RouteDefinition[];
  basePath: string;
  /** Whether its contract declares idempotency keys, and limit headers (the generated module has `<contract>Limits`). */
  idempotent: boolean;
  limited: boolean;
}

const families: Family[] = [
  { name: 'exchange-v3', routes: exchangeV3.exchangeV3Routes, basePath: exchangeV3.exchangeV3RoutesBasePath, limited: 'exchangeV3Limits' in exchangeV3 },
  { name: 'deposit-v1', routes: depositV1.depositV1Routes, basePath: depositV1.depositV1RoutesBasePath, limited: 'depositV1Limits' in depositV1 },
].map((family) => ({ ...family, idempotent: family.routes.some((route) => route.idempotency !== undefined) }));

const header = '// Written once by `exchange-api-kit scaffold`: yours to edit; `generate` never touches it.';

export function starterFiles(): StarterFile[] {
  return [
    ...families.flatMap((family) => [...tagFiles(family), familyIndex(family)]),
    { path: 'src/app.ts', contents: appFile() },
    { path: 'src/security.ts', contents: securityFile() },
    { path: 'src/idempotency-store.ts', contents: idempotencyStoreFile() },
    ...families.filter((family) => family.limited).map((family) => ({ path: `src/${family.name}-meter.ts`, contents: meterFile(family) })),
    { path: 'src/server.ts', contents: serverFile() },
    { path: 'package.json', contents: `${JSON.stringify(packageJson(), null, 2)}\n` },
    { path: 'tsconfig.json', contents: `${JSON.stringify(tsconfig, null, 2)}\n` },
  ];
}

function tagsOf(family: Family): string[] {
  return [...new Set(family.routes.map((route) => route.tag))];
}

/** `Static addresses` → `static-addresses` (file) and `staticAddressesHandlers` (export). */
const fileName = (tag: string) => tag.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
const exportName = (tag: string) => `${camelCase(tag)}Handlers`;

function tagFiles(family: Family): StarterFile[] {
  const camel = camelCase(family.name);
  const pascal = pascalCase(family.name);
  return tagsOf(family).map((tag) => {
    const methods = family.routes
      .filter((route) => route.tag === tag)
      .map((route) => `  // ${route.method.toUpperCase()} ${family.basePath}${route.path}\n  ${route.operationId}: (_request, context) => ${camel}NotImplemented(context),`);
    return {
      path: `src/handlers/${family.name}/${fileName(tag)}.ts`,
      contents: `${header}
// The operations of the contract tag "${tag}". Each answers the contract's 501 until you
// implement it; the request arrives parsed and validated, typed by the generated handler interface.
import { ${camel}NotImplemented, type ${pascal}Handlers } from '../../generated/${family.name}/routes.js';

export const ${exportName(tag)} = {
${methods.join('\n')}
} satisfies Partial<${pascal}Handlers>;
`,
    };
  });
}

function familyIndex(family: Family): StarterFile {
  const tags = tagsOf(family);
  const pascal = pascalCase(family.name);
  return {
    path: `src/handlers/${family.name}/index.ts`,
    contents: `${header}
// Every handler of ${family.name}, one file per contract tag. An operation left out answers 501.
import type { ${pascal}Handlers } from '../../generated/${family.name}/routes.js';
${tags.map((tag) => `import { ${exportName(tag)} } from './${fileName(tag)}.js';`).join('\n')}

export const ${camelCase(family.name)}Handlers: Partial<${pascal}Handlers> = {
${tags.map((tag) => `  ...${exportName(tag)},`).join('\n')}
};
`,
  };
}

/** The route middleware of a family, in order: who calls, then the limits counted for the caller, then its idempotency keys. */
function routeSteps(family: Family): string[] {
  const camel = camelCase(family.name);
  return [
    `${camel}Security(${camel}Callers)`,
    ...(family.limited ? [`${camel}Limits(${camel}Meter)`] : []),
    ...(family.idempotent ? [`${camel}Idempotency(idempotencyStore)`] : []),
  ];
}

function appFile(): string {
  const imports = families.flatMap((family) => {
    const camel = camelCase(family.name);
    const steps = routeSteps(family).map((step) => step.slice(0, step.indexOf('(')));
    return [
      `import { ${camel}BodyParser, create${pascalCase(family.name)}Router, ${camel}RoutesBasePath, ${camel}Unmatched, ${steps.join(', ')} } from './generated/${family.name}/routes.js';`,
      `import { ${camel}Handlers } from './handlers/${family.name}/index.js';`,
      ...(family.limited ? [`import { ${camel}Meter } from './${family.name}-meter.js';`] : []),
    ];
  });
  const mounts = families.map((family) => {
    const camel = camelCase(family.name);
    const router = `create${pascalCase(family.name)}Router(${camel}Handlers, { routeMiddleware: inOrder(${routeSteps(family).join(', ')}) })`;
    return `  app.use(${camel}RoutesBasePath, ${camel}BodyParser(), ${router}, ${camel}Unmatched());`;
  });
  return `${header}
// The express app: per family, under its base path, the contract's JSON body parser (its body
// limit, the raw body kept for signatures), then the generated router: it checks the caller
// (security.ts), the scope and the signature, counts the request against the caller's limits
// (the meter), replays or refuses a repeated idempotency key (idempotency-store.ts), parses and
// validates the request, and answers failures in the contract's envelope, before your handlers;
// last, the contract's 404 and 405 for what no operation takes, and its 400 for a path that
// does not decode.
import express, { type Express, type RequestHandler } from 'express';
import type { RouteDefinition } from './generated/runtime/router-runtime.js';
${imports.join('\n')}
import { memoryIdempotencyStore } from './idempotency-store.js';
import { ${families.map((family) => `${camelCase(family.name)}Callers`).join(', ')} } from './security.js';

type RouteMiddleware = (route: RouteDefinition) => RequestHandler[];

/** Each route's middleware of every step, in the order given. */
const inOrder = (...steps: RouteMiddleware[]): RouteMiddleware => (route) => steps.flatMap((step) => step(route));

export function createApp(): Express {
  const app = express();
  const idempotencyStore = memoryIdempotencyStore();
${mounts.join('\n')}
  return app;
}
`;
}

/** The idempotency records: in memory, one process's; a starter for the implementer's shared store. */
function idempotencyStoreFile(): string {
  const types = families.find((family) => family.idempotent)?.name ?? families[0]!.name;
  return `${header}
// The records behind the contracts' idempotency keys, kept in this process's memory per caller
// and key for the operation's window. Several processes need a shared store whose reserve is one
// atomic step (a unique index on caller and key: INSERT … ON CONFLICT DO NOTHING).
import type { IdempotencySlot, IdempotencyStore, Reservation, StoredAnswer } from './generated/${types}/routes.js';

interface Entry {
  fingerprint: string;
  expiresAtMs: number;
  answer?: StoredAnswer;
}

export function memoryIdempotencyStore(): IdempotencyStore {
  // In reservation order, which is expiry order while every operation has the same window.
  const entries = new Map<string, Entry>();
  const idOf = (slot: IdempotencySlot) => \`\${slot.caller?.id ?? ''}\n\${slot.key}\`;
  return {
    reserve(slot, fingerprint, windowSeconds): Reservation {
      const nowMs = Date.now();
      for (const [id, entry] of entries) {
        if (entry.expiresAtMs > nowMs) break;
        entries.delete(id);
      }
      const held = entries.get(idOf(slot));
      if (held !== undefined) return held.answer === undefined ? { kind: 'in-flight', fingerprint: held.fingerprint } : { kind: 'stored', answer: held.answer };
      entries.set(idOf(slot), { fingerprint, expiresAtMs: nowMs + windowSeconds * 1000 });
      return { kind: 'reserved' };
    },
    complete(slot, answer) {
      const entry = entries.get(idOf(slot));
      if (entry !== undefined) entry.answer = answer;
    },
    release(slot) {
      entries.delete(idOf(slot));
    },
  };
}
`;
}

/** The meter behind a family's limit headers: in memory, with the contract's own figures. */
function meterFile(family: Family): string {
  const camel = camelCase(family.name);
  const pascal = pascalCase(family.name);
  return `${header}
// The meter behind the rate-limit and quota headers: per caller, in this process's memory, a
// minute from its first request and the UTC day and month, with the contract's figures
// (x-rate-limits); RATE_LIMIT_PER_MINUTE overrides the minute's. A refused request is not
// counted. Several processes need a shared meter (one atomic increment per window).
import { ${camel}Info } from './generated/${family.name}/contract-data.js';
import { ${camel}LimitFailures, type ${pascal}LimitWindow, type LimitMeter, type MeterReading, type WindowReading } from './generated/${family.name}/routes.js';

const figures = ${camel}Info['x-rate-limits'];
const allowed: Record<${pascal}LimitWindow, number> = {
  rate: Number(process.env.RATE_LIMIT_PER_MINUTE ?? figures.requests_per_minute),
  daily: figures.quota_daily,
  monthly: figures.quota_monthly,
};
const windows = Object.keys(${camel}LimitFailures) as ${pascal}LimitWindow[];

/** When a window opened at nowMs ends: the minute runs from the caller's first request in it, day and month by the calendar. */
function windowEnd(window: ${pascal}LimitWindow, nowMs: number): number {
  const now = new Date(nowMs);
  if (window === 'rate') return nowMs + 60_000;
  if (window === 'daily') return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
}

const used = new Map<string, Partial<Record<${pascal}LimitWindow, { endMs: number; count: number }>>>();

export const ${camel}Meter: LimitMeter<${pascal}LimitWindow> = {
  meter(caller): MeterReading<${pascal}LimitWindow> {
    const nowMs = Date.now();
    const counts = used.get(caller?.id ?? '') ?? {};
    used.set(caller?.id ?? '', counts);
    const current = (window: ${pascal}LimitWindow) => {
      const count = counts[window];
      return count !== undefined && count.endMs > nowMs ? count : (counts[window] = { endMs: windowEnd(window, nowMs), count: 0 });
    };
    const full = windows.find((window) => current(window).count >= allowed[window]);
    if (full === undefined) for (const window of windows) current(window).count += 1;
    const reading = (window: ${pascal}LimitWindow): WindowReading => ({
      limit: allowed[window],
      remaining: Math.max(0, allowed[window] - current(window).count),
      reset: Math.ceil(current(window).endMs / 1000),
    });
    return {
      windows: Object.fromEntries(windows.map((window) => [window, reading(window)])) as Record<${pascal}LimitWindow, WindowReading>,
      refused: full === undefined ? undefined : { window: full, retryAfterSeconds: Math.max(1, Math.ceil((current(full).endMs - nowMs) / 1000)) },
    };
  },
};
`;
}

/**
 * The look-ups behind the security schemes: a starter that knows one caller per family from
 * the environment, to be replaced by the implementer's key store.
 */
function securityFile(): string {
  return `${header}
// Who may call: the look-ups behind the contracts' security schemes. This starter knows one v3
// key (API_TOKEN, holding every scope the contract names; API_HMAC_SECRET makes it sign) and one
// v1 site (SITE_KEY, SITE_SECRET) from the environment; replace them with your key store. A
// caller's id keys its idempotency records and its meter.
import { exchangeV3Routes, type SecurityHooks } from './generated/exchange-v3/routes.js';

const everyScope = [...new Set(exchangeV3Routes.flatMap((route) => (typeof route.scope === 'string' ? [route.scope] : [])))];

export const exchangeV3Callers: SecurityHooks = {
  bearerToken: (token) =>
    process.env.API_TOKEN !== undefined && token === process.env.API_TOKEN ? { id: 'api-token', scopes: everyScope, signingSecret: process.env.API_HMAC_SECRET } : undefined,
};

export const depositV1Callers: SecurityHooks = {
  apiKey: (key) =>
    process.env.SITE_KEY !== undefined && key === process.env.SITE_KEY ? { id: \`site:\${key}\`, scopes: [], signingSecret: process.env.SITE_SECRET ?? '' } : undefined,
};
`;
}

function serverFile(): string {
  return `${header}
// Starts the app: PORT (default 4010; 0 for any free port) on HOST (default 127.0.0.1).
import type { AddressInfo } from 'node:net';
import { createApp } from './app.js';

const server = createApp().listen(Number(process.env.PORT ?? 4010), process.env.HOST ?? '127.0.0.1', () => {
  const { address, port } = server.address() as AddressInfo;
  console.log(\`listening on http://\${address}:\${port}\`);
});
`;
}

/** The versions the kit itself is built and tested with, so the starter installs what the generated code was checked against. */
function packageJson(): Record<string, unknown> {
  const kit = JSON.parse(readFileSync(kitPath('package.json'), 'utf8')) as { name: string; version: string; devDependencies: Record<string, string> };
  const pick = (names: string[]) => Object.fromEntries(names.map((name) => [name, kit.devDependencies[name]]));
  return {
    name: 'exchange-api-server',
    private: true,
    type: 'module',
    scripts: { start: 'tsx src/server.ts', typecheck: 'tsc --noEmit', generate: 'exchange-api-kit generate --out src/generated' },
    dependencies: pick(['ajv', 'ajv-formats', 'express']),
    // The kit itself, for `npm run generate` (the generated files) and `exchange-api-kit conformance`.
    devDependencies: { ...pick(['@types/express', '@types/node', 'tsx', 'typescript']), [kit.name]: kit.version },
  };
}

/** The strictest flags the kit's generated code is checked under. */
const tsconfig = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    lib: ['ES2023'],
    types: ['node'],
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    noImplicitOverride: true,
    skipLibCheck: false,
    noEmit: true,
  },
  include: ['src'],
};
