// An integrator's project in a temporary folder, with the kit installed as npm installs it from
// the registry: `npm pack` (which runs the package's prepack build) and `npm ci` of the tarball.
// No registry is asked: the project's lockfile is derived from the kit's own (every package the
// tarball needs, its dependencies and peer dependencies, and the project's compilers, at the
// versions and integrities the kit's lockfile pins), so `npm ci --offline` installs them from
// npm's cache, where the kit's own `npm ci` put them.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../support/contracts.js';

interface LockEntry {
  version?: string;
  resolved?: string;
  integrity?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  [field: string]: unknown;
}

interface Lockfile {
  packages: Record<string, LockEntry>;
}

export interface PackedKit {
  /** The tarball's file name, in the folder it was packed into. */
  filename: string;
  integrity: string;
  /** Bytes of the tarball, and of its files unpacked. */
  size: number;
  unpackedSize: number;
  files: string[];
}

const kitManifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as LockEntry & { name: string; devDependencies: Record<string, string> };

/** `npm pack` of the kit into `folder`. */
export function packKit(folder: string): PackedKit {
  const printed = execFileSync('npm', ['pack', '--json', '--pack-destination', folder], { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  // The whole of stdout is npm's JSON: the prepack build reports on stderr, so tools reading
  // `npm pack --json` (a release script, CI) get one document.
  const [packed] = JSON.parse(printed) as [{ filename: string; integrity: string; size: number; unpackedSize: number; files: { path: string }[] }];
  return { ...packed, files: packed.files.map((file) => file.path) };
}

/**
 * Creates `folder/<name>` depending on the tarball in `folder`, with `devDependencies` (names of
 * the kit's own devDependencies, at the kit's versions), and installs it. Returns its path.
 */
export function installConsumer(folder: string, kit: PackedKit, devDependencies: readonly string[]): string {
  const project = join(folder, 'consumer');
  mkdirSync(project, { recursive: true });
  const tarball = `file:../${kit.filename}`;
  const devVersions = Object.fromEntries(devDependencies.map((name) => [name, kitManifest.devDependencies[name] ?? missing(name)]));
  const manifest = { name: 'consumer', version: '1.0.0', private: true, type: 'module', dependencies: { [kitManifest.name]: tarball }, devDependencies: devVersions };
  writeFileSync(join(project, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);

  const kitLock = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as Lockfile;
  const { name: _name, devDependencies: _dev, scripts: _scripts, files: _files, allowScripts: _allow, ...installed } = kitManifest;
  const packages: Record<string, LockEntry> = {
    '': { name: 'consumer', version: '1.0.0', dependencies: manifest.dependencies, devDependencies: devVersions },
    [`node_modules/${kitManifest.name}`]: { ...installed, resolved: tarball, integrity: kit.integrity },
  };
  const needs = [...requiredNames(installed), ...devDependencies];
  for (const name of needs) addWithDependencies(kitLock.packages, packages, name, '');
  writeFileSync(join(project, 'package-lock.json'), `${JSON.stringify({ name: 'consumer', version: '1.0.0', lockfileVersion: 3, requires: true, packages }, null, 2)}\n`);

  execFileSync('npm', ['ci', '--offline', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
  return project;
}

/** What npm installs for a package: its dependencies and its peer dependencies that are not optional. */
function requiredNames(entry: LockEntry): string[] {
  const peers = Object.keys(entry.peerDependencies ?? {}).filter((name) => entry.peerDependenciesMeta?.[name]?.optional !== true);
  return [...Object.keys(entry.dependencies ?? {}), ...peers];
}

/** Copies the lockfile entry `name` resolves to from `from` (Node's lookup), and what it needs. */
function addWithDependencies(source: Lockfile['packages'], target: Record<string, LockEntry>, name: string, from: string): void {
  const location = resolveIn(source, name, from);
  if (location === undefined) throw new Error(`${name} (needed by ${from || 'the project'}) is not in the kit's package-lock.json`);
  if (target[location] !== undefined) return;
  const { dev: _dev, devOptional: _devOptional, peer: _peer, ...entry } = source[location] as LockEntry;
  target[location] = entry;
  for (const dependency of requiredNames(entry)) addWithDependencies(source, target, dependency, location);
  // Platform-specific optional packages the kit's install left out are left out here too.
  for (const dependency of Object.keys(entry.optionalDependencies ?? {})) {
    if (resolveIn(source, dependency, location) !== undefined) addWithDependencies(source, target, dependency, location);
  }
}

/** `<from>/node_modules/<name>`, else the same in each folder above it, as Node looks a package up. */
function resolveIn(packages: Lockfile['packages'], name: string, from: string): string | undefined {
  for (let base = from; ; ) {
    const candidate = base === '' ? `node_modules/${name}` : `${base}/node_modules/${name}`;
    if (packages[candidate] !== undefined) return candidate;
    if (base === '') return undefined;
    const parent = base.lastIndexOf('/node_modules/');
    base = parent < 0 ? '' : base.slice(0, parent);
  }
}

function missing(name: string): never {
  throw new Error(`${name} is not a devDependency of the kit`);
}
