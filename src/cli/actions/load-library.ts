/**
 * Loading a tool library from a module on disk, for `gramkit invoke --library` and
 * `gramkit run --library`: a `.ts` module (through tsx's `tsImport`, no build step) or a `.js`
 * one (plain `import()`), exporting a `ToolLibrary` or tools, in any of these forms:
 *
 *     export default toolLibrary([sayHello, getWeather]);     // a library (default or named export)
 *     export const sayHello = defineTool(spec, impl);          // tools, as named exports
 *     export default [sayHello, getWeather];                  // an array of tools
 *     export default { sayHello, getWeather };                // an object of tools
 *
 * Everything found is joined into one library; two different tools with one name are an error.
 * Libraries and tools are recognized structurally, so a module that imports another copy of
 * gramkit (the published package while the CLI runs from a bundle) works the same.
 *
 * Named libraries (`builtin`, ...) are resolved before files: a caller passes them in `named`,
 * each a function that loads its library (and, for `gramkit invoke`, its specifications).
 */
import { ToolCodes } from '../../library/codes.js';
import { importBundled } from './bundle-typescript.js';
import { CliCodes } from '../codes.js';
import { stat } from 'node:fs/promises';
import { extname, isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Either, left, right, leftOne } from '../../core/either.js';
import { type Diagnostic, error } from '../../core/diagnostic.js';
import type { ToolSpecification } from '../../specification/tool-spec.js';
import { isTool, type Tool } from '../../library/tool.js';
import { adoptLibrary, isToolLibrary, libraryEntries, lookupTool, registerTool, type ToolLibrary, unionLibraries } from '../../library/tool-library.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** A library known by name rather than by file (e.g. `builtin`), with its specifications when it has some. */
export interface NamedLibrary {
  readonly library: () => Promise<ToolLibrary>;
  readonly specifications?: () => Promise<ReadonlyArray<ToolSpecification>>;
}

export interface LoadLibraryOptions {
  /** Relative paths are resolved against it. */
  readonly cwd: string;
  /** Libraries known by name, tried before files. */
  readonly named?: Readonly<Record<string, NamedLibrary>>;
}

export const LibraryCodes = {
  NOT_FOUND: CliCodes.LIBRARY_NOT_FOUND,
  UNSUPPORTED_FILE: CliCodes.LIBRARY_UNSUPPORTED_FILE,
  LOAD_FAILED: CliCodes.LIBRARY_LOAD_FAILED,
  EMPTY: CliCodes.LIBRARY_EMPTY,
  DUPLICATE_TOOL: CliCodes.LIBRARY_DUPLICATE_TOOL,
  INVALID_ENTRY: ToolCodes.LIBRARY_INVALID_ENTRY,
  NEEDS_TSX: CliCodes.LIBRARY_NEEDS_TSX,
} as const;

const TS_EXTENSIONS = new Set(['.ts', '.mts', '.cts', '.tsx']);
const JS_EXTENSIONS = new Set(['.js', '.mjs', '.cjs']);

// -------------------------------------------------------------------------------------------------
// loading
// -------------------------------------------------------------------------------------------------

/**
 * The library a command line names: a named library, or a module file. Never rejects: every
 * problem (missing file, syntax error, nothing exported, duplicate names) is a diagnostic.
 */
export const loadLibrary = async (ref: string, options: LoadLibraryOptions): Promise<Either<ReadonlyArray<Diagnostic>, ToolLibrary>> => {
  const named = options.named !== undefined && Object.prototype.hasOwnProperty.call(options.named, ref) ? options.named[ref] : undefined;
  if (named !== undefined) {
    try {
      return right(await named.library());
    } catch (e) {
      return leftOne(error(CliCodes.LIBRARY_LOAD_FAILED, `cannot load the library "${ref}": ${messageOf(e)}`));
    }
  }
  const file = isAbsolute(ref) ? ref : resolve(options.cwd, ref);
  const ext = extname(file).toLowerCase();
  if (!TS_EXTENSIONS.has(ext) && !JS_EXTENSIONS.has(ext)) {
    const known = Object.keys(options.named ?? {});
    return leftOne(
      error(CliCodes.LIBRARY_UNSUPPORTED_FILE, `a library is a .ts or .js module, not ${ext === '' ? 'a file without extension' : `a ${ext} file`}: ${ref}`, {
        file: ref,
        ...(known.length > 0 ? { hint: `or one of the named libraries: ${known.join(', ')}` } : {}),
      }),
    );
  }
  let modified: number;
  try {
    const s = await stat(file);
    if (!s.isFile()) return leftOne(error(CliCodes.LIBRARY_NOT_FOUND, `${ref} is not a file`, { file: ref }));
    modified = s.mtimeMs;
  } catch {
    return leftOne(error(CliCodes.LIBRARY_NOT_FOUND, `no library module at ${ref} (looked at ${file})`, { file: ref }));
  }
  let namespace: Record<string, unknown>;
  try {
    namespace = (await importModule(file, modified, TS_EXTENSIONS.has(ext))) as Record<string, unknown>;
  } catch (e) {
    if (e instanceof TsxMissing) {
      return leftOne(
        error(CliCodes.LIBRARY_NEEDS_TSX, `${ref} is a TypeScript module, and loading one needs tsx, which is not installed`, {
          file: ref,
          hint: 'install it next to gramkit (npm install --save-dev tsx), or give the compiled .js module',
        }),
      );
    }
    return leftOne(error(CliCodes.LIBRARY_LOAD_FAILED, `cannot load ${ref}: ${messageOf(e)}`, { file: ref }));
  }
  return libraryFromModule(namespace, ref);
};

