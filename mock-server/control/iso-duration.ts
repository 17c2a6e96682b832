// ISO 8601 durations (PT31M, P1DT2H) in milliseconds, as the control contract counts them: a
// year is 365 days, a month 30 days, a week 7 days. The contract's pattern has already
// validated the text.
const units: [RegExp, number][] = [
  [/(\d+)Y/, 365 * 86_400_000],
  [/(\d+)M/, 30 * 86_400_000],
  [/(\d+)W/, 7 * 86_400_000],
  [/(\d+)D/, 86_400_000],
];
const timeUnits: [RegExp, number][] = [
  [/(\d+)H/, 3_600_000],
  [/(\d+)M/, 60_000],
  [/(\d+(?:\.\d+)?)S/, 1000],
];

export function durationMs(text: string): number {
  const [datePart = '', timePart = ''] = text.slice(1).split('T');
  const sum = (part: string, table: [RegExp, number][]) =>
    table.reduce((total, [pattern, ms]) => total + Number(pattern.exec(part)?.[1] ?? 0) * ms, 0);
  return sum(datePart, units) + sum(timePart, timeUnits);
}
