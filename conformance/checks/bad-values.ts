// Values a parameter's schema forbids, derived from the schema itself (a bound, an enum, a
// pattern, a format, a type): the bad input of the validation checks.

type Schema = Record<string, unknown>;

/** A value the schema rejects, or undefined when the schema constrains nothing we can break. */
export function violatingValue(schema: Schema): string | number | undefined {
  const items = typeof schema.items === 'object' && schema.items !== null ? (schema.items as Schema) : undefined;
  if (schema.type === 'array' && items !== undefined) return violatingValue(items);
  if (typeof schema.maximum === 'number') return schema.maximum + 1;
  if (typeof schema.minimum === 'number') return schema.minimum - 1;
  if (schema.type === 'integer' || schema.type === 'number') return 'not-a-number';
  if (Array.isArray(schema.enum)) return 'not-in-the-enum';
  if (typeof schema.maxLength === 'number') return 'x'.repeat(schema.maxLength + 1);
  if (schema.format === 'uuid' || schema.format === 'date-time' || typeof schema.pattern === 'string') return '!not valid!';
  return undefined;
}
