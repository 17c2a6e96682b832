// A validator (ajv, allErrors) reports how it walked a schema, not only what is wrong: an
// `if` adds `must match "then" schema` beside the `then` branch's own error, and a oneOf or
// anyOf adds `must match exactly one schema in oneOf` after the errors of every branch it
// tried, including those of branches meant for another kind of value (`must be object` for a
// number). An integrator wants the field and what is wrong with it. So:
// - `if` wrappers are dropped: the `then`/`else` branch's errors say what is wrong;
// - a oneOf/anyOf keeps the specific errors of its branches and drops itself and the errors
//   that only tell its branches apart: a `type` or a missing or extra property at the union's
//   own place, a `const` anywhere below it. An extra property that every branch taking the
//   value's kind refuses tells no branch apart: it is not allowed whichever is meant, so it is
//   kept (`{ seconds: 60, freeze: true }` gets "freeze is not allowed", not the choices);
// - when no specific error is left (or several branches each have one at the union's own
//   place: alternatives, none of them required), the union answers with one message naming
//   its choices, read from the contract at generate time (the validator's `unions`).
// Same errors in, same errors out: the answer to a request does not vary.

/** The part of an ajv error this module reads and writes. */
export interface UnionValidationError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

/** A request part's oneOf or anyOf, as generated validators list them in their `unions`. */
export interface UnionChoices {
  /** The instancePath it validates, `*` standing for any array item or object key. */
  at: string;
  keyword: 'oneOf' | 'anyOf';
  choices: readonly string[];
}

/** The errors an integrator should read, in the validator's order. */
export function withoutSchemaWrappers<Error extends UnionValidationError>(errors: readonly Error[], unions: readonly UnionChoices[] = []): Error[] {
  const kept: Error[] = [];
  for (const error of errors) {
    if (error.keyword === 'if') continue;
    if (error.keyword !== 'oneOf' && error.keyword !== 'anyOf') {
      kept.push(error);
      continue;
    }
    // A union's branch errors come right before it, at its place or below: the run at the end
    // of what is kept so far. Reading only that run keeps a body of many bad items linear.
    let start = kept.length;
    while (start > 0 && isAtOrBelow(kept[start - 1]!.instancePath, error.instancePath)) start -= 1;
    const branchErrors = kept.splice(start);
    const refused = refusedByEveryBranch(branchErrors, error, unionOf(error, unions));
    const selectors = new Set(branchErrors.filter((earlier) => tellsBranchesApart(earlier, error.instancePath) && !refused.has(earlier)));
    const specific = branchErrors.filter((earlier) => !selectors.has(earlier));
    // Refused by every branch, those are no alternatives: each branch says the same.
    if (specific.length > 0 && !areAlternatives(specific.filter((one) => !refused.has(one)), error)) for (const one of specific) kept.push(one);
    else kept.push(choiceError(error, unions));
  }
  return kept;
}

function isAtOrBelow(path: string, union: string): boolean {
  return path === union || path.startsWith(`${union}/`);
}

/** An error that says a branch is for another kind of value, not what is wrong with this one. */
function tellsBranchesApart(error: UnionValidationError, unionPath: string): boolean {
  if (error.keyword === 'const') return true;
  if (error.instancePath !== unionPath) return false;
  return ['type', 'required', 'additionalProperties', 'unevaluatedProperties'].includes(error.keyword);
}

/**
 * The extra-property errors at the union's place whose property every branch refuses that did
 * not refuse the value's type (one error per branch; a branch behind a `$ref` cannot be told
 * apart by its schema path, so they are counted). None when the union's choices are unknown.
 */
function refusedByEveryBranch(branchErrors: readonly UnionValidationError[], union: UnionValidationError, choices: UnionChoices | undefined): Set<UnionValidationError> {
  if (choices === undefined) return new Set();
  const atUnion = branchErrors.filter((error) => error.instancePath === union.instancePath);
  const branchesTakingKind = choices.choices.length - atUnion.filter((error) => error.keyword === 'type').length;
  const extraOf = (error: UnionValidationError) => error.params['additionalProperty'] ?? error.params['unevaluatedProperty'];
  const counts = new Map<unknown, number>();
  for (const error of atUnion) if (extraOf(error) !== undefined) counts.set(extraOf(error), (counts.get(extraOf(error)) ?? 0) + 1);
  return new Set(atUnion.filter((error) => extraOf(error) !== undefined && counts.get(extraOf(error)) === branchesTakingKind));
}

/**
 * Specific errors at the union's own place from two or more of its branches (`must be a valid
 * ipv4`, `must be a valid ipv6`) are alternatives: the value needs only one of them. Branches
 * written inline are told apart by their schema path; those behind a `$ref` count as one.
 */
function areAlternatives(specific: readonly UnionValidationError[], union: UnionValidationError): boolean {
  const prefix = `${union.schemaPath}/`;
  const branches = new Set(
    specific.filter((error) => error.instancePath === union.instancePath && error.keyword !== 'oneOf' && error.keyword !== 'anyOf')
      .map((error) => (error.schemaPath.startsWith(prefix) ? error.schemaPath.slice(prefix.length).split('/')[0] : 'referenced')),
  );
  return branches.size > 1;
}

/** The union's own error, worded with its choices when the contract's are known. */
function choiceError<Error extends UnionValidationError>(union: Error, unions: readonly UnionChoices[]): Error {
  const found = unionOf(union, unions);
  if (found === undefined) return union;
  const lead = union.keyword === 'oneOf' ? 'must be exactly one of' : 'must be one of';
  return { ...union, params: { ...union.params, choices: found.choices }, message: `${lead}: ${found.choices.join('; ')}` };
}

/** The contract's choices of the union that reported `union`, when the validator lists them. */
function unionOf(union: UnionValidationError, unions: readonly UnionChoices[]): UnionChoices | undefined {
  return unions.find((candidate) => candidate.keyword === union.keyword && matches(candidate.at, union.instancePath));
}

function matches(pattern: string, instancePath: string): boolean {
  const expected = pattern.split('/');
  const actual = instancePath.split('/');
  return expected.length === actual.length && expected.every((segment, i) => segment === '*' || segment === actual[i]);
}
