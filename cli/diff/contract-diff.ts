// Compares two versions of an OpenAPI contract and sorts the changes into breaking (a client
// or server built on the old version may fail on the new one), non-breaking and other
// (documentation, unclassified). The comparison and the classification are api-smart-diff's
// (OpenAPI 3.0 and 3.1: removed operations, parameters, fields and enum values, tightened
// bounds, new required fields, changed security, request against response direction). One rule
// is this kit's: `x-scope` names the scope a key needs, so changing it is breaking.
import { apiCompare, type Diff } from 'api-smart-diff';

export type ChangeKind = 'breaking' | 'non-breaking' | 'other';

export interface ContractChange {
  kind: ChangeKind;
  /** `GET /private/orders` when the change is inside one operation. */
  operation: string | undefined;
  /** JSON pointer of the changed node (in the new version for additions, else in the old one). */
  pointer: string;
  description: string;
}

export interface ContractDiff {
  breaking: ContractChange[];
  nonBreaking: ContractChange[];
  other: ContractChange[];
  /** What the library could not classify itself (its rule failed), reported rather than hidden. */
  notes: string[];
}

const methods = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);

export function diffContracts(before: unknown, after: unknown): ContractDiff {
  const { diffs, notes } = compareCollectingNotes(before, after);
  // Changes under components/ come again, resolved, at every operation that uses them: those are reported.
  const changes = diffs.filter((diff) => diff.path[0] !== 'components').map(toChange);
  return {
    breaking: changes.filter((change) => change.kind === 'breaking'),
    nonBreaking: changes.filter((change) => change.kind === 'non-breaking'),
    other: changes.filter((change) => change.kind === 'other'),
    notes,
  };
}

/**
 * api-smart-diff reports a classification rule that throws (seen on `required` inside
 * `oneOf`/`allOf` branches) with console.error and leaves that change unclassified; those
 * messages are collected as notes instead of reaching the terminal unexplained.
 */
function compareCollectingNotes(before: unknown, after: unknown): { diffs: Diff[]; notes: string[] } {
  const notes: string[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => void notes.push(args.map(String).join(' '));
  try {
    return { diffs: apiCompare(before, after).diffs, notes: [...new Set(notes)] };
  } finally {
    console.error = original;
  }
}

function toChange(diff: Diff): ContractChange {
  const path = diff.path.map(String);
  const scope = path.at(-1) === 'x-scope';
  const kind: ChangeKind = scope || diff.type === 'breaking' ? 'breaking' : diff.type === 'non-breaking' ? 'non-breaking' : 'other';
  return {
    kind,
    operation: path[0] === 'paths' && methods.has(path[2] ?? '') ? `${path[2]!.toUpperCase()} ${path[1]}` : undefined,
    pointer: `/${path.map((segment) => segment.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`,
    description: scope ? `[Replaced] required scope ${JSON.stringify(diff.before)} → ${JSON.stringify(diff.after)}` : describe(diff, path),
  };
}

/**
 * The library's text, completed where it is blank or generic: it describes a schema shared by
 * several operations in full only at the first of them (`[Replaced]  in query parameter
 * \`per_page\``, `[Added] annotation (2) in Request Body`), so the change is named from its path.
 */
function describe(diff: Diff, path: string[]): string {
  const text = diff.description ?? '';
  const parts = /^(\[\w+\]) (.*?)((?: in | of | to | from ).*)?$/.exec(text);
  if (parts !== null && parts[2] !== '' && !parts[2]!.startsWith('annotation (')) return text;
  const [last = '', parent = ''] = [path.at(-1), path.at(-2)];
  const what =
    parent === 'required' ? `required status to \`${String(diff.after ?? diff.before)}\``
    : parent === 'properties' ? `property \`${last}\``
    : parent === 'enum' ? `enum value ${JSON.stringify(diff.before ?? diff.after)}`
    : diff.action === 'replace' ? `${last} ${JSON.stringify(diff.before)} → ${JSON.stringify(diff.after)}`
    : last;
  const action = parts?.[1] ?? `[${diff.action[0]!.toUpperCase()}${diff.action.slice(1)}d]`;
  return `${action} ${what}${parts?.[3] ?? ''}`;
}
