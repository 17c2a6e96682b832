// What makes two requests "the same request" for an idempotency key (the contracts' "the same key
// with the same request replays the stored response"): the method, the path with its query
// string as sent, and what the body says rather than how it was serialised, as Stripe compares a
// request's parameters and not its bytes. A client's retry may serialise the same data again with
// another library, another key order, pretty-printed, or a multipart form with a new random
// boundary: all of these are the same request.
// - A JSON body is parsed and written canonically: object keys sorted (recursively), no
//   whitespace, strings and numbers as JSON.stringify writes what JSON.parse read. So `1.0`, `1`
//   and `1e0` are one number (as are two integers past 2^53 that parse to the same double) and
//   `"\u0041"` is `"A"`: the handler receives exactly the same value from each, so each has the
//   same effect. That loses nothing here: money is a decimal string in both contracts (`"0.10"`
//   and `"0.1"` stay different requests), numbers are ids and counts. A field left out and the
//   same field sent with its default value are different requests.
// - A multipart/form-data body is its parts in order (RFC 7578 keeps a form's order, and a
//   repeated name is a list in that order): each part's field name, file name, media type and the
//   SHA-256 of its content; never the boundary or the framing around the parts.
// - Any other body is the SHA-256 of its bytes; no body is that of nothing.
// The kind of body is part of the fingerprint, so no JSON text collides with a form or raw bytes.
import { hash } from 'node:crypto';

/** One part of a multipart/form-data body as the server's parser read it. */
export interface FormPart {
  /** The field name (the part's Content-Disposition `name`). */
  name: string;
  /** The file name of a file part; null for a plain field. */
  filename: string | null;
  /** The part's media type without parameters. */
  contentType: string;
  /** Hex SHA-256 of the part's content. */
  sha256: string;
}

/** The parts of a form, and whether the parser stopped before its end (a limit on parts or files). */
export interface ReadForm {
  parts: readonly FormPart[];
  /** True when parts followed that the parser did not read: a form with more is not the same request. */
  truncated: boolean;
}

/** A request's body as the server read it. */
export type FingerprintBody =
  | { kind: 'json'; value: unknown }
  | { kind: 'form'; form: ReadForm }
  | { kind: 'bytes'; sha256: string };

/** The body of a request that has none. */
export const noFingerprintBody: FingerprintBody = { kind: 'bytes', sha256: hash('sha256', '', 'hex') };

export function requestFingerprint(method: string, target: string, body: FingerprintBody): string {
  return `${method.toUpperCase()} ${target} ${body.kind}:${bodyDigest(body)}`;
}

function bodyDigest(body: FingerprintBody): string {
  switch (body.kind) {
    case 'bytes':
      return body.sha256;
    case 'json':
      return hash('sha256', canonicalJson(body.value), 'hex');
    case 'form':
      return hash('sha256', canonicalJson(body.form), 'hex');
  }
}

/** What is left to write: text as it is, or a value to write canonically. */
type Step = { text: string } | { value: unknown };

/**
 * A JSON value as canonical text: object keys sorted by code unit, no whitespace. Written by hand
 * rather than JSON.stringify with a replacer, which copies every object to sort it; and with a
 * stack of its own, not by recursion: a body nested tens of thousands deep is a few KB of brackets
 * any JSON parser takes, and would overflow the call stack (a 500 before the request is validated).
 */
export function canonicalJson(value: unknown): string {
  let text = '';
  const steps: Step[] = [{ value }];
  for (let step = steps.pop(); step !== undefined; step = steps.pop()) {
    if ('text' in step) {
      text += step.text;
      continue;
    }
    const current = step.value;
    // JSON.parse reads a number too large for a double (1e400) as Infinity, which JSON.stringify would write as null.
    if (typeof current === 'number' && !Number.isFinite(current)) text += String(current);
    else if (current === null || typeof current !== 'object') text += JSON.stringify(current);
    else {
      const keys = Array.isArray(current) ? undefined : Object.keys(current).sort();
      const items: unknown[] = keys === undefined ? (current as unknown[]) : keys.map((key) => (current as Record<string, unknown>)[key]);
      text += keys === undefined ? '[' : '{';
      // The stack gives back the last step first: the closing bracket goes in first.
      steps.push({ text: keys === undefined ? ']' : '}' });
      for (let i = items.length - 1; i >= 0; i -= 1) {
        steps.push({ value: items[i] });
        steps.push({ text: `${i === 0 ? '' : ','}${keys === undefined ? '' : `${JSON.stringify(keys[i])}:`}` });
      }
    }
  }
  return text;
}
