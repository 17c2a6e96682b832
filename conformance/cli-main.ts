// The conformance command as a function (for conformance/cli.ts and `exchange-api-kit
// conformance`): parses argv, runs the checks, prints the table, writes the JUnit XML and JSON
// files asked for, and returns the exit code: 0 no failure, 1 a check failed (or a report could
// not be written after all), 2 usage error (a report path that cannot be written among them,
// found before the run).
import { unwritableOutput, writeOutput } from '../output-path.js';
import { parseCli, usage, UsageError } from './cli-args.js';
import { knownNames, renderJson, renderJunit, renderTable, runConformance } from './index.js';

export interface CliOutput {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

const processOutput: CliOutput = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

export async function runConformanceCli(argv: readonly string[], output: CliOutput = processOutput): Promise<number> {
  let request;
  try {
    request = parseCli(argv, knownNames());
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    output.stderr(`conformance: ${error.message}\n\n${usage}`);
    return 2;
  }
  if (request === 'help') {
    output.stdout(usage);
    return 0;
  }
  const reports = [
    { flag: '--junit', path: request.junitFile, render: renderJunit },
    { flag: '--json', path: request.jsonFile, render: renderJson },
  ];
  const unwritable = unwritableOutput(reports.map(({ flag, path }) => ({ flag, path, kind: 'file' })));
  if (unwritable !== undefined) {
    output.stderr(`conformance: ${unwritable}\n`);
    return 2;
  }
  const report = await runConformance(request.options);
  output.stdout(renderTable(report));
  let written = true;
  for (const { path, render } of reports) {
    const failed = path === undefined ? undefined : writeOutput(path, render(report));
    if (failed !== undefined) output.stderr(`conformance: ${failed}\n`);
    written &&= failed === undefined;
  }
  return report.summary.fail > 0 || !written ? 1 : 0;
}
