// Emits what servers read of a contract as data: the error catalog (`x-error-codes`, as
// <contract>/errors.ts) and the bundled document itself (<contract>/openapi.yaml, one file with
// internal references, which is what GET /openapi.yaml serves).
import { stringify } from 'yaml';
import type { ContractModel } from '../model.js';
import { banner, camelCase, pascalCase, type GeneratedFile } from './file.js';

export function emitErrorCatalog(model: ContractModel): GeneratedFile {
  const raw = (model.document as unknown as Record<string, unknown>)['x-error-codes'];
  const entries = (Array.isArray(raw) ? raw : []).map((entry: Record<string, unknown>) => [
    String(entry.code),
    { status: Number(entry.status), condition: String(entry.condition ?? '') },
  ]);
  const name = camelCase(model.name);
  return {
    path: `${model.name}/errors.ts`,
    contents: `${banner(model.source)}
// The error catalog of the contract (x-error-codes): every failure is rendered from it.

export const ${name}ErrorCodes = ${JSON.stringify(Object.fromEntries(entries), null, 2)} as const;

export type ${pascalCase(model.name)}ErrorCode = keyof typeof ${name}ErrorCodes;
`,
  };
}

export function emitBundledDocument(model: ContractModel): GeneratedFile {
  const text = stringify(model.document, { lineWidth: 0, aliasDuplicateObjects: false });
  return { path: `${model.name}/openapi.yaml`, contents: `# ${banner(model.source).slice(3)}\n${text}` };
}
