// V8 keeps a string built by concatenation (a template literal, `+`) as a tree of its pieces:
// a uuid made of five slices and four dashes takes about 300 bytes that way, a flat copy 56. A
// record stored by the million keeps flat copies of its long strings.

/** The same characters, as one flat string (a fresh copy of anything long enough to be a tree). */
export function flatString(value: string): string {
  // Shorter strings are always flat (V8 concatenates them eagerly); copying costs more than it saves.
  if (value.length < 13) return value;
  return Buffer.from(value, 'utf8').toString('utf8');
}
