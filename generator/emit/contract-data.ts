// Emits what servers read of a contract as data: <contract>/contract-data.ts with the error
// catalog (`x-error-codes`) and the `info` extensions (rate limits, webhook signing, error
// format), and the bundled document itself (<contract>/openapi.yaml, one file with internal
// references, which is what GET /openapi.yaml serves; bundled-document.js, the same as JSON text).
import { stringify } from 'yaml';
import type { ContractModel } from '../model.js';
import { banner, camelCase, pascalCase, type GeneratedFile } from './file.js';

export function emitContractData(model: ContractModel): GeneratedFile {
  const document = model.document as unknown as Record<string, unknown>;
  const info = (document.info ?? {}) as Record<string, unknown>;
  const extensions = Object.fromEntries(Object.entries(info).filter(([key]) => key.startsWith('x-')));
  const entries = model.errorCatalog.map(({ code, status, condition }) => [code, { status, condition }]);
  const name = camelCase(model.name);
  return {
    path: `${model.name}/contract-data.ts`,
    contents: `${banner(model.source)}

/** The error catalog of the contract (x-error-codes): every failure is rendered from it. */
export const ${name}ErrorCodes = ${JSON.stringify(Object.fromEntries(entries), null, 2)} as const;

export type ${pascalCase(model.name)}ErrorCode = keyof typeof ${name}ErrorCodes;

/**
 * Response header names by their component (\`components/headers\`), as the contract's responses
 * use them: \`${name}HeaderNames.XRateLimitLimit\` is \`'X-RateLimit-Limit'\`.
 */
export const ${name}HeaderNames = ${JSON.stringify(responseHeaderNames(document), null, 2)} as const;

/** Header parameter names by their component (\`components/parameters\` with \`in: header\`). */
export const ${name}HeaderParameters = ${JSON.stringify(headerParameterNames(document), null, 2)} as const;

/** The security schemes (header names, signing rules) as the contract declares them. */
export const ${name}SecuritySchemes = ${JSON.stringify(model.securitySchemes, null, 2)} as const;

/** The contract's title, version and \`info\` extensions (x-rate-limits, x-webhook-signature, …). */
export const ${name}Info = ${JSON.stringify({ title: model.title, version: model.version, ...extensions }, null, 2)} as const;
`,
  };
}

function headerParameterNames(document: Record<string, unknown>): Record<string, string> {
  const components = (document.components ?? {}) as { parameters?: Record<string, { in?: unknown; name?: unknown }> };
  return Object.fromEntries(
    Object.entries(components.parameters ?? {})
      .filter(([, parameter]) => parameter.in === 'header' && typeof parameter.name === 'string')
      .map(([component, parameter]) => [component, String(parameter.name)] as [string, string])
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

/** Every `{ <header name>: { $ref: '#/components/headers/<Component>' } }` of every response. */
export function responseHeaderNames(document: Record<string, unknown>): Record<string, string> {
  const names = new Map<string, string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'headers' && value !== null && typeof value === 'object' && !Array.isArray(value)) {
        for (const [header, definition] of Object.entries(value)) {
          const ref = (definition as { $ref?: unknown }).$ref;
          if (typeof ref === 'string' && ref.startsWith('#/components/headers/')) names.set(ref.slice('#/components/headers/'.length), header);
        }
      }
      walk(value);
    }
  };
  walk(document);
  return Object.fromEntries([...names].sort(([a], [b]) => a.localeCompare(b)));
}

/**
 * The bundled document as YAML (served), and the same document as JSON text in a module
 * (bundled-document.js, with its .d.ts): the mock server parses that at run time, as parsing the
 * YAML took about a third of its start-up.
 */
export function emitBundledDocument(model: ContractModel): GeneratedFile[] {
  const text = stringify(model.document, { lineWidth: 0, aliasDuplicateObjects: false });
  const note = '// The bundled document (openapi.yaml) as JSON text: JSON.parse reads it far faster than a YAML parser.';
  return [
    { path: `${model.name}/openapi.yaml`, contents: `# ${banner(model.source).slice(3)}\n${text}` },
    { path: `${model.name}/bundled-document.js`, contents: `${banner(model.source)}\n${note}\nexport default ${JSON.stringify(JSON.stringify(model.document))};\n` },
    { path: `${model.name}/bundled-document.d.ts`, contents: `${banner(model.source)}\n${note}\ndeclare const json: string;\nexport default json;\n` },
  ];
}
