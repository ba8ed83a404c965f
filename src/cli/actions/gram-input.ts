/**
 * Reading gram sources for the CLI: a file (relative to the working directory), standard input
 * (`-`), or every `.gram` file under a directory. Failures are results (`CLI_UNREADABLE`), not
 * exceptions.
 */
import { type CodedError, failWith, ok, type Result } from '../../core/result.js';
import { type CliCode, CliCodes } from '../codes.js';
import { readdir, readFile, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import type { CliIO } from '../io.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface Source {
  /** As shown in messages: the argument as given, `<stdin>` for `-`. */
  readonly name: string;
  /** Absolute path, absent for standard input. */
  readonly path?: string;
  readonly text: string;
}

export type Loaded = Result<Source, CodedError<CliCode>>;

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

const reason = (e: unknown): string => {
  const code = (e as { code?: string }).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'it is a directory';
  if (code === 'EACCES') return 'permission denied';
  return e instanceof Error ? e.message : String(e);
};

/** Reads one argument: `-` is standard input. */
export const loadSource = async (io: CliIO, arg: string): Promise<Loaded> => {
  if (arg === '-') return ok({ name: '<stdin>', text: await io.readStdin() });
  const path = isAbsolute(arg) ? arg : resolve(io.cwd, arg);
  try {
    return ok({ name: arg, path, text: await readFile(path, 'utf8') });
  } catch (e) {
    return failWith(CliCodes.UNREADABLE, `cannot read ${arg}: ${reason(e)}`);
  }
};

/** Expands directories to the `.gram` files under them (sorted); other arguments stay as given. */
export const expandArguments = async (io: CliIO, args: ReadonlyArray<string>): Promise<string[]> => {
  const out: string[] = [];
  for (const arg of args) {
    if (arg === '-') {
      out.push(arg);
      continue;
    }
    const path = isAbsolute(arg) ? arg : resolve(io.cwd, arg);
    let isDir = false;
    try {
      isDir = (await stat(path)).isDirectory();
    } catch {
      isDir = false;
    }
    if (!isDir) {
      out.push(arg);
      continue;
    }
    const found: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      const entries = await readdir(dir, { withFileTypes: true });
      for (const e of entries) {
        if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
        const p = join(dir, e.name);
        if (e.isDirectory()) await walk(p);
        else if (e.isFile() && e.name.endsWith('.gram')) found.push(p);
      }
    };
    await walk(path);
    found.sort();
    for (const f of found) out.push(isAbsolute(arg) ? f : relative(io.cwd, f) || f);
  }
  return out;
};
