// Runs one of the kit's own command-line scripts (the generator's, the conformance runner's) in a
// child Node process with the TypeScript loader, passing the arguments through, and resolves
// with its exit code. A child keeps each script's own flag parsing and process.exit as they are.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export function runScript(script: URL, args: readonly string[]): Promise<number> {
  const path = fileURLToPath(script);
  if (!existsSync(path)) {
    process.stderr.write(`exchange-api-kit: ${path} is missing from this installation\n`);
    return Promise.resolve(1);
  }
  const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), path, ...args], { stdio: 'inherit' });
  return new Promise((resolve) => {
    child.once('error', () => resolve(1));
    child.once('close', (code) => resolve(code ?? 1)); // null: killed by a signal
  });
}
