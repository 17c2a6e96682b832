// The bundled contracts (generated/<contract>/openapi.yaml: one file, internal references), read
// and parsed once per process for every module that reads contract data the generated code does
// not carry as TypeScript (list defaults, webhook catalogs, operation extensions). The document
// is parsed from the generator's JSON text of it (bundled-document.js): parsing the YAML took
// about a third of the server's start-up.
import { readFileSync } from 'node:fs';
import { kitPath } from '../kit-files.js';
import depositV1Json from '../generated/deposit-v1/bundled-document.js';
import exchangeV3Json from '../generated/exchange-v3/bundled-document.js';
import sandboxControlJson from '../generated/sandbox-control/bundled-document.js';

export type BundledContract = 'exchange-v3' | 'deposit-v1' | 'sandbox-control';

const jsonTexts: Record<BundledContract, string> = { 'exchange-v3': exchangeV3Json, 'deposit-v1': depositV1Json, 'sandbox-control': sandboxControlJson };
const texts = new Map<BundledContract, string>();
const documents = new Map<BundledContract, Record<string, unknown>>();

/** The bundled document as served (GET /openapi.yaml serves exchange-v3's). */
export function bundledText(contract: BundledContract): string {
  let text = texts.get(contract);
  if (text === undefined) {
    text = readFileSync(kitPath(`generated/${contract}/openapi.yaml`), 'utf8');
    texts.set(contract, text);
  }
  return text;
}

export function bundledDocument(contract: BundledContract): Record<string, unknown> {
  let document = documents.get(contract);
  if (document === undefined) {
    document = JSON.parse(jsonTexts[contract]) as Record<string, unknown>;
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

/**
 * A numeric keyword of a named schema, or of one of its properties: `schemaBound('exchange-v3',
 * 'WebhookAttemptResponse.body', 'maxLength')`. Throws when the contract does not say it, so a
 * bound the mock enforces is never one it made up.
 */
export function schemaBound(contract: BundledContract, where: string, keyword: 'minimum' | 'maximum' | 'maxLength'): number {
  type Schema = Record<string, unknown> & { properties?: Record<string, Schema> };
  const [name = '', property] = where.split('.');
  const schemas = ((bundledDocument(contract).components as { schemas?: Record<string, Schema> } | undefined)?.schemas ?? {}) as Record<string, Schema>;
  const schema = property === undefined ? schemas[name] : schemas[name]?.properties?.[property];
  const value = schema?.[keyword];
  if (typeof value !== 'number') throw new Error(`the ${contract} contract: ${where} has no ${keyword}`);
  return value;
}
