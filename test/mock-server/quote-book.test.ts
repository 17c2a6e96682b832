// The quote book's bounds: quotes are forgotten by time (a day after they expire, on the timer
// beat or the client's next quote) and past a bound per client, that client's oldest first, so
// one client's flood of quotes forgets none of another's.
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../mock-server/clock.js';
import { QuoteBook } from '../../mock-server/domain/exchange/quotes.js';
import { noRecordMarks } from '../../mock-server/domain/record-marks.js';
import { createRandom } from '../../mock-server/random.js';
import { Sandbox } from '../../mock-server/sandbox.js';

const dayMs = 24 * 3600 * 1000;

function setup(maxPerClient: number) {
  const clock = new VirtualClock(() => Date.parse('2026-11-21T12:00:00Z'));
  clock.freeze();
  const { catalog } = new Sandbox({ seed: 3 }).services;
  const route = [...catalog.routes.values()].find((r) => catalog.state(r).enabled)!;
  const book = new QuoteBook(clock, createRandom(9), noRecordMarks, maxPerClient);
  const quote = (clientId: string) => book.create(clientId, catalog.state(route), 'give', { amountIn: '1', amountOut: '2', fee: '0' }).id;
  return { clock, book, quote };
}

describe('the quote book', () => {
  it("forgets a flooding client's own oldest quotes past its bound, and none of another client's", () => {
    const { book, quote } = setup(50);
    const quiet = quote('quiet');
    const flood = Array.from({ length: 120 }, () => quote('flood'));
    expect(book.find('quiet', quiet)).toBeDefined();
    expect(flood.filter((id) => book.find('flood', id) !== undefined)).toEqual(flood.slice(-50));
  });

  it('recognises an expired quote for a day, then forgets it on the next sweep', async () => {
    const { clock, book, quote } = setup(50);
    const id = quote('c1');
    await clock.advance(dayMs);
    book.sweep();
    const expired = book.find('c1', id);
    expect(expired !== undefined && book.isExpired(expired)).toBe(true);
    await clock.advance(120_000);
    book.sweep();
    expect(book.find('c1', id)).toBeUndefined();
  });
});
