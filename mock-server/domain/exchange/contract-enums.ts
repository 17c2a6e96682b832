// Enumerations of the v3 contract that restoring records from a snapshot checks values against
// (the control contract keeps them as plain strings, so the list lives only in the v3 contract).
import { bundledDocument } from '../../bundled-contracts.js';

interface SchemaNode {
  enum?: unknown;
  properties?: Record<string, SchemaNode>;
}

/** The enum of the v3 schema `schema`, or of its property `property`; throws when there is none. */
export function v3Enum<T extends string>(schema: string, property?: string): T[] {
  const schemas = (bundledDocument('exchange-v3').components as { schemas?: Record<string, SchemaNode> } | undefined)?.schemas;
  const node = property === undefined ? schemas?.[schema] : schemas?.[schema]?.properties?.[property];
  const values = node?.enum;
  if (!Array.isArray(values) || !values.every((v) => typeof v === 'string')) throw new Error(`v3 contract: ${[schema, property].filter(Boolean).join('.')} has no enum`);
  return values as T[];
}
