/**
 * What a command line names as specifications and as a library, resolved in one place so every
 * command accepts the same forms:
 *
 * - a specification argument: a file (`.gram`, or `.json` in the JSON form) relative to the working
 *   directory, `-` for standard input, `builtin` for the built-in tools' specifications, or an MCP
 *   server (`mcp:<url>`, `mcp+stdio:<command line>`: its tools, imported);
 * - a library argument: a `.ts`/`.js` module, `builtin` for the built-in tools, confined to the
 *   workspace (`--workspace <dir>`, default the working directory), or an MCP server (its tools,
 *   called remotely).
 *
 * `builtin` is a name, not a file: to use a file named so, write `./builtin`.
 */
import { type CodedError, err, failWith, ok, type Result } from '../../core/result.js';
import { type CliCode, CliCodes } from '../codes.js';
import { stat } from 'node:fs/promises';
import { extname, isAbsolute, resolve } from 'node:path';
import { type Either, isLeft } from '../../core/either.js';
import { type FileLoadFailure, loadProjectFile, type ParseEvent, type ProjectFile, type ProjectSource, BUILTIN } from '../../project/project-file.js';
import { BUILTINS_GRAM } from '../../tools/builtin/builtins-gram.js';
import { emptyToolLibrary, type ToolLibrary, unionLibraries } from '../../library/tool-library.js';
import type { ToolSpecification } from '../../specification/tool-spec.js';
import type { CompileCache } from '../../specification/compile-cache.js';
import type { CommandContext } from '../context.js';
import type { CliIO } from '../io.js';
import { type Loaded, loadSource } from './gram-input.js';
import { diagnosticsError, loadLibrary } from '../../project/load-library.js';
import type { LibraryLoaders } from '../../project/library.js';
import { importTypeScript } from './import-typescript.js';
import { isMcpAddress, mcpLibrary, openMcp } from './mcp-source.js';

// -------------------------------------------------------------------------------------------------
// model (the project layer's: a file is loaded once there, src/project/project-file.ts)
// -------------------------------------------------------------------------------------------------

export { BUILTIN } from '../../project/project-file.js';
export { webSearchOf } from '../../project/named-libraries.js';

/** A loaded specification source: the text and where it came from. */
export type SpecSource = ProjectSource;

/** A loaded file: the source, its specifications and its header. */
export type LoadedSpecs = ProjectFile;

export type SpecLoadFailure = FileLoadFailure;

/** The environment variable that names what the CLI traces on stderr (`parse`: each parse of a specification file). */
export const GRAMKIT_TRACE = 'GRAMKIT_TRACE';

/** `GRAMKIT_TRACE=parse`: a line on stderr for each parse of a specification file. */
export const parseTrace = (io: CliIO): ((e: ParseEvent) => void) | undefined => {
  if (!(io.env[GRAMKIT_TRACE] ?? '').split(',').some((w) => w.trim() === 'parse')) return undefined;
  return (e) => io.stderr(`gramkit: trace: parse ${e.file} (${e.format}, ${e.bytes} bytes)\n`);
};

// -------------------------------------------------------------------------------------------------
// specifications
// -------------------------------------------------------------------------------------------------

/** The text of a specification argument: `builtin`, `-` (stdin) or a file. */
export const readSpecSource = async (io: CliIO, arg: string): Promise<Result<SpecSource, CodedError<CliCode>>> => {
  if (arg === BUILTIN) return ok({ name: BUILTIN, text: BUILTINS_GRAM, builtin: true, format: 'gram' });
  const loaded: Loaded = await loadSource(io, arg);
  if (!loaded.ok) return loaded;
  return ok({ ...loaded.value, builtin: false, format: extname(loaded.value.name).toLowerCase() === '.json' ? 'json' : 'gram' });
};

/**
 * The specifications of an argument, loaded once (src/project/project-file.ts). An MCP server's
 * tools come through the importer; tools it could not import are warnings.
 * `knownTools`: more specifications agents may name without defining them (a catalog's), besides the built-in ones.
 * A file that cannot be read is `CLI_UNREADABLE`; one that does not compile is its first error,
 * with every diagnostic and the text they point into in `details` (report.ts renders them).
 */
