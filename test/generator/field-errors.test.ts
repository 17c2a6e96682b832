// fieldErrors: a server's `location.field` keys become the answer's field names and locations.
import { describe, expect, it } from 'vitest';
import { fieldErrors } from '../../generator/runtime/field-errors.js';

describe('fieldErrors', () => {
  it.each([
    ['a query parameter', { 'query.per_page': ['must be <= 100'] }, { per_page: ['must be <= 100'] }, { per_page: 'query' }],
    ['a nested body field', { 'body.requisites.to_address': ['is not a TRON address'] }, { 'requisites.to_address': ['is not a TRON address'] }, { 'requisites.to_address': 'body' }],
    ['a header', { 'headers.idempotency-key': ['is too short'] }, { 'idempotency-key': ['is too short'] }, { 'idempotency-key': 'header' }],
    ['a path parameter', { 'path.order': ['is not valid'] }, { order: ['is not valid'] }, { order: 'path' }],
    ['the missing body itself', { body: ['is required'] }, { body: ['is required'] }, { body: 'body' }],
    ['context that names no request field', { scope: ['exchange:orders:create'] }, { scope: ['exchange:orders:create'] }, {}],
    ['one name in two places', { 'path.order': ['a'], 'body.order': ['a', 'b'] }, { order: ['a', 'b'] }, { order: 'path' }],
  ])('%s', (_case, qualified, details, locations) => {
    expect(fieldErrors(qualified)).toEqual({ details, locations });
  });

  it('keeps a field named __proto__ as an own property (an unknown body property)', () => {
    const { details, locations } = fieldErrors(JSON.parse('{"body.__proto__": ["is not allowed"]}') as Record<string, string[]>);
    expect(Object.getPrototypeOf(details)).toBe(Object.prototype);
    expect(JSON.stringify({ details, locations })).toBe('{"details":{"__proto__":["is not allowed"]},"locations":{"__proto__":"body"}}');
  });
});
