// The files and folders a command writes where its flags say (--out, --json, --junit, --record):
// whether they can be written, told before the command does its work (`--json: cannot write
// <path>: <reason>`, a bad flag value), and the line a command prints when a write fails after all
// (`cannot write <path>: <reason>`), instead of a stack trace once the work is done.
import { accessSync, constants, mkdirSync, statSync, writeFileSync, type Stats } from 'node:fs';
import { dirname, resolve } from 'node:path';

export interface OutputPath {
  flag: string;
  /** undefined: the flag was not given; `-` (stdout) is never checked. */
  path: string | undefined;
  /** A file needs its folder to exist; a folder is made with its parents. */
  kind: 'file' | 'folder';
}

/** The line saying why the first of `outputs` cannot be written, or undefined when all can be. */
export function unwritableOutput(outputs: readonly OutputPath[]): string | undefined {
  for (const { flag, path, kind } of outputs) {
    if (path === undefined || path === '-') continue;
    const reason = outputProblem(path, kind);
    if (reason !== undefined) return `${flag}: cannot write ${path}: ${reason}`;
  }
  return undefined;
}

/** Writes a file (making its folders first when `withFolders`); returns the line to print when that fails, else undefined. */
export function writeOutput(path: string, contents: string, withFolders = false): string | undefined {
  try {
    if (withFolders) mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, contents);
    return undefined;
  } catch (error) {
    return `cannot write ${path}: ${(error as Error).message}`;
  }
}

/** Why `path` cannot be written as a file or a folder, or undefined when it can. */
function outputProblem(path: string, kind: OutputPath['kind']): string | undefined {
  const full = resolve(path);
  try {
    const { at, stats } = nearestExisting(full);
    if (at === full && kind === 'file' && stats.isDirectory()) return 'it is a folder';
    if (at === full && kind === 'folder' && !stats.isDirectory()) return 'it is a file, not a folder';
    if (at !== full && !stats.isDirectory()) return `${at} is a file, not a folder`;
    if (at !== full && kind === 'file' && at !== dirname(full)) return `there is no folder ${dirname(full)}`;
    accessSync(at, constants.W_OK);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** `path` itself, else its closest ancestor that exists. */
function nearestExisting(path: string): { at: string; stats: Stats } {
  for (let at = path; ; at = dirname(at)) {
    const stats = statIfAny(at);
    if (stats !== undefined) return { at, stats };
  }
}

function statIfAny(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}
