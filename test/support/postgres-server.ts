// A real PostgreSQL server for the tests: Debian's binaries (package `postgresql`), a cluster made
// by initdb in a temporary folder, listening on a free loopback port and its own socket folder,
// stopped and removed afterwards. As root (CI) it runs as the `postgres` user the package creates,
// since PostgreSQL refuses to run as root.
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface PostgresServer {
  /** postgres://… of a fresh database `kit_<n>` on every call. */
  createDatabase(): Promise<string>;
  /** The server's processes now: the postmaster and its children (a backend per connection, the writers). */
  processes(): number[];
  /** Stops the server as an administrator would (`pg_ctl stop -m fast`: every session ended), leaving its folder for stop(). */
  shutDown(): void;
  stop(): void;
}

/** The folder of initdb and pg_ctl: on the PATH, or Debian's versioned folder. */
function binaries(): string | undefined {
  const which = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' });
  if (which.status === 0 && which.stdout.trim() !== '') return join(which.stdout.trim(), '..');
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a));
  return versions.map((v) => join(root, v, 'bin')).find((bin) => existsSync(join(bin, 'initdb')));
}

export function postgresAvailable(): boolean {
  return binaries() !== undefined;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.once('error', reject);
  });
}

export async function startPostgres(): Promise<PostgresServer> {
  const bin = binaries();
  if (bin === undefined) throw new Error('PostgreSQL is not installed: apt-get install postgresql (.ci/run does)');
  const folder = mkdtempSync(join(tmpdir(), 'kit-postgres-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) chownSync(folder, uid('postgres'), gid('postgres'));
  const run = (program: string, args: string[]) =>
    asRoot ? execFileSync('runuser', ['-u', 'postgres', '--', join(bin, program), ...args], { stdio: 'pipe' }) : execFileSync(join(bin, program), args, { stdio: 'pipe' });
  const data = join(folder, 'data');
  const port = await freePort();
  run('initdb', ['-D', data, '-U', 'kit', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  const settings = `-p ${port} -k ${folder} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  run('pg_ctl', ['-D', data, '-o', settings, '-l', join(folder, 'log'), '-w', 'start']);
  let running = true;
  let databases = 0;
  const admin = `postgres://kit@127.0.0.1:${port}/postgres`;
  return {
    async createDatabase() {
      const { default: pg } = await import('pg');
      databases += 1;
      const name = `kit_${databases}`;
      const client = new pg.Client(admin);
      await client.connect();
      await client.query(`CREATE DATABASE ${name}`);
      await client.end();
      return `postgres://kit@127.0.0.1:${port}/${name}`;
    },
    processes() {
      // postmaster.pid's first line is the postmaster's pid; Linux lists a process's children.
      const postmaster = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n', 1)[0]);
      const children = readFileSync(`/proc/${postmaster}/task/${postmaster}/children`, 'utf8').trim().split(' ').filter((pid) => pid !== '').map(Number);
      return [postmaster, ...children];
    },
    shutDown() {
      run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
      running = false;
    },
    stop() {
      try {
        if (running) run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    },
  };
}

function uid(user: string): number {
  return Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim());
}

function gid(user: string): number {
  return Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }).trim());
}
