// Options of a subcommand, declared once and read from three places with the same names:
// command-line flags (--port 0), environment variables (PORT=0) and an optional config file
// (--config mock.yaml with `port: 0`). Flags win over the environment, the environment over the
// file. Every value is checked by its option's parser; a problem is a UsageError (exit code 2)
// naming where the bad value came from.
import { readFileSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parseYaml } from '../mock-server/yaml.js';

export class UsageError extends Error {}

export interface OptionSpec {
  /** The flag without its dashes; also the key in a config file. */
  name: string;
  env?: string;
  /** A switch: present or absent on the command line, true/false elsewhere. */
  boolean?: boolean;
  /** How the value is shown in the help, e.g. `<n>`. */
  placeholder?: string;
  help: string;
  /** Turns the text into the option's value; throws an Error whose message completes "<where> …". */
  parse?: (text: string) => unknown;
  /**
   * An empty value of its environment variable is given (and parsed), not taken for unset as
   * for other options: for a value whose absence leaves the mock open (`MOCK_ADMIN_TOKEN=`).
   */
  emptyEnvIsGiven?: boolean;
  /** A credential: a refusal of its value does not repeat it (stderr ends up in CI logs). */
  secret?: boolean;
}

export type OptionValues = Record<string, unknown>;

export const configOption: OptionSpec = {
  name: 'config',
  env: 'MOCK_CONFIG',
  placeholder: '<file>',
  help: 'read options from a JSON or YAML file (keys: the flag names without "--")',
};

export const helpOption: OptionSpec = { name: 'help', boolean: true, help: 'this text' };

/** The running mock a client command (listen, trigger) talks to, and its admin token. */
export const mockClientOptions: OptionSpec[] = [
  { name: 'mock', env: 'MOCK_URL', placeholder: '<url>', help: "the running mock's origin (default http://127.0.0.1:4010)", parse: (text) => mockOrigin(parsers.httpUrl(text)) },
  { name: 'admin-token', env: 'MOCK_ADMIN_TOKEN', placeholder: '<value>', help: 'the admin token the mock was started with, if any' },
];

/**
 * The mock serves its APIs and its control API at fixed paths of its origin, so a URL with a path
 * (a mock thought to sit under a prefix) would be reached at its origin, the path silently
 * dropped: refused instead, naming what would be dropped.
 */
function mockOrigin(url: URL): URL {
  const dropped = `${url.pathname === '/' ? '' : url.pathname}${url.search}${url.hash}`;
  if (dropped !== '') throw new Error(`must be the mock's origin (${url.origin}): it serves every path itself, so "${dropped}" would be dropped`);
  return url;
}

/** The mock's URL from mockClientOptions' values. */
export function mockUrlOf(values: OptionValues): URL {
  return (values.mock as URL | undefined) ?? new URL('http://127.0.0.1:4010');
}

/** Help lines of the options: flag, then what it does and its environment variable. */
export function optionsHelp(specs: readonly OptionSpec[]): string {
  const left = specs.map((spec) => `  --${spec.name}${spec.placeholder ? ` ${spec.placeholder}` : ''}`);
  const width = Math.max(...left.map((text) => text.length)) + 2;
  return specs
    .map((spec, index) => {
      const env = spec.env === undefined ? '' : ` [env ${spec.env}${spec.boolean ? '=1' : ''}]`;
      return `${left[index]!.padEnd(width)}${spec.help}${env}`;
    })
    .join('\n');
}

/**
 * The values given for `specs` (absent ones are left out), where each came from (`--port`,
 * `PORT`, `"port" in mock.yaml`: how a message about the value names it) and the positional
 * arguments. When `specs` includes configOption, its file is read too.
 */
export function readOptions(
  specs: readonly OptionSpec[],
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  options: { positionals?: boolean } = {},
): { values: OptionValues; sources: Record<string, string>; positionals: string[] } {
  const parsed = parseFlags(specs, argv, options.positionals ?? false);
  const values: OptionValues = {};
  const sources: Record<string, string> = {};
  const configPath = stringOf(parsed.values.config) ?? nonEmpty(env[configOption.env!]);
  const fromFile = specs.includes(configOption) && configPath !== undefined ? readConfigFile(configPath, specs) : {};
  for (const spec of specs) {
    if (spec === configOption || spec === helpOption) continue;
    const flag = parsed.values[spec.name];
    const envText = spec.env === undefined ? undefined : env[spec.env];
    let given: { value: unknown; where: string } | undefined;
    if (flag !== undefined && flag !== false) given = { value: flag, where: `--${spec.name}` };
    else if (envText !== undefined && (envText !== '' || spec.emptyEnvIsGiven === true)) given = { value: envText, where: spec.env! };
    else if (fromFile[spec.name] !== undefined) given = { value: fromFile[spec.name], where: `"${spec.name}" in ${configPath}` };
    if (given === undefined) continue;
    values[spec.name] = convert(spec, given.value, given.where);
    sources[spec.name] = given.where;
  }
  if (parsed.values.help === true) values.help = true;
  return { values, sources, positionals: parsed.positionals };
}

