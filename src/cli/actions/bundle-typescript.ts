/**
 * Importing a TypeScript module without a build step, cheaply: the module and the relative files
 * it imports are bundled by esbuild (the one tsx brings, an optional peer) into one ESM file
 * written beside it, imported, and removed, as Vite loads its config files. Packages stay
 * external, so they resolve from the module's own folder as they would from the `.ts` file, and
 * each bundled file keeps its own `import.meta.url`. Compared with tsx's `tsImport`, which
 * registers module hooks in a worker thread, this costs about half the CPU time of `gramkit run`
 * on a TypeScript library. Anything that stops it (no esbuild, a folder that cannot be written)
 * returns `undefined`, and the caller falls back to `tsImport`. A bundle is kept in the user's cache
 * (bundle-cache.ts) and taken from there while none of its files changed: esbuild is then not loaded.
 */
import { createRequire } from 'node:module';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type BundleEntry, cacheBundle, cachedBundle, textHash } from './bundle-cache.js';

type Esbuild = typeof import('esbuild');

/** The identifier each bundled file's `import.meta.url` is rewritten to (declared per file, so the bundler renames it per file). */
const META_URL = '__gramkit_import_meta_url';

/** esbuild as tsx's dependency, or `undefined` when tsx or esbuild is not installed. */
const loadEsbuild = async (): Promise<Esbuild | undefined> => {
  try {
    const fromHere = createRequire(import.meta.url);
    const tsx = fromHere.resolve('tsx/package.json');
    const esbuild = createRequire(tsx).resolve('esbuild');
    return (await import(pathToFileURL(esbuild).href)) as Esbuild;
  } catch {
    return undefined;
  }
};

/**
 * The CLI's own copy of the root entry (`dist/gramkit-api.js`, written with the CLI's bundle by
 * scripts/cli-bundle.ts), when the CLI runs from its bundle; `undefined` from the sources. It
 * takes the root entry's exports from the bundle itself (`scripts/cli-entry.ts`), so a library's `gramkit`
 * is the CLI's modules, loaded once.
 */
const ownApi = (): { readonly file: string; readonly root: string } | undefined => {
  const here = dirname(fileURLToPath(import.meta.url));
  const file = join(here, 'gramkit-api.js');
  return existsSync(file) ? { file, root: realpathSync(dirname(here)) } : undefined;
};

const packageName = (dir: string): string | undefined => {
  try {
    return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string }).name;
  } catch {
    return undefined;
  }
};

/** The folder of the `gramkit` package an import from `dir` resolves to (the package itself, or one in a `node_modules` above), or `undefined`. */
const gramkitFrom = (dir: string): string | undefined => {
  for (let at = dir; ; at = dirname(at)) {
    if (packageName(at) === 'gramkit') return realpathSync(at);
    const installed = join(at, 'node_modules', 'gramkit');
    if (existsSync(join(installed, 'package.json'))) return realpathSync(installed);
    if (dirname(at) === at) return undefined;
  }
};

const SOURCE = /\.(?:[cm]?ts|tsx|[cm]?js|jsx)$/;

/** Whether an `import … from 'gramkit'` from `dir` is served by the CLI's own copy (see the plugin below). */
const servedByCli = (dir: string): boolean => {
  const own = ownApi();
  return own !== undefined && gramkitFrom(dir) === own.root;
};

/**
 * The module's code as one ESM text with what it was made of, or `undefined` when esbuild is not
 * available. Rejects with esbuild's message on a syntax or resolution error.
 */
const bundle = async (file: string): Promise<BundleEntry | undefined> => {
  const esbuild = await loadEsbuild();
  if (esbuild === undefined) return undefined;
  const inputs = new Map<string, string>();
  const gramkit = new Map<string, boolean>();
  const result = await esbuild.build({
    entryPoints: [file],
    bundle: true,
    packages: 'external',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    write: false,
    logLevel: 'silent',
    sourcemap: 'inline',
    metafile: true,
    absWorkingDir: process.cwd(),
    define: { 'import.meta.url': META_URL, 'import.meta.filename': `${META_URL}_file`, 'import.meta.dirname': `${META_URL}_dir` },
    plugins: [
      {
        // `import … from 'gramkit'` resolving to the very package the CLI runs from is served by
        // the CLI's own copy: the modules it already loaded are not compiled a second time
        name: 'gramkit-own-api',
        setup(build) {
          const own = ownApi();
          if (own === undefined) return;
          build.onResolve({ filter: /^gramkit$/ }, (args) => {
            const served = servedByCli(args.resolveDir);
            gramkit.set(args.resolveDir, served);
            return served ? { path: pathToFileURL(own.file).href, external: true } : undefined;
          });
        },
      },
      {
        name: 'gramkit-import-meta',
        setup(build) {
          build.onLoad({ filter: SOURCE }, async (args) => {
            const text = await readFile(args.path, 'utf8');
            inputs.set(args.path, textHash(text));
            const url = pathToFileURL(args.path).href;
            const prelude = `const ${META_URL} = ${JSON.stringify(url)}, ${META_URL}_file = ${JSON.stringify(args.path)}, ${META_URL}_dir = ${JSON.stringify(dirname(args.path))};`;
            const loader = /\.[cm]?tsx?$/.test(args.path) ? (args.path.endsWith('x') ? 'tsx' : 'ts') : args.path.endsWith('x') ? 'jsx' : 'js';
            return { contents: `${prelude}${text}`, loader };
          });
        },
      },
    ],
  });
  const code = result.outputFiles[0]?.text;
  if (code === undefined) return undefined;
  // every file bundled passed through the plugin above (which hashed the text esbuild was given), or the bundle is not kept
  const bundled = Object.keys(result.metafile.inputs).map((p) => resolve(process.cwd(), p));
  const entry = { inputs: [...inputs], gramkit: [...gramkit], code };
  if (bundled.every((p) => inputs.has(p))) cacheBundle(file, import.meta.url, entry);
  return entry;
};

/** Imports `file` bundled (see the module comment), or `undefined` when it cannot be bundled here. */
export const importBundled = async (file: string): Promise<unknown> => {
  const code = cachedBundle(file, import.meta.url, servedByCli) ?? (await bundle(file))?.code;
  if (code === undefined) return undefined;
  const out = join(dirname(file), `.${basename(file)}.gramkit-${randomBytes(6).toString('hex')}.mjs`);
  try {
    await writeFile(out, code, { flag: 'wx', mode: 0o600 });
  } catch {
    return undefined;
  }
  try {
    return await import(pathToFileURL(out).href);
  } finally {
    await rm(out, { force: true });
  }
};
