/**
 * The cache of the bundles bundle-typescript.ts makes: a TypeScript library none of whose files
 * changed since it was last bundled is imported from its cached bundle, and esbuild is not even
 * loaded (its client module, its service process and the round trip to it cost `gramkit run` on a
 * TypeScript library ≈ 0.1 s of CPU time and more of elapsed time, every run).
 *
 * One file per library, in the user's cache folder (`$XDG_CACHE_HOME/gramkit/typescript`, else
 * `~/.cache/gramkit/typescript`), named by a hash of the library's path and of the CLI's own module
 * (another build or install of gramkit has entries of its own). It holds the bundle and what it was
 * made of: each file bundled, with a hash of the text esbuild was given; each folder holding one of
 * them, with a hash of the names in it (a file added beside one, say `util.js` beside `util.ts`, may
 * change what an import resolves to); and each folder whose `import … from 'gramkit'` the CLI's own
 * copy served, or did not. An entry is used only while every file has that same text, every such
 * folder holds the same names and resolves `gramkit` the same way.
 *
 * A cached bundle is code that runs: the folder is the user's own (user-cache.ts: private, ignored
 * when a symbolic link, another user's or writable by others); entries are written private and
 * renamed into place, so a reader never sees half of one. Anything wrong with the cache
 * (unreadable, malformed, stale) means bundling again, never a failure. The folder is bounded: an
 * entry used is marked so (once a day), and writing one removes those unused for a month
 * (user-cache.ts `pruneUnused`: only files named as entries, no link followed).
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { isRecord } from '../../core/json.js';
import { markUsed, pruneUnused, userCacheFolder, writePrivateFile } from '../user-cache.js';

/** What a bundle was made of, and the bundle. */
export interface BundleEntry {
  /** Each bundled file (absolute path) with the hash of its text (`textHash`). */
  readonly inputs: ReadonlyArray<readonly [string, string]>;
  /** Each folder an `import … from 'gramkit'` was resolved from, and whether the CLI's own copy served it. */
  readonly gramkit: ReadonlyArray<readonly [string, boolean]>;
  readonly code: string;
}

/** An entry as kept: what it was made of, and the names in each folder of its files (`folderHash`). */
interface KeptEntry extends BundleEntry {
  readonly folders: ReadonlyArray<readonly [string, string]>;
}

const VERSION = 2;

/** The name of an entry (`entryFile`). */
const ENTRY_NAME = /^[0-9a-f]{32}\.json$/;

/** The hash an entry keeps of a file's text. */
export const textHash = (text: string): string => createHash('sha256').update(text).digest('base64url');

/** The hash of the names a folder holds (sorted), or `undefined` when it cannot be read. */
const folderHash = (dir: string): string | undefined => {
  try {
    return textHash(readdirSync(dir).sort().join('\u0000'));
  } catch {
    return undefined;
  }
};

/** The entry file of a library bundled by the module at `bundler` (the CLI's own module URL). */
const entryFile = (dir: string, file: string, bundler: string): string =>
  join(
    dir,
    `${createHash('sha256')
      .update(`${VERSION}\u0000${bundler}\u0000${resolve(file)}`)
      .digest('hex')
      .slice(0, 32)}.json`,
  );

const isPair = (x: unknown, second: 'string' | 'boolean'): x is readonly [string, never] =>
  Array.isArray(x) && x.length === 2 && typeof x[0] === 'string' && typeof x[1] === second;

const parseEntry = (text: string): KeptEntry | undefined => {
  const e: unknown = JSON.parse(text);
  if (!isRecord(e) || e['version'] !== VERSION || typeof e['code'] !== 'string') return undefined;
  const inputs = e['inputs'];
  const folders = e['folders'];
  const gramkit = e['gramkit'];
  if (!Array.isArray(inputs) || !inputs.every((x) => isPair(x, 'string'))) return undefined;
  if (!Array.isArray(folders) || !folders.every((x) => isPair(x, 'string'))) return undefined;
  if (!Array.isArray(gramkit) || !gramkit.every((x) => isPair(x, 'boolean'))) return undefined;
  return { inputs, folders, gramkit, code: e['code'] };
};

const unchanged = (path: string, hash: string): boolean => {
  try {
    return textHash(readFileSync(path, 'utf8')) === hash;
  } catch {
    return false;
  }
};

/**
 * The cached bundle of `file`, when every file it was made of is unchanged and every folder it
 * imported `gramkit` from still resolves it as `servedByCli` says; else `undefined`.
 */
export const cachedBundle = (file: string, bundler: string, servedByCli: (dir: string) => boolean): string | undefined => {
  const dir = userCacheFolder('typescript');
  if (dir === undefined) return undefined;
  const path = entryFile(dir, file, bundler);
  let entry: KeptEntry | undefined;
  try {
    entry = parseEntry(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
  if (entry === undefined) return undefined;
  const fresh =
    entry.inputs.every(([input, hash]) => unchanged(input, hash)) &&
    entry.folders.every(([folder, hash]) => folderHash(folder) === hash) &&
    entry.gramkit.every(([from, own]) => servedByCli(from) === own);
  if (fresh) markUsed(path, Date.now());
  return fresh ? entry.code : undefined;
};

/** Keeps the bundle of `file` for the next runs (silently not, when the cache cannot be written). */
export const cacheBundle = (file: string, bundler: string, entry: BundleEntry): void => {
  const dir = userCacheFolder('typescript');
  if (dir === undefined) return;
  const folders: Array<readonly [string, string]> = [];
  for (const folder of new Set(entry.inputs.map(([path]) => dirname(path)))) {
    const hash = folderHash(folder);
    if (hash === undefined) return;
    folders.push([folder, hash]);
  }
  writePrivateFile(entryFile(dir, file, bundler), JSON.stringify({ version: VERSION, ...entry, folders }));
  // bounded: the entries of libraries (or builds of gramkit) unused for a month go
  pruneUnused(dir, ENTRY_NAME, Date.now());
};
