// The files of a starter server for the kit's two API families, built from the generated route
// tables (operations, tags, base paths): one handler file per contract tag, each operation
// answering the contract's typed 501 until it is implemented, an index per family that joins
// them, the express app that mounts the generated routers, a server entry, package.json and a
// strict tsconfig. They are the user's files: scaffold writes each once and never replaces it.
import { readFileSync } from 'node:fs';
import { depositV1Routes, depositV1RoutesBasePath } from '../../generated/deposit-v1/routes.js';
import { exchangeV3Routes, exchangeV3RoutesBasePath } from '../../generated/exchange-v3/routes.js';
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
}

const families: Family[] = [
  { name: 'exchange-v3', routes: exchangeV3Routes, basePath: exchangeV3RoutesBasePath },
  { name: 'deposit-v1', routes: depositV1Routes, basePath: depositV1RoutesBasePath },
];

const header = '// Written once by `exchange-api-kit scaffold`: yours to edit; `generate` never touches it.';

export function starterFiles(): StarterFile[] {
  return [
    ...families.flatMap((family) => [...tagFiles(family), familyIndex(family)]),
    { path: 'src/app.ts', contents: appFile() },
    { path: 'src/security.ts', contents: securityFile() },
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

function appFile(): string {
  const imports = families.flatMap((family) => {
    const camel = camelCase(family.name);
    return [
      `import { create${pascalCase(family.name)}Router, ${camel}RoutesBasePath, ${camel}Security } from './generated/${family.name}/routes.js';`,
      `import { ${camel}Handlers } from './handlers/${family.name}/index.js';`,
    ];
  });
  const mounts = families.map((family) => {
    const camel = camelCase(family.name);
    return `  app.use(${camel}RoutesBasePath, create${pascalCase(family.name)}Router(${camel}Handlers, { routeMiddleware: ${camel}Security(${camel}Callers) }));`;
  });
  return `${header}
// The express app: a JSON body parser that keeps the raw body (signatures cover it), then the
// generated routers: each checks the caller (security.ts), the scope and the signature, parses
// and validates the request, and answers failures in the contract's envelope, before your handlers.
import express, { type Express } from 'express';
import { keepRawBody } from './generated/runtime/server-security.js';
${imports.join('\n')}
import { ${families.map((family) => `${camelCase(family.name)}Callers`).join(', ')} } from './security.js';

export function createApp(): Express {
  const app = express();
  app.use(express.json({ limit: '1mb', verify: keepRawBody }));
${mounts.join('\n')}
  return app;
}
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
// v1 site (SITE_KEY, SITE_SECRET) from the environment; replace them with your key store.
import { exchangeV3Routes, type SecurityHooks } from './generated/exchange-v3/routes.js';

const everyScope = [...new Set(exchangeV3Routes.flatMap((route) => (typeof route.scope === 'string' ? [route.scope] : [])))];

export const exchangeV3Callers: SecurityHooks = {
  bearerToken: (token) =>
    process.env.API_TOKEN !== undefined && token === process.env.API_TOKEN ? { scopes: everyScope, signingSecret: process.env.API_HMAC_SECRET } : undefined,
};

export const depositV1Callers: SecurityHooks = {
  apiKey: (key) =>
    process.env.SITE_KEY !== undefined && key === process.env.SITE_KEY ? { scopes: [], signingSecret: process.env.SITE_SECRET ?? '' } : undefined,
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
