// The router runtime's JSON encoding: values wrapped once in SerializedJson (the catalog's route
// views) are spliced into answers as bytes, and the bytes must be exactly what serialising the
// plain value would give, wherever the wrappers sit and whatever the other strings hold.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeJson, jsonChunk, SerializedJson, serializedArray } from '../../generator/runtime/serialized-json.js';

/** Any JSON value, strings with any code points (the → of route names, NUL, lone surrogates). */
const jsonValue = fc.jsonValue({ maxDepth: 3, stringUnit: 'binary' });

/** The value with some of its objects and arrays (seeded choice) replaced by SerializedJson wrappers. */
function wrapSome(value: unknown, choose: () => boolean): unknown {
  if (value === null || typeof value !== 'object') return value;
  const inner = Array.isArray(value)
    ? value.map((item) => wrapSome(item, choose))
    : Object.fromEntries(Object.entries(value).map(([key, item]) => [key, wrapSome(item, choose)]));
  return choose() ? new SerializedJson(inner) : inner;
}

describe('encodeJson', () => {
  it('gives the bytes of JSON.stringify of the plain value, with or without SerializedJson parts', () => {
    fc.assert(
      fc.property(jsonValue, fc.array(fc.boolean(), { minLength: 1, maxLength: 16 }), (value, choices) => {
        let turn = 0;
        const wrapped = wrapSome(value, () => choices[turn++ % choices.length]!);
        expect(encodeJson(wrapped).toString('utf8')).toBe(JSON.stringify(value));
      }),
      { numRuns: 300 },
    );
  });

  it('splices a shared view in every place it appears, and a plain JSON.stringify still sees the value', () => {
    const view = new SerializedJson({ id: 7, name: 'BTC → USDT', limits: { min_give: '0.001' } });
    const answer = { state: 0, result: { routes: [view, view], route: view }, meta: { note: '\u0000serialized-json' } };
    const plain = JSON.stringify({ state: 0, result: { routes: [view.value, view.value], route: view.value }, meta: answer.meta });
    expect(encodeJson(answer).toString('utf8')).toBe(plain);
    expect(JSON.stringify(answer)).toBe(plain);
  });

  it('takes the bytes when wrapped: the wrapper is for values that no longer change', () => {
    const value = { amount: '1.5' };
    const view = new SerializedJson(value);
    value.amount = '2';
    expect(encodeJson({ view }).toString('utf8')).toBe('{"view":{"amount":"1.5"}}');
  });
});

describe('jsonChunk', () => {
  it('is the JSON of the value, its length the UTF-8 byte count an answer gives as Content-Length', () => {
    fc.assert(
      fc.property(jsonValue, fc.boolean(), (value, wrap) => {
        const chunk = jsonChunk(wrap ? { wrapped: new SerializedJson(value) } : value);
        const text = JSON.stringify(wrap ? { wrapped: value } : value);
        const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
        expect(bytes.toString('utf8')).toBe(text);
        expect(chunk.length).toBe(Buffer.byteLength(text, 'utf8'));
      }),
      { numRuns: 300 },
    );
  });
});

describe('serializedArray', () => {
  it('encodes as the array of its items\' values, inside an answer as on its own', () => {
    fc.assert(
      fc.property(fc.array(jsonValue.filter((value) => value !== undefined), { maxLength: 12 }), (values) => {
        const joined = serializedArray(values.map((value) => new SerializedJson(value)));
        expect(encodeJson({ data: joined, meta: { page: 1 } }).toString('utf8')).toBe(JSON.stringify({ data: values, meta: { page: 1 } }));
        expect(JSON.stringify(joined)).toBe(JSON.stringify(values));
      }),
      { numRuns: 300 },
    );
  });

  it('is joined once for the same items, and anew when one of them is a new view', () => {
    const first = new SerializedJson({ id: 1, state: 'new' });
    const second = new SerializedJson({ id: 2, state: 'new' });
    const page = serializedArray([first, second]);
    expect(serializedArray([first, second])).toBe(page);

    const secondChanged = new SerializedJson({ id: 2, state: 'expired' });
    const changed = serializedArray([first, secondChanged]);
    expect(changed).not.toBe(page);
    expect(changed.bytes.toString('utf8')).toBe('[{"id":1,"state":"new"},{"id":2,"state":"expired"}]');
    expect(serializedArray([second, first]).bytes.toString('utf8')).toBe('[{"id":2,"state":"new"},{"id":1,"state":"new"}]');
  });
});
