// A uuid kept by the million (an order's tracking id) as its 16 bytes in a latin1 string: 32
// bytes of heap, where the 36 characters of its text take 56. Any other id is kept verbatim
// behind a marker no compact form starts with (compact forms hold latin1 characters only), so
// every id reads back exactly as given.

const canonical = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const verbatim = '\u0100';

/** The key `id` is kept as; equal ids give equal keys. */
export function compactUuid(id: string): string {
  return canonical.test(id) ? Buffer.from(id.replaceAll('-', ''), 'hex').toString('latin1') : verbatim + id;
}

/** The id a key was made from. */
export function expandUuid(key: string): string {
  if (key.startsWith(verbatim)) return key.slice(verbatim.length);
  const hex = Buffer.from(key, 'latin1').toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
