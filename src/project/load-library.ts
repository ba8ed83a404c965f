/**
 * Loading a tool library from a module on disk (`gramkit invoke|run --library`, a file header's
 * `library`, or a program's own call): a `.js` module (plain `import()`) or a `.ts` one, exporting
 * a `ToolLibrary` or tools, in any of these forms:
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
 * A TypeScript module is imported by the caller's `importTs` (the CLI passes its esbuild bundler,
 * cli/actions/import-typescript.ts); without one it is imported as node would, which works under
 * tsx (`node --import tsx`) and fails on a node that does not import `.ts`
 * (`PROJECT_LIBRARY_NEEDS_TSX`, never a stack trace).
 *
 * Named libraries (`builtin`, ...) are resolved before files: a caller passes them in `named`,
 * each a function that loads its library (and, for `gramkit invoke`, its specifications).
 */
import { stat } from 'node:fs/promises';
import { extname, isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Either, isLeft, left, right, leftOne } from '../core/either.js';
import { type Diagnostic, error, isError } from '../core/diagnostic.js';
import { type CodedError, codedError, err, ok, type Result } from '../core/result.js';
import type { ToolSpecification } from '../specification/tool-spec.js';
import { ToolCodes } from '../library/codes.js';
import { isTool, type Tool } from '../library/tool.js';
import { adoptLibrary, isToolLibrary, libraryEntries, lookupTool, registerTool, type ToolLibrary, unionLibraries } from '../library/tool-library.js';
import { type ProjectCode, ProjectCodes } from './codes.js';

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
  /**
   * Imports a TypeScript module (its absolute path) and resolves to its namespace. Without it, a
   * `.ts` module is imported as node would (`import()`): that works under tsx and on a node that
   * strips types, and is `PROJECT_LIBRARY_NEEDS_TSX` elsewhere.
   */
  readonly importTs?: ImportTs;
}

/** How a TypeScript module is imported; it throws `TypeScriptUnavailable` when it cannot be (a missing optional dependency). */
export type ImportTs = (file: string) => Promise<unknown>;

/**
 * Thrown by an `ImportTs` that cannot import TypeScript here: the loader reports
 * `PROJECT_LIBRARY_NEEDS_TSX` as "<file> is a TypeScript module, and <message>" with this hint.
 */
export class TypeScriptUnavailable extends Error {
  constructor(
    message: string,
    readonly hint: string,
  ) {
    super(message);
    this.name = 'TypeScriptUnavailable';
  }
}

export const LibraryCodes = {
  NOT_FOUND: ProjectCodes.LIBRARY_NOT_FOUND,
  UNSUPPORTED_FILE: ProjectCodes.LIBRARY_UNSUPPORTED_FILE,
  LOAD_FAILED: ProjectCodes.LIBRARY_LOAD_FAILED,
  EMPTY: ProjectCodes.LIBRARY_EMPTY,
  DUPLICATE_TOOL: ProjectCodes.LIBRARY_DUPLICATE_TOOL,
  INVALID_ENTRY: ToolCodes.LIBRARY_INVALID_ENTRY,
  NEEDS_TSX: ProjectCodes.LIBRARY_NEEDS_TSX,
} as const;

/** The precise codes of a library that does not load. */
export type LibraryCode = ProjectCode | typeof ToolCodes.LIBRARY_INVALID_ENTRY;

/**
 * Why a library did not load: the first error's code, message and hint, with every diagnostic
 * (a module may export several bad things at once) in `details.diagnostics` and the module in
 * `details.file`.
 */
export type LibraryLoadError = CodedError<LibraryCode>;

/**
 * A failure made of diagnostics (at least one error; a module that does not load, a file that does
 * not compile): the first error's code, message and hint, with all of them in `details.diagnostics`
 * (and `details.file`, the first error's file; `source`: the text they point into, for carets).
 */
export const diagnosticsError = <C extends string = string>(
  ds: ReadonlyArray<Diagnostic>,
  source?: { readonly name: string; readonly text: string },
): CodedError<C> => {
  const first = ds.find(isError) ?? (ds[0] as Diagnostic);
  return codedError(first.code as C, first.message, {
    details: { ...(first.file !== undefined ? { file: first.file } : {}), diagnostics: ds, ...(source !== undefined ? { source } : {}) },
    ...(first.hint !== undefined ? { hint: first.hint } : {}),
  });
};

const TS_EXTENSIONS = new Set(['.ts', '.mts', '.cts', '.tsx']);
const JS_EXTENSIONS = new Set(['.js', '.mjs', '.cjs']);

// -------------------------------------------------------------------------------------------------
// loading
// -------------------------------------------------------------------------------------------------

/**
 * The library a command line names: a named library, or a module file. Never rejects: every
 * problem (missing file, syntax error, nothing exported, duplicate names) is a `LibraryLoadError`.
 */
