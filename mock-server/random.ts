// A seeded pseudo-random source (mulberry32): with a seed, tokens, secrets and ids are the same
// run after run; without one, the seed comes from the real random generator.
import { randomInt } from 'node:crypto';

export interface Random {
  readonly seed: number;
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  /** `length` characters of `alphabet`. */
  string(length: number, alphabet?: string): string;
  /** Where the stream stands: `createRandom(seed, state)` continues it from here (snapshots). */
  state(): number;
}

const alphanumeric = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function createRandom(seed: number = randomInt(0, 2 ** 31 - 1), resumeAt: number = seed): Random {
  let state = resumeAt >>> 0;
  const codes: number[] = [];
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    seed,
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    string: (length, alphabet = alphanumeric) => {
      // Ids are drawn on hot paths (every quote, every deposit). Appending a character at a time left
      // one intermediate string per character (about 1 KB of garbage for a 32-character id); the codes
      // go into one reused array instead, and become a single flat string.
      codes.length = length;
      for (let i = 0; i < length; i += 1) codes[i] = alphabet.charCodeAt(Math.floor(next() * alphabet.length));
      return String.fromCharCode.apply(null, codes);
    },
    state: () => state,
  };
}