export const loadSpecSource = async (
  ctx: CommandContext,
  arg: string,
  knownTools: ReadonlyArray<ToolSpecification> = [],
): Promise<Result<LoadedSpecs, CodedError>> => {
  const io = ctx.io;
  if (isMcpAddress(arg)) return loadMcpSpecs(ctx, arg);
  const read = await readSpecSource(io, arg);
  if (!read.ok) return read;
  const loaded = await specsOfSource(io, read.value, { knownTools });
  if (!isLeft(loaded)) return ok(loaded.right);
  const source = loaded.left.source ?? read.value;
  return err(diagnosticsError(loaded.left.diagnostics, { name: source.name, text: source.text }));
};

/**
 * The specifications of a source already read: the one pipeline every command runs (`check`,
 * `schema`, `run`, ...), through the project layer (one parse; agents may name built-in tools).
 */
export const specsOfSource = (
  io: CliIO,
  source: SpecSource,
  options: { readonly strict?: boolean; readonly knownTools?: ReadonlyArray<ToolSpecification>; readonly cache?: CompileCache } = {},
): Promise<Either<SpecLoadFailure, LoadedSpecs>> => {
  const onParse = parseTrace(io);
  return loadProjectFile(source, { ...options, cwd: io.cwd, ...(onParse !== undefined ? { onParse } : {}) });
};

/** The tools of an MCP server as a specification source (its gram is what `gramkit import` would write). */
const loadMcpSpecs = async (ctx: CommandContext, arg: string): Promise<Result<LoadedSpecs, CodedError>> => {
  const c = await openMcp(ctx, arg);
  if (!c.ok) return c;
  const connection = c.value;
  const source: SpecSource = { name: arg, text: connection.imported.gram, builtin: false, format: 'gram' };
  const warnings = connection.diagnostics.map((d) => ({ ...d, severity: d.severity === 'error' ? 'warning' : d.severity }));
  return ok({ source, header: {}, specs: { tools: connection.specifications, agents: [], warnings } });
};

// -------------------------------------------------------------------------------------------------
// libraries
// -------------------------------------------------------------------------------------------------

/** The workspace directory (`--workspace`, default the working directory), checked to be a directory. */
export const resolveWorkspace = async (io: CliIO, dir: string | undefined): Promise<Result<string, CodedError<CliCode>>> => {
  const path = dir === undefined ? io.cwd : isAbsolute(dir) ? dir : resolve(io.cwd, dir);
  try {
    const s = await stat(path);
    if (!s.isDirectory()) return failWith(CliCodes.INVALID_WORKSPACE, `the workspace ${dir ?? path} is not a directory`);
  } catch {
    return failWith(CliCodes.INVALID_WORKSPACE, `the workspace ${dir ?? path} does not exist`);
  }
  return ok(path);
};

/**
 * How the CLI makes the parts of a library (src/project/library.ts): the project layer's
 * `defaultLoaders` with the command's context (its working directory, environment, TypeScript
 * importer), and the MCP servers named as libraries.
 */
export const libraryLoaders = async (ctx: CommandContext, workspace: string): Promise<LibraryLoaders> => {
  const { defaultLoaders } = await import('../../project/default-loaders.js');
  const cwd = ctx.io.cwd;
  const loaders = defaultLoaders({ cwd, workspace, importTs: importTypeScript, env: ctx.io.env });
  return { ...loaders, module: (ref) => (isMcpAddress(ref) ? loadLibrary(ref, { cwd, named: { [ref]: mcpLibrary(ctx, ref) } }) : loaders.module(ref)) };
};

/**
 * The libraries whose tools a catalog's `function` tools name (`--library`, for `serve`, `run
 * --catalog` and `catalog ls|search`), as one library (empty without any), or what kept one from loading.
 */
export const functionLibraries = async (ctx: CommandContext, refs: ReadonlyArray<string>, workspace: string): Promise<Result<ToolLibrary, CodedError>> => {
  const loaders = await libraryLoaders(ctx, workspace);
  const libraries: ToolLibrary[] = [];
  for (const ref of refs) {
    const lib = await loaders.module(ref);
    if (!lib.ok) return lib;
    libraries.push(lib.value);
  }
  return ok(libraries.length === 0 ? emptyToolLibrary : unionLibraries(...libraries));
};