/** Modules already imported in this process, by path and modification time (`tsImport` does not cache). */
const imported = new Map<string, Promise<unknown>>();

/** tsx is an optional peer dependency: a TypeScript library without it is `LIBRARY_NEEDS_TSX`. */
class TsxMissing extends Error {}

const loadTsx = (): Promise<typeof import('tsx/esm/api')> =>
  import('tsx/esm/api').catch((e: unknown) => {
    const code = (e as { code?: unknown }).code;
    throw code === 'ERR_MODULE_NOT_FOUND' && /\btsx\b/.test(messageOf(e)) ? new TsxMissing(messageOf(e)) : e;
  });

/** A TypeScript module bundled by tsx's esbuild (bundle-typescript.ts), or through tsx's `tsImport` where that cannot be done. */
const importTypeScript = async (file: string, url: string): Promise<unknown> =>
  (await importBundled(file)) ?? loadTsx().then(({ tsImport }) => tsImport(url, import.meta.url));

/** Imports a module file: TypeScript bundled by tsx's esbuild or through its `tsImport` (tsx is loaded only then), JavaScript natively. */
export const importModule = (file: string, modified: number, typescript: boolean): Promise<unknown> => {
  const key = `${file}\u0000${modified}`;
  let loading = imported.get(key);
  if (loading === undefined) {
    const url = pathToFileURL(file).href;
    loading = typescript ? importTypeScript(file, url) : import(url);
    // a failed import is not kept: fixing the file and trying again must work
    loading.catch(() => imported.delete(key));
    imported.set(key, loading);
  }
  return loading;
};

// -------------------------------------------------------------------------------------------------
// what a module exports
// -------------------------------------------------------------------------------------------------

interface Found {
  readonly tool: Tool;
  /** `default`, `sayHello`, `default[2]`, `library "tools"` ... */
  readonly from: string;
}

/**
 * The library a module's exports make (see the module comment for the accepted forms), or why
 * there is none. `file` names the module in diagnostics.
 */
export const libraryFromModule = (namespace: Readonly<Record<string, unknown>>, file: string): Either<ReadonlyArray<Diagnostic>, ToolLibrary> => {
  const problems: Diagnostic[] = [];
  const libraries: ToolLibrary[] = [];
  const found: Found[] = [];
  const visit = (value: unknown, from: string, depth: number): void => {
    if (isToolLibrary(value)) {
      const adopted = adoptLibrary(value);
      problems.push(...adopted.problems.map((p) => ({ ...p, file })));
      libraries.push(adopted.library);
      for (const [, tool] of libraryEntries(adopted.library)) found.push({ tool, from });
    } else if (isTool(value)) {
      found.push({ tool: value, from });
    } else if (depth === 0 && Array.isArray(value)) {
      value.forEach((v, i) => {
        if (isTool(v)) found.push({ tool: v, from: `${from}[${i}]` });
      });
    } else if (depth === 0 && from === 'default' && typeof value === 'object' && value !== null) {
      // `export default { sayHello, getWeather }`, or a CommonJS module's exports
      for (const [k, v] of Object.entries(value)) visit(v, `default.${k}`, 1);
    }
  };
  for (const [key, value] of Object.entries(namespace)) visit(value, key, 0);

  // one tool per name: the same tool exported twice is fine, two different ones are not
  const byName = new Map<string, Found>();
  for (const f of found) {
    const seen = byName.get(f.tool.name);
    if (seen === undefined) byName.set(f.tool.name, f);
    else if (seen.tool !== f.tool) {
      problems.push(
        error(CliCodes.LIBRARY_DUPLICATE_TOOL, `${file} exports two different tools named "${f.tool.name}" (${seen.from} and ${f.from})`, {
          file,
          hint: 'export each tool once, or give them different names',
        }),
      );
    }
  }
  if (problems.some((p) => p.severity === 'error')) return left(problems);
  if (byName.size === 0) {
    return leftOne(
      error(CliCodes.LIBRARY_EMPTY, `${file} exports no ToolLibrary and no tool`, {
        file,
        hint: 'export default toolLibrary([...tools]), or export each tool made with createTool/defineTool',
      }),
    );
  }
  // the libraries as they are (entries keep the names they were registered under), then the loose tools
  let library = unionLibraries(...libraries);
  for (const f of byName.values()) if (!libraries.some((l) => lookupTool(f.tool.name, l) === f.tool)) library = registerTool(f.tool.name, f.tool, library);
  return right(library);
};

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

/** What went wrong, without a stack (a transform error's message holds the file, line and column). */
const messageOf = (e: unknown): string => {
  const m = (e instanceof Error ? e.message : String(e)).trim();
  return m.length > 1500 ? `${m.slice(0, 1500)}…` : m;
};
