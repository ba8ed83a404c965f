/**
 * Which library implements a file's tools: one rule for every command that runs them (`run`,
 * `invoke`, `mcp`, `ab`; `check --library` binds to the same modules).
 *
 * 1. The modules: the file argument when it is a library itself (`builtin`, an MCP server), then
 *    each `--library` in order; when there is none of these, the file header's `library`. A
 *    `--library` replaces the header's library, it does not add to it.
 * 2. The tools of a catalog (`--catalog`).
 * 3. The tools the file declares itself (`http: {...}`, `command: {...}`), for those no module and
 *    no catalog provides.
 * 4. The built-in tools the file names without defining them (`read_file`), unless `builtin` is
 *    among the modules.
 *
 * On a shared name the first of these wins (modules over the catalog over declared tools over
 * built-in ones), and among the modules the later one. With no module, a tool that nothing
 * implements is a failure that lists them (`unimplemented`).
 */
import { type Either, isLeft } from '../core/either.js';
import type { Diagnostic } from '../core/diagnostic.js';
import { type CodedError, codedError, err, ok, type Result } from '../core/result.js';
import { emptyToolLibrary, hasTool, type ToolLibrary, unionLibraries } from '../library/tool-library.js';
import type { ToolSpecification } from '../specification/tool-spec.js';
import { declaresImplementation } from '../tools/declared-kind.js';
import { builtinSpecification, isBuiltinToolName } from '../tools/builtin/specifications.js';
import { type ProjectCode, ProjectCodes } from './codes.js';
import { BUILTIN } from './project-file.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** What a command knows about where its tools come from. */
export interface LibraryRequest {
  /** The tools to implement (an agent's, a file's, one tool's). */
  readonly tools: ReadonlyArray<ToolSpecification>;
  /** `--library`, in order (each a module path, `builtin` or an MCP server). */
  readonly given: ReadonlyArray<string>;
  /** The file header's `library` (project-file.ts). */
  readonly header?: string;
  /** The file argument, when it is a library itself: `builtin` or an MCP server. */
  readonly source?: string;
  /** The tools of a catalog. */
  readonly catalog?: ToolLibrary;
  /** What the tools are, in messages: `agent "greeter"`, a file's name (default `the file`). */
  readonly what?: string;
}

/** How the parts are made: `defaultLoaders` (default-loaders.ts), or a program's own. */
export interface LibraryLoaders {
  /** A module (`loadLibrary`'s failure holds the module's diagnostics in `details.diagnostics`). */
  readonly module: (ref: string) => Promise<Result<ToolLibrary, CodedError>>;
  /** The library of tools that declare their implementation. */
  readonly declared: (tools: ReadonlyArray<ToolSpecification>) => Either<ReadonlyArray<Diagnostic>, ToolLibrary>;
  /** The built-in tools (for the built-in tools the file names). */
  readonly builtin: () => Promise<Result<ToolLibrary, CodedError>>;
}

export type LibraryFailure =
  | { readonly kind: 'module'; readonly ref: string; readonly error: CodedError }
  | { readonly kind: 'declared'; readonly diagnostics: ReadonlyArray<Diagnostic> }
  | { readonly kind: 'unimplemented'; readonly tools: ReadonlyArray<string>; readonly error: CodedError<ProjectCode> }
  | { readonly kind: 'builtins'; readonly error: CodedError };

export interface ResolvedLibrary {
  readonly library: ToolLibrary;
  /** The modules chosen by the rule (step 1), in order. */
  readonly modules: ReadonlyArray<string>;
}

// -------------------------------------------------------------------------------------------------
// the rule
// -------------------------------------------------------------------------------------------------

/** Step 1: the modules, in order (the later wins on a shared name). */
export const chosenModules = (request: Pick<LibraryRequest, 'given' | 'header' | 'source'>): ReadonlyArray<string> => {
  const named = [...(request.source !== undefined ? [request.source] : []), ...request.given];
  return named.length > 0 ? named : request.header !== undefined ? [request.header] : [];
};

/** The tools among `tools` that are the built-in tools (named, not defined, by the file). */
export const builtinToolsOf = (tools: ReadonlyArray<ToolSpecification>): ReadonlySet<string> => {
  if (!tools.some((t) => isBuiltinToolName(t.name))) return new Set();
  return new Set(tools.filter((t) => builtinSpecification(t.name) === t).map((t) => t.name));
};

/** The library that implements `request.tools`, by the rule of this module's comment. */
export const resolveLibrary = async (request: LibraryRequest, loaders: LibraryLoaders): Promise<Result<ResolvedLibrary, LibraryFailure>> => {
  const modules = chosenModules(request);
  const libraries: ToolLibrary[] = [];
  for (const ref of modules) {
    const lib = await loaders.module(ref);
    if (!lib.ok) return err({ kind: 'module', ref, error: lib.error });
    libraries.push(lib.value);
  }
  const { tools, catalog } = request;
  const builtins = builtinToolsOf(tools);
  const provided = (name: string): boolean => libraries.some((l) => hasTool(name, l)) || (catalog !== undefined && hasTool(name, catalog));
  const own = tools.filter((t) => !builtins.has(t.name) && !provided(t.name));
  const declaring = own.filter(declaresImplementation);
  const declared = declaring.length > 0 ? loaders.declared(declaring) : undefined;
  if (declared !== undefined && isLeft(declared)) return err({ kind: 'declared', diagnostics: declared.left });
  if (modules.length === 0) {
    const missing = own.filter((t) => !declaresImplementation(t)).map((t) => t.name);
    if (missing.length > 0) {
      const error = codedError(ProjectCodes.UNIMPLEMENTED_TOOLS, `no library implements the tools of ${request.what ?? 'the file'} (${missing.join(', ')})`);
      return err({ kind: 'unimplemented', tools: missing, error });
    }
  }
  let base: ToolLibrary[] = [];
  if (builtins.size > 0 && !modules.includes(BUILTIN)) {
    const b = await loaders.builtin();
    if (!b.ok) return err({ kind: 'builtins', error: b.error });
    base = [b.value];
  }
  // the right wins: modules over a catalog's tools over declared tools (none of which a catalog has) over built-in ones
  const all = [...base, ...(declared !== undefined ? [declared.right] : []), ...(catalog !== undefined ? [catalog] : []), ...libraries];
  return ok({ library: all.length === 0 ? emptyToolLibrary : unionLibraries(...all), modules });
};
