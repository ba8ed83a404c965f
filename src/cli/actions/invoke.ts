/**
 * `gramkit invoke <file.gram> --tool NAME --library <module> --args '<json>' [--timeout ms]`:
 * binds one tool of a specification file to its implementation in a library module, calls it,
 * and prints the result as JSON: a live tester of one tool.
 *
 * The library is `--library`, else the file header's `{library: "..."}` (relative to the file), else
 * the implementation the file declares for the tool. The call goes through the policies of
 * `gramkit run` (policies.ts): the safety rules, `ALLOWED_TOOL_PERMS`, and approval, asked on a
 * terminal, given by `--yes` or refused by `--deny` (without a terminal or either flag, a call that
 * needs approval is refused: `DENIED`, saying how to approve).
 *
 * stdout: the `ToolResult` JSON, whenever the tool was called (exit 0 for `ok: true`, 1 otherwise).
 * stderr: why it could not be called (specification errors with carets, library problems, bind
 * errors with the JSON-pointer diff); exit 1, or 2 for usage errors.
 */
import { readFile } from 'node:fs/promises';
import { extname, isAbsolute, resolve } from 'node:path';
import { formatDiagnostics } from '../../core/format-diagnostic.js';
import type { Diagnostic } from '../../core/diagnostic.js';
import { bindTool, formatBindError } from '../../library/bind.js';
import { invokeJson, parseArguments } from '../../library/invoke.js';
import { loadSpecifications } from '../../spec/load.js';
import type { ToolSpecification } from '../../spec/tool-spec.js';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, type CommandContext } from '../context.js';
import { loadLibrary, type NamedLibrary } from './load-library.js';
import { namedLibraries as builtinLibraries } from './spec-source.js';
import { isMcpAddress, mcpLibrary } from './mcp-source.js';
import { declaredLibrary } from './declared-library.js';
import type { ToolLibrary } from '../../library/tool-library.js';
import { invokeGated } from '../../policy/guard.js';
import { headerLibraryOf } from './spec-facts.js';
import { commandApprover, commandPolicies } from './policies.js';
import { reportError, usageError } from '../report.js';
import { CliCodes } from '../codes.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface InvokeCommandOptions {
  readonly tool?: string;
  readonly library?: string;
  readonly args?: string;
  readonly timeout?: string;
  /** The directory the `builtin` library and command tools are confined to (default: the working directory). */
  readonly workspace?: string;
  /** Approve a call that needs approval. */
  readonly yes?: boolean;
  /** Refuse a call that needs approval. */
  readonly deny?: boolean;
}

/**
 * Libraries known by name: `gramkit invoke <name> --tool T` uses the named library's own
 * specifications and implementations (`--library` may then be left out). Empty here; named
 * libraries (the built-in tools) are added by the module that owns them.
 */
export const NAMED_LIBRARIES: Readonly<Record<string, NamedLibrary>> = {};

// -------------------------------------------------------------------------------------------------
// action
// -------------------------------------------------------------------------------------------------

