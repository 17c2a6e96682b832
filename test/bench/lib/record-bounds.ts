// The memory a stored record may take (issue 17), read by the scale benchmark, which measures it
// per kind at 1M records, and by the soak, which tells records it kept from a leak with it.
export const recordBytesBounds = {
  deposit: 600,
  /** An order with its order.created webhook event. */
  order: 1536,
  /**
   * Issue 17 sets no bound for a quote (the sandbox keeps one 24 h after it expires); it is given
   * the smallest bound there is, a deposit's. Measured: about 430 B (docs/performance.md).
   */
  quote: 600,
} as const;

export type RecordKind = keyof typeof recordBytesBounds;
