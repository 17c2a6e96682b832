// JSON serialised once. A view that many answers share and that never changes (a catalog route
// in one state, say) can be wrapped once with its UTF-8 JSON bytes; encodeJson splices those
// bytes into every answer that contains it instead of serialising and encoding the view again.
// For a large list answer that serialisation was most of the server's CPU per request.
import { randomUUID } from 'node:crypto';

/**
 * What a SerializedJson turns into inside encodeJson's JSON.stringify, to be replaced by its
 * bytes. The random part keeps any string a client sent from ever equalling it.
 */
const marker = `\u0000serialized-json ${randomUUID()}`;
const quotedMarker = JSON.stringify(marker);

/** The bytes of the SerializedJson values met by the encoding in progress, in text order. */
let collecting: Buffer[] | undefined;

/** The next SerializedJson's serial. */
let nextSerial = 0;

export class SerializedJson<Value = unknown> {
  readonly value: Value;
  readonly bytes: Buffer;
  /** Tells this wrapper from every other of the process: serializedArray keeps joined arrays by their items' serials. */
  readonly serial = nextSerial++;

  /**
   * The value must not change afterwards: its bytes are taken now. `encoded` is for
   * serializedArray alone: the value's UTF-8 JSON it joined from its items' bytes.
   */
  constructor(value: Value, encoded?: Buffer) {
    this.value = value;
    this.bytes = encoded ?? Buffer.from(JSON.stringify(value), 'utf8');
  }

  /**
   * Inside encodeJson: a marker where the bytes go. Anywhere else (a plain JSON.stringify): the
   * value itself, so the wrapper never changes what any serialisation produces.
   */
  toJSON(): unknown {
    if (collecting === undefined) return this.value;
    collecting.push(this.bytes);
    return marker;
  }
}

/** Arrays joined lately (serializedArray), by their items' serials; the least recently used goes first. */
const joinedArrays = new Map<string, SerializedJson<unknown[]>>();
/** Enough for the pages a sandbox's clients poll at once; at most a few MB of bytes. */
const joinedArraysKept = 64;
const openBracket = Buffer.from('[');
const comma = Buffer.from(',');
const closeBracket = Buffer.from(']');

/**
 * An array of SerializedJson items as one SerializedJson: its bytes are the items' joined, so an
 * answer's encoding splices one run of bytes in rather than one per item. For a page of 20
 * routes that was about half of the encoding's CPU: JSON.stringify met 20 markers and the
 * answer was assembled from 41 pieces. A page that clients poll is the same items call after
 * call, so the joined array is kept, by their serials, while its items are those same
 * wrappers: an item that changed is a new wrapper, so a new array.
 */
export function serializedArray<Item>(items: readonly SerializedJson<Item>[]): SerializedJson<Item[]> {
  let key = '';
  for (const item of items) key += `${item.serial},`;
  const kept = joinedArrays.get(key) as SerializedJson<Item[]> | undefined;
  if (kept !== undefined) {
    joinedArrays.delete(key);
    joinedArrays.set(key, kept);
    return kept;
  }
  const parts: Buffer[] = [openBracket];
  items.forEach((item, i) => {
    if (i > 0) parts.push(comma);
    parts.push(item.bytes);
  });
  parts.push(closeBracket);
  const joined = new SerializedJson(items.map((item) => item.value), Buffer.concat(parts));
  joinedArrays.set(key, joined);
  if (joinedArrays.size > joinedArraysKept) joinedArrays.delete(joinedArrays.keys().next().value!);
  return joined;
}

/** The JSON of a value as UTF-8 bytes, each SerializedJson in it spliced in from its bytes. */
export function encodeJson(value: unknown): Buffer {
  const chunk = jsonChunk(value);
  return typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
}

/**
 * The JSON of a value as one chunk for a socket write, its `length` the byte count: an ASCII
 * text stays the string itself (node writes it out with the headers in one piece, where UTF-8
 * bytes made first cost a copy and a second write of the headers: about 10 % of a small
 * answer's CPU in a bare node:http server); any other text is encoded once as UTF-8 bytes (a
 * large non-ASCII text, such as a route list's `→`, cost more written as a string, since node
 * then walks it once for its length and once to encode it). Answers holding a SerializedJson
 * are bytes.
 */
export function jsonChunk(value: unknown): string | Buffer {
  const spliced: Buffer[] = [];
  collecting = spliced;
  let text: string;
  try {
    text = JSON.stringify(value);
  } finally {
    collecting = undefined;
  }
  if (spliced.length === 0) return Buffer.byteLength(text, 'utf8') === text.length ? text : Buffer.from(text, 'utf8');
  const parts = text.split(quotedMarker);
  // Unreachable unless a string in the value held the marker: serialise plainly, never splice wrong.
  if (parts.length !== spliced.length + 1) return Buffer.from(JSON.stringify(value), 'utf8');
  const chunks: Buffer[] = [];
  parts.forEach((part, i) => {
    chunks.push(Buffer.from(part, 'utf8'));
    if (i < spliced.length) chunks.push(spliced[i]!);
  });
  return Buffer.concat(chunks);
}