export const action = async (source: string, opts: InvokeCommandOptions, ctx: CommandContext, namedLibraries?: Readonly<Record<string, NamedLibrary>>): Promise<void> => {
  const { io } = ctx;
  // `builtin` (spec-source.ts): the built-in tools, confined to --workspace; MCP servers
  // (`mcp:<url>`, `mcp+stdio:<command>`): their tools' specifications and remote implementations
  const servers = [source, opts.library].filter((a): a is string => a !== undefined && isMcpAddress(a));
  const named = namedLibraries ?? {
    ...NAMED_LIBRARIES,
    ...builtinLibraries(resolve(io.cwd, opts.workspace ?? '.'), io.env),
    ...Object.fromEntries(servers.map((a) => [a, mcpLibrary(ctx, a)])),
  };
  const usage = (message: string): void => {
    usageError(io, message);
    ctx.exit(EXIT_USAGE);
  };
  const failed = (message: string): void => {
    io.stderr(`${message}\n`);
    ctx.exit(EXIT_FAILURE);
  };
  const failedWith = (reason: string, message: string): void => {
    reportError(io, { reason, message });
    ctx.exit(EXIT_FAILURE);
  };

  if (opts.yes === true && opts.deny === true) return usage('--yes and --deny cannot be used together');
  let timeoutMs: number | undefined;
  if (opts.timeout !== undefined) {
    timeoutMs = Number(opts.timeout);
    if (!/^\s*\d+(\.\d+)?\s*$/.test(opts.timeout) || !(timeoutMs > 0)) return usage(`--timeout must be a positive number of milliseconds, got ${JSON.stringify(opts.timeout)}`);
  }

  // the specifications: a named library's own, or a specification file
  const namedSource = Object.prototype.hasOwnProperty.call(named, source) ? named[source] : undefined;
  let specs: ReadonlyArray<ToolSpecification>;
  let headerLibrary: string | undefined;
  if (namedSource?.specifications !== undefined) {
    try {
      specs = await namedSource.specifications();
    } catch (e) {
      return failedWith(CliCodes.LIBRARY_LOAD_FAILED, `cannot load the specifications of "${source}": ${e instanceof Error ? e.message : String(e)}`);
    }
  } else {
    const path = isAbsolute(source) ? source : resolve(io.cwd, source);
    let text: string;
    try {
      text = source === '-' ? await io.readStdin() : await readFile(path, 'utf8');
    } catch (e) {
      const code = (e as { code?: string }).code;
      return failedWith(CliCodes.UNREADABLE, `cannot read ${source}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : e instanceof Error ? e.message : String(e)}`);
    }
    const filename = source === '-' ? '<stdin>' : source;
    const loaded = loadSpecifications([{ text, filename, format: extname(source).toLowerCase() === '.json' ? 'json' : 'gram' }]);
    if (loaded._tag === 'Left') return failed(formatDiagnostics(loaded.left, text, { filename }));
    specs = loaded.right.tools;
    const format = extname(source).toLowerCase() === '.json' ? 'json' : 'gram';
    const header = headerLibraryOf(ctx, { name: filename, text, format, builtin: false, ...(source !== '-' ? { path } : {}) });
    if (header.problem !== undefined) return failedWith(CliCodes.INVALID_HEADER, `${filename}: ${header.problem}`);
    headerLibrary = header.library;
  }

  // the tool
  let spec: ToolSpecification | undefined;
  const names = specs.map((s) => s.name);
  if (opts.tool === undefined) {
    if (specs.length !== 1) {
      return usage(specs.length === 0 ? `${source} defines no tool` : `${source} defines ${specs.length} tools; choose one with --tool (${names.join(', ')})`);
    }
    spec = specs[0];
  } else {
    spec = specs.find((s) => s.name === opts.tool);
    if (spec === undefined) {
      return failedWith(CliCodes.UNKNOWN_TOOL, `${source} defines no tool "${opts.tool}"${names.length > 0 ? `; it defines ${names.join(', ')}` : ''}`);
    }
  }
  if (spec === undefined) return usage(`${source} defines no tool`);

  // the library, and the binding: --library, else the implementation the file declares for the
  // tool (`http: {...}`, `command: {...}`)
  const libraryRef = opts.library ?? (namedSource !== undefined ? source : headerLibrary);
  let library: ToolLibrary;
  if (libraryRef !== undefined) {
    const loaded = await loadLibrary(libraryRef, { cwd: io.cwd, named });
    if (loaded._tag === 'Left') return failed(render(loaded.left));
    library = loaded.right;
  } else {
    const declared = declaredLibrary([spec], io, resolve(io.cwd, opts.workspace ?? '.'));
    if (declared === undefined) {
      return usage('--library <module> is required: a .ts or .js module exporting a ToolLibrary or tools (or declare the tool with http: {...} or command: {...})');
    }
    if (declared._tag === 'Left') return failed(render(declared.left));
    library = declared.right;
  }
  const bound = bindTool(spec, library);
  if (bound._tag === 'Left') return failed(bound.left.map(formatBindError).join('\n'));

  // the call, through the policy gate of every command (arguments that are not JSON never reach
  // it: invokeJson refuses them)
  let argsText = opts.args ?? '{}';
  if (argsText === '-') argsText = await io.readStdin();
  const approval = commandApprover(io, opts, 'gramkit invoke');
  const options = timeoutMs !== undefined ? { timeoutMs } : {};
  try {
    const parsed = parseArguments(argsText);
    const result = parsed.ok
      ? await invokeGated(bound.right, parsed.value, { policies: commandPolicies(io.env), approver: approval.approver }, options)
      : await invokeJson(bound.right, argsText, options);
    io.stdout(`${JSON.stringify(result, null, 2)}\n`);
    ctx.exit(result.ok ? EXIT_OK : EXIT_FAILURE);
  } finally {
    approval.close();
  }
};

const render = (ds: ReadonlyArray<Diagnostic>): string => formatDiagnostics(ds);
