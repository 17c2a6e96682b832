// The runtime's definition of "the same request" (request-fingerprint.ts), which the mock and the
// generated idempotency middleware share: JSON by value written canonically, a form by its parts
// in order, the kind of body part of the fingerprint. The HTTP behaviour is tested against the
// mock (test/mock-server/idempotency-fingerprint.test.ts, test/security/multipart-signature.test.ts)
// and the generated middleware (test/generator/server-hooks.test.ts).
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson, requestFingerprint, type FormPart } from '../../generated/runtime/request-fingerprint.js';

const parse = (text: string): unknown => JSON.parse(text);

describe('canonicalJson', () => {
  it('writes the same value the same way whatever its key order, whitespace or escapes', () => {
    const texts = ['{"b":{"y":[1,{"q":2,"p":1}],"x":"A"},"a":null}', '{ "a": null, "b": { "x": "\\u0041", "y": [1.0, { "p": 1, "q": 2e0 }] } }'];
    expect(texts.map((text) => canonicalJson(parse(text)))).toEqual(['{"a":null,"b":{"x":"A","y":[1,{"p":1,"q":2}]}}', '{"a":null,"b":{"x":"A","y":[1,{"p":1,"q":2}]}}']);
  });

  it('keeps apart what the handler would receive differently', () => {
    const distinct = ['[1,2]', '[2,1]', '{"a":1}', '{"a":"1"}', '{"a":"0.10"}', '{"a":"0.1"}', '{"a":null}', '{"a":1e400}', '{"a":-1e400}', '{}'];
    expect(new Set(distinct.map((text) => canonicalJson(parse(text)))).size).toBe(distinct.length);
  });
});

describe('requestFingerprint', () => {
  const part = (name: string, sha256: string): FormPart => ({ name, filename: null, contentType: 'text/plain', sha256 });

  it('covers the method (in any case) and the path and query as sent', () => {
    const body = { kind: 'json', value: { a: 1 } } as const;
    expect(requestFingerprint('post', '/x?a=1', body)).toBe(requestFingerprint('POST', '/x?a=1', body));
    expect(requestFingerprint('POST', '/x?a=1', body)).not.toBe(requestFingerprint('PUT', '/x?a=1', body));
    expect(requestFingerprint('POST', '/x?a=1&b=2', body)).not.toBe(requestFingerprint('POST', '/x?b=2&a=1', body));
  });

  it('tells the kinds of body apart: JSON text is not the same request as the same bytes', () => {
    const text = canonicalJson({ a: 1 });
    const bytes = { kind: 'bytes', sha256: createHash('sha256').update(text).digest('hex') } as const;
    expect(requestFingerprint('POST', '/x', { kind: 'json', value: { a: 1 } })).not.toBe(requestFingerprint('POST', '/x', bytes));
  });

  it('takes a form part by part, in order, and a form the parser cut short as another one', () => {
    const [a, b] = [part('a', '1'.repeat(64)), part('b', '2'.repeat(64))];
    const form = (parts: FormPart[], truncated = false) => requestFingerprint('POST', '/x', { kind: 'form', form: { parts, truncated } });
    expect(form([a, b])).toBe(form([{ ...a }, { ...b }]));
    expect(form([a, b])).not.toBe(form([b, a]));
    expect(form([a])).not.toBe(form([a], true));
    expect(form([a])).not.toBe(form([{ ...a, filename: 'a.txt' }]));
  });
});
