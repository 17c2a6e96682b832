// Proof that the package works as integrators get it (run by hand, not by `npm test`: it
// installs the tarball's dependencies from the npm registry, which needs the network):
//   node test/cli/packed-tarball.mjs
// packs the kit with `npm pack`, then in an empty directory runs
// `npx --yes --package=<tarball> exchange-api-kit serve --help` and `… serve --port 0` (npx
// takes a bare tarball path for a command to execute, hence --package), waits for the
// banner and checks /api/v3/ping, the printed token on /api/v3/private/ping and /docs.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'exchange-api-kit-pack-'));
const step = (text) => console.log(`packed-tarball: ${text}`);
let server;

try {
  const [{ filename, files }] = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: repoRoot, encoding: 'utf8' }));
  const tarball = join(work, filename);
  step(`packed ${filename} (${files.length} files)`);
  const user = mkdtempSync(join(work, 'user-'));
  const help = execFileSync('npx', ['--yes', `--package=${tarball}`, 'exchange-api-kit', 'serve', '--help'], { cwd: user, encoding: 'utf8' });
  if (!help.startsWith('usage: exchange-api-kit serve')) throw new Error(`unexpected help:\n${help}`);
  step('npx exchange-api-kit serve --help: ok');

  server = spawn('npx', ['--yes', `--package=${tarball}`, 'exchange-api-kit', 'serve', '--port', '0'], { cwd: user, stdio: ['ignore', 'pipe', 'inherit'], detached: true });
  const banner = await new Promise((resolve, reject) => {
    let out = '';
    server.stdout.setEncoding('utf8').on('data', (chunk) => {
      out += chunk;
      if (/try: curl .*\n/.test(out)) resolve(out);
    });
    server.once('close', (code) => reject(new Error(`serve exited (${code}) before its banner:\n${out}`)));
  });
  const url = /listening on (http:\/\/\S+)/.exec(banner)[1];
  const token = /token: (\S+)/.exec(banner)[1];
  const checks = [
    ['/api/v3/ping', {}],
    ['/api/v3/private/ping', { Authorization: `Bearer ${token}` }],
    ['/docs/exchange-v3', {}],
    ['/docs/assets/swagger-ui-bundle.js', {}],
  ];
  for (const [path, headers] of checks) {
    const status = (await fetch(`${url}${path}`, { headers })).status;
    if (status !== 200) throw new Error(`${path}: ${status}`);
    step(`npx exchange-api-kit serve --port 0: GET ${path} 200`);
  }
  step('ok');
} finally {
  if (server !== undefined) process.kill(-server.pid, 'SIGTERM'); // npx and the node process it started
  rmSync(work, { recursive: true, force: true });
}
