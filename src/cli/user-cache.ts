/**
 * The user's private cache folders under `$XDG_CACHE_HOME/gramkit` (else `~/.cache/gramkit`): the
 * bundles of TypeScript libraries (actions/bundle-cache.ts) and V8's code cache of the CLI itself
 * (bin.ts). What they hold is code that runs, so a folder is trusted only when it is the user's
 * own: created private (0700), and ignored when it is a symbolic link, belongs to another user or
 * others may write to it. Entries go in private (0600) and are renamed into place. A folder is kept
 * bounded by its user (`pruneFolder`): an entry is marked when used (`markUsed`), and one unused
 * for UNUSED_DAYS days goes.
 */
import { lstatSync, lutimesSync, mkdirSync, readdirSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The user's private cache folder `name`, created if need be; `undefined` when it cannot be trusted or made. */
export const userCacheFolder = (name: string): string | undefined => {
  const xdg = process.env['XDG_CACHE_HOME'];
  const base = xdg?.startsWith('/') ? xdg : join(homedir(), '.cache');
  const dir = join(base, 'gramkit', name);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = lstatSync(dir);
    const mine = typeof process.getuid !== 'function' || st.uid === process.getuid();
    return st.isDirectory() && mine && (st.mode & 0o022) === 0 ? dir : undefined;
  } catch {
    return undefined;
  }
};

/** Writes `target` whole or not at all (private, through a file of its own renamed into place); silently not when it cannot. */
export const writePrivateFile = (target: string, data: string | Uint8Array): void => {
  const temporary = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    writeFileSync(temporary, data, { flag: 'wx', mode: 0o600 });
    renameSync(temporary, target);
  } catch {
    rmSync(temporary, { force: true });
  }
};

const DAY = 24 * 60 * 60 * 1000;

/** An entry unused this long is removed by the next pruning of its folder. */
export const UNUSED_DAYS = 30;

/** Whether a name is a temporary file `writePrivateFile` made for an entry named as `entry` says. */
export const isTemporaryOf = (name: string, entry: RegExp): boolean => {
  const m = /^(.*)\.[0-9]+\.[0-9a-z]*\.tmp$/.exec(name);
  return m !== null && entry.test(m[1] as string);
};

/**
 * Marks the entry `path` as used `now` (its modification time, which pruning reads), at most once
 * a day so a run costs one `lstat`; silently not when it cannot.
 */
export const markUsed = (path: string, now: number): void => {
  try {
    if (lstatSync(path).mtimeMs < now - DAY) lutimesSync(path, now / 1000, now / 1000);
  } catch {
    // best effort: an entry not marked is at worst made again after it is pruned
  }
};

/**
 * Removes the regular files of `folder` (its own names only: it never descends, never follows a
 * link) for which `remove(name, path, modified)` holds; best effort, never throws.
 */
export const pruneFolder = (folder: string, remove: (name: string, path: string, modified: number) => boolean): void => {
  let names: ReadonlyArray<string>;
  try {
    names = readdirSync(folder);
  } catch {
    return;
  }
  for (const name of names) {
    const path = join(folder, name);
    try {
      const st = lstatSync(path);
      if (st.isFile() && remove(name, path, st.mtimeMs)) unlinkSync(path);
    } catch {
      // gone already, or not ours to remove
    }
  }
};

/** `pruneFolder` for entries named as `entry` says: those unused for UNUSED_DAYS days, and their temporary files after an hour. */
export const pruneUnused = (folder: string, entry: RegExp, now: number): void =>
  pruneFolder(folder, (name, _path, modified) =>
    entry.test(name) ? modified < now - UNUSED_DAYS * DAY : isTemporaryOf(name, entry) && modified < now - DAY / 24,
  );
