/**
 * The user's private cache folders under `$XDG_CACHE_HOME/gramkit` (else `~/.cache/gramkit`): the
 * bundles of TypeScript libraries (actions/bundle-cache.ts) and V8's code cache of the CLI itself
 * (bin.ts). What they hold is code that runs, so a folder is trusted only when it is the user's
 * own: created private (0700), and ignored when it is a symbolic link, belongs to another user or
 * others may write to it. Entries go in private (0600) and are renamed into place.
 */
import { lstatSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
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
