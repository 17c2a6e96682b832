// ajv's standalone code gathers a referenced schema's errors (with allErrors) by
// `vErrors = vErrors === null ? v.errors : vErrors.concat(v.errors)`: each failing item of an
// array copies every error gathered so far, so a body of n bad items costs n² copies. A 170 KB
// list of unknown webhook event types kept the mock busy for seconds, every tenant with it. The
// errors are appended in place instead (the array taken over is the callee's last result, which
// its next call replaces rather than changes), so the same errors come out in the same order.
const concatMerge = /vErrors = vErrors === null \? (\w+)\.errors : vErrors\.concat\(\1\.errors\);/g;

const appendHelper = [
  '/** Appends a referenced schema\'s errors to the caller\'s, in place (linear-error-merge.ts). */',
  'function appendErrors(to, from) {',
  '  for (let i = 0; i < from.length; i++) to.push(from[i]);',
  '  return to;',
  '}',
].join('\n');

/** The module's code with every error merge made in place, and the helper that does it. */
export function withLinearErrorMerge(code: string): string {
  let merges = 0;
  const merged = code.replace(concatMerge, (_match, callee: string) => {
    merges += 1;
    return `vErrors = vErrors === null ? ${callee}.errors : appendErrors(vErrors, ${callee}.errors);`;
  });
  // Any merge written another way (a new ajv version) would stay quadratic unnoticed.
  if (merged.includes('vErrors.concat(')) throw new Error('ajv merges errors in a way linear-error-merge.ts does not know');
  // A function declaration is hoisted: the helper may follow its users.
  return merges === 0 ? merged : `${merged}\n${appendHelper}`;
}
