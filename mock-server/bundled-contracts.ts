// The bundled contracts (generated/<contract>/openapi.yaml: one file, internal references), read
// and parsed once per process for every module that reads contract data the generated code does
// not carry as TypeScript (list defaults, webhook catalogs, operation extensions).
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

export type BundledContract = 'exchange-v3' | 'deposit-v1' | 'sandbox-control';

const texts = new Map<BundledContract, string>();
const documents = new Map<BundledContract, Record<string, unknown>>();

/** The bundled document as served (GET /openapi.yaml serves exchange-v3's). */
export function bundledText(contract: BundledContract): string {
  let text = texts.get(contract);
  if (text === undefined) {
    text = readFileSync(new URL(`../generated/${contract}/openapi.yaml`, import.meta.url), 'utf8');
    texts.set(contract, text);
  }
  return text;
}

export function bundledDocument(contract: BundledContract): Record<string, unknown> {
  let document = documents.get(contract);
  if (document === undefined) {
    document = parse(bundledText(contract), { maxAliasCount: -1 }) as Record<string, unknown>;
    documents.set(contract, document);
  }
  return document;
}

/** A vendor extension of one operation (by operationId), e.g. x-rate-limit; undefined if absent. */
export function operationExtension(contract: BundledContract, operationId: string, extension: string): unknown {
  const paths = (bundledDocument(contract).paths ?? {}) as Record<string, Record<string, Record<string, unknown>>>;
  for (const item of Object.values(paths)) {
    for (const operation of Object.values(item)) {
      if (operation !== null && typeof operation === 'object' && operation.operationId === operationId) return operation[extension];
    }
  }
  return undefined;
}
