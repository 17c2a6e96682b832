// `exchange-api-kit diff OLD NEW`: the changes between two versions of a contract, breaking ones
// first, with exit code 1 when any is breaking, so an integrator's CI can run it when the
// upstream contract changes. --json FILE also writes them as JSON.
import { diffContracts, type ContractChange, type ContractDiff } from './diff/contract-diff.js';
import { readContract, UnreadableContract } from './diff/read-contract.js';
import type { CommandIo } from './io.js';
import { unwritableOutput, writeOutput } from '../output-path.js';
import { helpOption, optionsHelp, readCommandFlags, type OptionSpec } from './options.js';

const diffOptions: OptionSpec[] = [
  { name: 'json', placeholder: '<file>', help: 'also write the changes as JSON to <file> (- for stdout, instead of the text)' },
  helpOption,
];

export const diffUsage = `usage: exchange-api-kit diff <old> <new> [options]
Compares two versions of an OpenAPI contract (YAML or JSON) and lists the breaking changes
(removed operations, fields or enum values, tightened bounds, new required fields, changed
security or scope) and the non-breaking ones.

${optionsHelp(diffOptions)}

Exit codes: 0 no breaking change, 1 a breaking change (or --json could not be written after all),
2 bad arguments, a file that cannot be read or a --json path that cannot be written.`;

export async function diffCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  const read = readCommandFlags('diff', diffOptions, argv, diffUsage, io, { positionals: true });
  if (typeof read === 'number') return read;
  const { values, positionals } = read;
  const [oldPath, newPath, ...extra] = positionals;
  if (oldPath === undefined || newPath === undefined || extra.length > 0) {
    io.stderr(`exchange-api-kit diff: give two contracts, the old one and the new one\n\n${diffUsage}`);
    return 2;
  }
  const unwritable = unwritableOutput([{ flag: '--json', path: values.json as string | undefined, kind: 'file' }]);
  if (unwritable !== undefined) {
    io.stderr(`exchange-api-kit diff: ${unwritable}`);
    return 2;
  }
  let diff: ContractDiff;
  try {
    diff = diffContracts(await readContract(oldPath), await readContract(newPath));
  } catch (error) {
    if (!(error instanceof UnreadableContract)) throw error;
    io.stderr(`exchange-api-kit diff: ${error.message}`);
    return 2;
  }
  const json = `${JSON.stringify({ old: oldPath, new: newPath, ...diff }, null, 2)}\n`;
  if (values.json === '-') io.stdout(json.trimEnd());
  else {
    const failed = typeof values.json === 'string' ? writeOutput(values.json, json) : undefined;
    io.stdout(renderText(diff));
    if (failed !== undefined) {
      io.stderr(`exchange-api-kit diff: ${failed}`);
      return 1;
    }
  }
  return diff.breaking.length > 0 ? 1 : 0;
}

function renderText(diff: ContractDiff): string {
  const section = (title: string, changes: ContractChange[]) =>
    changes.length === 0 ? [] : [`${title} (${changes.length}):`, ...changes.map((change) => `  ${change.operation ?? change.pointer}: ${change.description}`)];
  return [
    `${diff.breaking.length} breaking, ${diff.nonBreaking.length} non-breaking, ${diff.other.length} other changes`,
    ...section('breaking', diff.breaking),
    ...section('non-breaking', diff.nonBreaking),
    ...section('other', diff.other),
    ...diff.notes.map((note) => `note: ${note}`),
  ].join('\n');
}
