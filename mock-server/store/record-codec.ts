// Records are kept as JSON documents by the database engines; their Dates survive the round trip as
// `{"$date": epochMs}` (JSON.stringify would turn them into strings that read back as strings).
export const dateTag = '$date';

export function encodeRecord(record: unknown): string {
  return JSON.stringify(record, function (this: Record<string, unknown>, key, value: unknown) {
    const raw = this[key];
    return raw instanceof Date ? { [dateTag]: raw.getTime() } : value;
  });
}

export function decodeRecord<T>(text: string): T {
  return JSON.parse(text, (_key, value: unknown) => {
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      const tagged = value as Record<string, unknown>;
      const keys = Object.keys(tagged);
      if (keys.length === 1 && keys[0] === dateTag && typeof tagged[dateTag] === 'number') return new Date(tagged[dateTag]);
    }
    return value;
  }) as T;
}
