// isoTime writes every instant the API answers with (deposit and quote views, the envelope's
// timestamp): it must be exactly Date#toISOString's text, across days, years and its limits.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoTime } from '../../mock-server/iso-time.js';

const iso = (ms: number) => new Date(ms).toISOString();

describe('isoTime', () => {
  it('writes what toISOString writes for any instant of a four-digit year', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 253_402_300_799_999 }), (ms) => isoTime(ms) === iso(ms)), { numRuns: 20_000 });
  });

  it('stays right when consecutive calls cross midnight, a leap day and a year in both directions', () => {
    const instants = [Date.UTC(2024, 1, 28, 23, 59, 59, 999), Date.UTC(2024, 1, 29), Date.UTC(2024, 2, 1), Date.UTC(2025, 11, 31, 23, 59, 59, 999), Date.UTC(2026, 0, 1), Date.UTC(2024, 1, 29, 12)];
    for (const ms of [...instants, ...instants.reverse()]) expect(isoTime(ms)).toBe(iso(ms));
  });

  it('hands instants toISOString writes otherwise (six-digit years, before 1970, fractions) to it', () => {
    for (const ms of [253_402_300_800_000, -1, -62_198_755_200_000, 1.5]) expect(isoTime(ms)).toBe(iso(ms));
    expect(() => isoTime(Number.NaN)).toThrow(RangeError);
  });
});
