// The conformance command as a function (for conformance/cli.ts and `exchange-api-kit
// conformance`): parses argv, runs the checks, prints the table, writes the JUnit XML and JSON
// files asked for, and returns the exit code: 0 no failure, 1 a check failed, 2 usage error.
import { writeFile } from 'node:fs/promises';
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
  const report = await runConformance(request.options);
  output.stdout(renderTable(report));
  if (request.junitFile !== undefined) await writeFile(request.junitFile, renderJunit(report));
  if (request.jsonFile !== undefined) await writeFile(request.jsonFile, renderJson(report));
  return report.summary.fail > 0 ? 1 : 0;
}
