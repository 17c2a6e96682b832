// Instants as ISO 8601 text (`2026-11-28T08:05:16.123Z`), as Date#toISOString writes them, without
// a Date per call: the date part is kept for the day last formatted and the time of day is
// computed. A list page of deposits formats four instants per deposit, and toISOString (a Date
// allocated, then formatted natively) was the largest cost of that answer after the socket write.

const dayMs = 86_400_000;
/** Past 9999-12-31 toISOString switches to six-digit years: those go through it. */
const lastFourDigitYearMs = 253_402_300_799_999;

let cachedDay = Number.NaN;
let cachedDate = '';

const twoDigits = Array.from({ length: 60 }, (_, n) => String(n).padStart(2, '0'));
const threeDigits = Array.from({ length: 1000 }, (_, n) => String(n).padStart(3, '0'));

/** `new Date(ms).toISOString()`, for a whole number of epoch milliseconds. */
export function isoTime(ms: number): string {
  if (!(ms >= 0 && ms <= lastFourDigitYearMs) || !Number.isInteger(ms)) return new Date(ms).toISOString();
  const day = Math.floor(ms / dayMs);
  if (day !== cachedDay) {
    cachedDate = new Date(day * dayMs).toISOString().slice(0, 11);
    cachedDay = day;
  }
  let rest = ms - day * dayMs;
  const millis = rest % 1000;
  rest = (rest - millis) / 1000;
  const seconds = rest % 60;
  rest = (rest - seconds) / 60;
  const minutes = rest % 60;
  const hours = (rest - minutes) / 60;
  return `${cachedDate}${twoDigits[hours]}:${twoDigits[minutes]}:${twoDigits[seconds]}.${threeDigits[millis]}Z`;
}