function parseFlags(specs: readonly OptionSpec[], argv: readonly string[], allowPositionals: boolean) {
  const flags = Object.fromEntries(specs.map((spec) => [spec.name, { type: spec.boolean ? ('boolean' as const) : ('string' as const) }]));
  try {
    return parseArgs({ args: [...argv], options: flags, strict: true, allowPositionals });
  } catch (error) {
    // node:util's messages name the flag ("Unknown option '--nope'"); keep them, drop its hint about "--".
    throw new UsageError((error as Error).message.replace(/\. To specify a positional argument.*$/s, ''));
  }
}

function convert(spec: OptionSpec, given: unknown, where: string): unknown {
  if (spec.boolean) return booleanOf(given, where);
  const text = textOf(given, where);
  if (spec.parse === undefined) return text;
  try {
    return spec.parse(text);
  } catch (error) {
    const { message } = error as Error;
    // A secret is never echoed; a message that already quotes the whole value is not followed by it again.
    const shown = spec.secret === true || message.includes(`"${text}"`) ? '' : `, got "${text}"`;
    throw new UsageError(`${where} ${message}${shown}`);
  }
}

function booleanOf(given: unknown, where: string): boolean {
  if (typeof given === 'boolean') return given;
  if (given === '1' || given === 'true') return true;
  if (given === '0' || given === 'false') return false;
  throw new UsageError(`${where} must be true or false (1 or 0), got ${JSON.stringify(given)}`);
}

// Config files may give numbers as numbers and lists as arrays; they become the flag's text.
function textOf(given: unknown, where: string): string {
  if (typeof given === 'string') return given;
  if (typeof given === 'number') return String(given);
  if (Array.isArray(given) && given.every((item) => typeof item === 'string' || typeof item === 'number')) return given.join(',');
  throw new UsageError(`${where} must be a string, a number or a list of them, got ${JSON.stringify(given)}`);
}

function readConfigFile(path: string, specs: readonly OptionSpec[]): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(resolve(path), 'utf8');
  } catch (error) {
    throw new UsageError(`--config: cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const format = extname(path).toLowerCase();
  let content: unknown;
  try {
    if (format === '.json') content = JSON.parse(text);
    else if (format === '.yaml' || format === '.yml') content = parseYaml(text);
    else throw new Error('the file name must end in .json, .yaml or .yml');
  } catch (error) {
    throw new UsageError(`--config ${path}: ${(error as Error).message}`);
  }
  if (content === null || typeof content !== 'object' || Array.isArray(content)) {
    throw new UsageError(`--config ${path}: expected an object of options, e.g. {"port": 4010}`);
  }
  const known = new Set(specs.filter((spec) => spec !== configOption && spec !== helpOption).map((spec) => spec.name));
  const unknown = Object.keys(content).filter((key) => !known.has(key));
  if (unknown.length > 0) {
    throw new UsageError(`--config ${path}: unknown option ${unknown.map((k) => `"${k}"`).join(', ')} (known: ${[...known].join(', ')})`);
  }
  return content as Record<string, unknown>;
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

/** Parsers shared by the subcommands' option lists. */
export const parsers = {
  integer:
    (min: number, max: number) =>
    (text: string): number => {
      const value = Number(text);
      if (text.trim() === '' || !Number.isInteger(value) || value < min || value > max) throw new Error(`must be an integer from ${min} to ${max}`);
      return value;
    },
  integerList:
    (min: number, max: number) =>
    (text: string): number[] =>
      text.split(',').map((part) => parsers.integer(min, max)(part.trim())),
  list: (text: string): string[] => text.split(',').map((part) => part.trim()).filter((part) => part !== ''),
  oneOf:
    <T extends string>(choices: readonly T[]) =>
    (text: string): T => {
      if (!(choices as readonly string[]).includes(text)) throw new Error(`must be one of ${choices.join(', ')}`);
      return text as T;
    },
  /** An absolute http:// or https:// URL. */
  httpUrl: (text: string): URL => {
    const url = URL.canParse(text) ? new URL(text) : undefined;
    if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw new Error('must be an absolute http:// or https:// URL');
    return url;
  },
  /** The value `convert` reads, held to `problem` (why it is not valid, in the words of the rule that says so). */
  judged:
    <T>(problem: (value: T) => string | undefined, convert: (text: string) => T) =>
    (text: string): T => {
      const value = convert(text);
      const why = problem(value);
      if (why !== undefined) throw new Error(why);
      return value;
    },
};

/**
 * Reads a subcommand's flags (no environment, no config file) and answers what needs no more:
 * `--help` prints the usage (exit code 0), a usage error prints it with the problem (exit code 2).
 * Otherwise the values and positional arguments.
 */
export function readCommandFlags(
  command: string,
  specs: readonly OptionSpec[],
  argv: readonly string[],
  usage: string,
  io: { stdout(text: string): void; stderr(text: string): void },
  options: { positionals?: boolean } = {},
): { values: OptionValues; positionals: string[] } | number {
  let read: { values: OptionValues; positionals: string[] };
  try {
    read = readOptions(specs, argv, {}, options);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(`exchange-api-kit ${command}: ${error.message}\n\n${usage}`);
    return 2;
  }
  if (read.values.help === true) {
    io.stdout(usage);
    return 0;
  }
  return read;
}
