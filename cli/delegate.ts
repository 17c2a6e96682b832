// Runs one of the kit's own development scripts (the generator's) in a child Node process with
// the TypeScript loader, passing the arguments through, and resolves with its exit code. A child
// keeps the script's own flag parsing and process.exit as they are. Such scripts and the loader
// (tsx, a devDependency) exist only in a checkout of the kit; an installed copy says so.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { kitPath } from '../kit-files.js';

/** Runs `script` (a path in the kit, 'generator/cli.ts'); `elsewhere` says what to do without a checkout. */
export function runScript(script: string, args: readonly string[], elsewhere: string): Promise<number> {
  const path = kitPath(script);
  if (!existsSync(path)) {
    process.stderr.write(`exchange-api-kit: ${script} is part of a checkout of the kit, not of an installed copy: ${elsewhere}\n`);
    return Promise.resolve(2);
  }
  const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), path, ...args], { stdio: 'inherit' });
  return new Promise((resolve) => {
    child.once('error', () => resolve(1));
    child.once('close', (code) => resolve(code ?? 1)); // null: killed by a signal
  });
}
