// A date-time a request gives (RFC 3339, which the contract's `format: date-time` has already
// matched) read into epoch milliseconds: the one way every such input becomes an instant (a
// minted key's `expires_at`, a state document's `taken_at`). Date.parse is not that way: it reads
// neither a `+05` offset nor a leap second (NaN, an Invalid Date that fails wherever it is shown).
// The instant must also be one the mock can hold (epoch-range.ts), or the export showing it
// would not load.
import { epochRangeText, withinEpoch } from './epoch-range.js';

// Every form ajv's date-time accepts: `T`, `t` or a space between date and time, any fraction,
// `Z`, `z` or an offset written `+hh`, `+hhmm` or `+hh:mm`.
const rfc3339 =
  /^(?<year>\d{4})-(?<month>\d{2})-(?<day>\d{2})[Tt\s](?<hours>\d{2}):(?<minutes>\d{2}):(?<seconds>\d{2})(?:\.(?<fraction>\d+))?(?:[Zz]|(?<sign>[+-])(?<offsetHours>\d{2}):?(?<offsetMinutes>\d{2})?)$/;

export type ReadDateTime = { ms: number } | { refused: string };

export function readDateTime(text: string): ReadDateTime {
  const parts = rfc3339.exec(text)?.groups;
  if (parts === undefined) return { refused: 'is not an RFC 3339 date-time' };
  const number = (name: string) => Number(parts[name] ?? 0);
  const seconds = number('seconds');
  const date = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0 to 99 as 1900 to 1999.
  date.setUTCFullYear(number('year'), number('month') - 1, number('day'));
  date.setUTCHours(number('hours'), number('minutes'), Math.min(seconds, 59), Number((parts.fraction ?? '').padEnd(3, '0').slice(0, 3)));
  // Epoch milliseconds count no leap second: 23:59:60 is read as the second after 23:59:59, the
  // next day's 00:00:00, as a POSIX clock (and PostgreSQL) reads it; refusing it would refuse a
  // value the contract's format allows.
  const leapMs = seconds === 60 ? 1000 : 0;
  const offsetMs = (parts.sign === '-' ? -1 : 1) * (number('offsetHours') * 60 + number('offsetMinutes')) * 60_000;
  const ms = date.getTime() + leapMs - offsetMs;
  return withinEpoch(ms) ? { ms } : { refused: `must be an instant from ${epochRangeText}` };
}
