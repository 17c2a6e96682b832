// Emits what servers read of a contract as data: <contract>/contract-data.ts with the error
// catalog (`x-error-codes`) and the `info` extensions (rate limits, webhook signing, error
// format), and the bundled document itself (<contract>/openapi.yaml, one file with internal
// references, which is what GET /openapi.yaml serves).
import { stringify } from 'yaml';
import type { ContractModel } from '../model.js';
import { banner, camelCase, pascalCase, type GeneratedFile } from './file.js';

export function emitContractData(model: ContractModel): GeneratedFile {
  const document = model.document as unknown as Record<string, unknown>;
  const raw = document['x-error-codes'];
  const info = (document.info ?? {}) as Record<string, unknown>;
  const extensions = Object.fromEntries(Object.entries(info).filter(([key]) => key.startsWith('x-')));
  const entries = (Array.isArray(raw) ? raw : []).map((entry: Record<string, unknown>) => [
    String(entry.code),
    { status: Number(entry.status), condition: String(entry.condition ?? '') },
  ]);
  const name = camelCase(model.name);
  return {
    path: `${model.name}/contract-data.ts`,
    contents: `${banner(model.source)}

/** The error catalog of the contract (x-error-codes): every failure is rendered from it. */
export const ${name}ErrorCodes = ${JSON.stringify(Object.fromEntries(entries), null, 2)} as const;

export type ${pascalCase(model.name)}ErrorCode = keyof typeof ${name}ErrorCodes;

/** The security schemes (header names, signing rules) as the contract declares them. */
export const ${name}SecuritySchemes = ${JSON.stringify(model.securitySchemes, null, 2)} as const;

/** The contract's title, version and \`info\` extensions (x-rate-limits, x-webhook-signature, …). */
export const ${name}Info = ${JSON.stringify({ title: model.title, version: model.version, ...extensions }, null, 2)} as const;
`,
  };
}

export function emitBundledDocument(model: ContractModel): GeneratedFile {
  const text = stringify(model.document, { lineWidth: 0, aliasDuplicateObjects: false });
  return { path: `${model.name}/openapi.yaml`, contents: `# ${banner(model.source).slice(3)}\n${text}` };
}