export const loadLibrary = async (ref: string, options: LoadLibraryOptions): Promise<Result<ToolLibrary, LibraryLoadError>> => {
  const loaded = await loadLibraryDiagnosed(ref, options);
  return isLeft(loaded) ? err(diagnosticsError<LibraryCode>(loaded.left)) : ok(loaded.right);
};

const loadLibraryDiagnosed = async (ref: string, options: LoadLibraryOptions): Promise<Either<ReadonlyArray<Diagnostic>, ToolLibrary>> => {
  const named = options.named !== undefined && Object.hasOwn(options.named, ref) ? options.named[ref] : undefined;
  if (named !== undefined) {
    try {
      return right(await named.library());
    } catch (e) {
      return leftOne(error(ProjectCodes.LIBRARY_LOAD_FAILED, `cannot load the library "${ref}": ${messageOf(e)}`));
    }
  }
  const file = isAbsolute(ref) ? ref : resolve(options.cwd, ref);
  const ext = extname(file).toLowerCase();
  if (!TS_EXTENSIONS.has(ext) && !JS_EXTENSIONS.has(ext)) {
    const known = Object.keys(options.named ?? {});
    return leftOne(
      error(
        ProjectCodes.LIBRARY_UNSUPPORTED_FILE,
        `a library is a .ts or .js module, not ${ext === '' ? 'a file without extension' : `a ${ext} file`}: ${ref}`,
        {
          file: ref,
          ...(known.length > 0 ? { hint: `or one of the named libraries: ${known.join(', ')}` } : {}),
        },
      ),
    );
  }
  let modified: number;
  try {
    const s = await stat(file);
    if (!s.isFile()) return leftOne(error(ProjectCodes.LIBRARY_NOT_FOUND, `${ref} is not a file`, { file: ref }));
    modified = s.mtimeMs;
  } catch {
    return leftOne(error(ProjectCodes.LIBRARY_NOT_FOUND, `no library module at ${ref} (looked at ${file})`, { file: ref }));
  }
  const typescript = TS_EXTENSIONS.has(ext);
  let namespace: Record<string, unknown>;
  try {
    namespace = (await importModule(file, modified, typescript ? (options.importTs ?? nodeImport) : nodeImport)) as Record<string, unknown>;
  } catch (e) {
    if (e instanceof TypeScriptUnavailable)
      return leftOne(error(ProjectCodes.LIBRARY_NEEDS_TSX, `${ref} is a TypeScript module, and ${e.message}`, { file: ref, hint: e.hint }));
    if (typescript && options.importTs === undefined && (e as { code?: unknown }).code === 'ERR_UNKNOWN_FILE_EXTENSION') {
      return leftOne(
        error(ProjectCodes.LIBRARY_NEEDS_TSX, `${ref} is a TypeScript module, and this node does not import one: ${messageOf(e)}`, {
          file: ref,
          hint: 'run the program under tsx (node --import tsx), pass importTs to loadLibrary, or give the compiled .js module',
        }),
      );
    }
    return leftOne(error(ProjectCodes.LIBRARY_LOAD_FAILED, `cannot load ${ref}: ${messageOf(e)}`, { file: ref }));
  }
  return libraryFromModule(namespace, ref);
};

/** A module imported as node imports it. */
const nodeImport: ImportTs = (file) => import(pathToFileURL(file).href);

/** Modules already imported in this process, by importer, path and modification time (tsx's `tsImport` does not cache). */
const imported = new WeakMap<ImportTs, Map<string, Promise<unknown>>>();

/** Imports a module file with `importer` (node's `import()` by default), once per importer, path and modification time; a failed import is not kept. */
export const importModule = (file: string, modified: number, importer: ImportTs = nodeImport): Promise<unknown> => {
  const key = `${file}\u0000${modified}`;
  let byFile = imported.get(importer);
  if (byFile === undefined) {
    byFile = new Map();
    imported.set(importer, byFile);
  }
  const cache = byFile;
  let loading = cache.get(key);
  if (loading === undefined) {
    loading = importer(file);
    // a failed import is not kept: fixing the file and trying again must work
    loading.catch(() => cache.delete(key));
    cache.set(key, loading);
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
        error(ProjectCodes.LIBRARY_DUPLICATE_TOOL, `${file} exports two different tools named "${f.tool.name}" (${seen.from} and ${f.from})`, {
          file,
          hint: 'export each tool once, or give them different names',
        }),
      );
    }
  }
  if (problems.some((p) => p.severity === 'error')) return left(problems);
  if (byName.size === 0) {
    return leftOne(
      error(ProjectCodes.LIBRARY_EMPTY, `${file} exports no ToolLibrary and no tool`, {
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
