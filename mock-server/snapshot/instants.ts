// Instants in a snapshot are epoch milliseconds; the records the mock keeps hold Dates.
export function msOf(date: Date | null): number | null {
  return date === null ? null : date.getTime();
}

export function dateOf(ms: number | null): Date | null {
  return ms === null ? null : new Date(ms);
}
