/**
 * The `gramkit` binary (`dist/cli.js`): runs the CLI (main.ts), built as one CommonJS file,
 * `dist/cli-main.cjs`, through V8's code cache, as `v8-compile-cache` and Node 22's
 * `module.enableCompileCache` do (Node 20 has no cache for ES modules). Compiling the CLI's code is
 * a large part of its start: with the cache, `gramkit run` takes about 0.6× the CPU time it takes
 * without (bench/gram.bench.ts).
 *
 * The cache is a file per command in the user's private cache folder (user-cache.ts: `gramkit/v8`),
 * named by the bundle's path, Node's version, the architecture and the command's name: an entry
 * holds the functions its command compiled (one written by `--version` would leave most of `run`
 * to compile, about 40% more CPU time). An entry starts with a header (code-cache.ts: the format,
 * and the CRC-32 and length of the bundle it was made from) and is used only for that same bundle, so another
 * build or install never runs with it; V8 checks its own version and flags too. Code it holds
 * runs, so the folder must be the user's own: anything wrong (a folder that cannot be trusted, an
 * unreadable, stale or rejected entry) means compiling without it, never a failure. A missing or
 * refused entry is written when the command exits, unless its command line was refused (a mistyped
 * command leaves none), or once it has run for two seconds (a server started, which may never exit
 * on its own). Having written one, the binary prunes the folder (code-cache.ts): entries of another
 * bundle, and entries unused for 30 days (a used entry is marked so, once a day), go.
 *
 * A script run by `vm` has no dynamic `import()` without `--experimental-vm-modules`, so the build
 * (scripts/cli-bundle.ts) rewrites each `import(…)` of the bundle to `$gkImp(…)`, which
 * the wrapper below passes: imports resolve from this file's folder, the bundle's.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import { crc32 } from 'node:zlib';
import { entryHeader, fitsBundle, HEADER, pruneCodeCache } from './code-cache.js';
import { markUsed, userCacheFolder, writePrivateFile } from './user-cache.js';

const dir = fileURLToPath(new URL('.', import.meta.url));
const file = join(dir, 'cli-main.cjs');
const bytes = readFileSync(file);
const bundle = { sum: crc32(bytes), length: bytes.length };

/** The command's name (`-` when the arguments start with an option). */
const command = /^[a-z][a-z-]{0,31}$/.test(process.argv[2] ?? '') ? process.argv[2] : '-';

/** The trusted cache folder, or `undefined`. */
const folder = userCacheFolder('v8');

/** The cache entry of this command of this bundle under this Node, or `undefined` when there is no trusted cache folder. */
const entry = ((): string | undefined => {
  const key = `${process.version}\u0000${process.arch}\u0000${file}\u0000${command}`;
  return folder === undefined ? undefined : join(folder, `${command}-${crc32(key).toString(16)}.bin`);
})();

/** V8's cached data for this very bundle, or `undefined`. */
const cached = ((): Buffer | undefined => {
  if (entry === undefined) return undefined;
  try {
    const data = readFileSync(entry);
    return fitsBundle(data, bundle) ? data.subarray(HEADER) : undefined;
  } catch {
    return undefined;
  }
})();

// the bundle is ASCII (the build makes it so): its bytes are its characters, a one-byte string
const script = new Script(`(function (exports, require, module, __filename, __dirname, $gkImp) {\n${bytes.toString('latin1')}\n})`, {
  filename: file,
  lineOffset: -1,
  cachedData: cached,
});

if (entry !== undefined && cached !== undefined && script.cachedDataRejected !== true) markUsed(entry, Date.now());
if (entry !== undefined && folder !== undefined && (cached === undefined || script.cachedDataRejected === true)) {
  let written = false;
  const write = (): void => {
    if (written) return;
    written = true;
    writePrivateFile(entry, Buffer.concat([entryHeader(bundle), script.createCachedData()]));
    pruneCodeCache(folder, bundle, Date.now());
  };
  setTimeout(write, 2000).unref();
  // 0: done, 1: the command reported a failure; not a usage error (2) or an internal one
  process.once('exit', (code) => {
    if (code === 0 || code === 1) write();
  });
}

const module = { exports: {} };
const run = script.runInThisContext() as (...args: ReadonlyArray<unknown>) => void;
run(module.exports, createRequire(file), module, file, dir, (specifier: string, options?: ImportCallOptions) => import(specifier, options));
