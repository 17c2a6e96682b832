// The AML checks' bound is per site: past it a site forgets its own oldest checks, so one site's
// flood of checks forgets none of another site's (a shared sandbox's tenants cannot evict each other).
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../mock-server/clock.js';
import { AmlScreening } from '../../mock-server/domain/aml/aml-checks.js';
import { noRecordMarks } from '../../mock-server/domain/record-marks.js';
import { createRandom } from '../../mock-server/random.js';

describe('the AML checks of a sandbox', () => {
  it("forget a flooding site's own oldest checks past its bound, and none of another site's", () => {
    const clock = new VirtualClock(() => Date.parse('2026-11-28T12:00:00Z'));
    clock.freeze();
    const screening = new AmlScreening(clock, createRandom(5), noRecordMarks, 50);
    const check = (siteId: number) =>
      screening.create(siteId, { type: 'address', currency: 'USDT', network: 'TRON', address: 'TXFBqBbqJommqZf7BV8NNYzePh97UmJodJ', txHash: null }).uuid;
    const quiet = check(1);
    const flood = Array.from({ length: 120 }, () => check(2));
    expect(screening.get(1, quiet)).toBeDefined();
    expect(flood.filter((uuid) => screening.get(2, uuid) !== undefined)).toEqual(flood.slice(-50));
  });
});
