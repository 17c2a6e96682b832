// Reads one version of a contract for the diff: a YAML or JSON OpenAPI document. A document that
// references other files (the kit's contracts/ refer to schemas/*.json) is bundled into one with
// swagger-parser, which a checkout of the kit has; elsewhere, compare bundled documents (what
// GET /api/v3/openapi.yaml serves, or the kit's generated/<contract>/openapi.yaml).
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

export class UnreadableContract extends Error {}

export async function readContract(path: string): Promise<unknown> {
  let document: unknown;
  try {
    document = parse(readFileSync(path, 'utf8'), { maxAliasCount: -1 });
  } catch (error) {
    throw new UnreadableContract(`${path}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  }
  if (typeof document !== 'object' || document === null || !('openapi' in document)) {
    throw new UnreadableContract(`${path}: not an OpenAPI document (no "openapi" field)`);
  }
  return hasExternalRef(document) ? bundle(path) : document;
}

function hasExternalRef(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(hasExternalRef);
  if (typeof node !== 'object' || node === null) return false;
  const ref = (node as { $ref?: unknown }).$ref;
  if (typeof ref === 'string' && !ref.startsWith('#')) return true;
  return Object.values(node).some(hasExternalRef);
}

async function bundle(path: string): Promise<unknown> {
  let SwaggerParser;
  try {
    ({ default: SwaggerParser } = await import('@apidevtools/swagger-parser'));
  } catch {
    throw new UnreadableContract(`${path} refers to other files: compare bundled documents (GET /api/v3/openapi.yaml, or the kit's generated/<contract>/openapi.yaml)`);
  }
  try {
    return await SwaggerParser.bundle(path);
  } catch (error) {
    throw new UnreadableContract(`${path}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  }
}
