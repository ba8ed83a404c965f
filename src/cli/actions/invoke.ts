/**
 * `gramkit invoke <file.gram> --tool NAME --library <module> --args '<json>' [--timeout ms]`:
 * binds one tool of a specification file to its implementation in a library module, calls it,
 * and prints the result as JSON: a live tester of one tool.
 *
 * The library follows the one rule of src/project/library.ts: `--library` (after the source when it
 * is a library itself: `builtin`, an MCP server), else the file header's `{library: "..."}`
 * (relative to the file), else the implementation the file declares for the tool. The call goes
 * through the policies of every command (src/project/approval.ts): the safety rules, `ALLOWED_TOOL_PERMS`, and approval, asked on a
 * terminal, given by `--yes` or refused by `--deny` (without a terminal or either flag, a call that
 * needs approval is refused: `DENIED`, saying how to approve).
 *
 * stdout: the `ToolResult` JSON, whenever the tool was called (exit 0 for `ok: true`, 1 otherwise).
 * stderr: why it could not be called (specification errors with carets, library problems, bind
 * errors with the JSON-pointer diff); exit 1, or 2 for usage errors.
 */
import { resolve } from 'node:path';
import { isLeft } from '../../core/either.js';
import { formatDiagnostics } from '../../core/format-diagnostic.js';
import { bindTool, formatBindError } from '../../library/bind.js';
import { invokeJson, parseArguments } from '../../library/invoke.js';
import type { ToolSpecification } from '../../specification/tool-spec.js';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, type CommandContext } from '../context.js';
import { ProjectCodes } from '../../project/codes.js';
import type { NamedLibrary } from '../../project/load-library.js';
import { namedLibraries } from '../../project/named-libraries.js';
import { libraryLoaders, readSpecSource, specsOfSource } from './spec-source.js';
import { isMcpAddress, mcpLibrary } from './mcp-source.js';
import { resolveLibrary } from '../../project/library.js';
import { invokeGated } from '../../policy/guard.js';
import { chooseApprover, commandPolicies, refusing } from '../../project/approval.js';
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

// -------------------------------------------------------------------------------------------------
// action
// -------------------------------------------------------------------------------------------------

export const action = async (ctx: CommandContext, source: string, opts: InvokeCommandOptions): Promise<number> => {
  const { io } = ctx;
  const workspace = resolve(io.cwd, opts.workspace ?? '.');
  // the libraries known by name, whose own specifications `gramkit invoke <name>` uses: the project
  // layer's (`builtin`, confined to --workspace), and an MCP server named as the source (its tools'
  // specifications and remote implementations)
  const named: Readonly<Record<string, NamedLibrary>> = {
    ...namedLibraries(workspace, io.env),
    ...(isMcpAddress(source) ? { [source]: mcpLibrary(ctx, source) } : {}),
  };
  const usage = (message: string): number => {
    usageError(io, message);
    return EXIT_USAGE;
  };
  /** Diagnostics (with carets) or bind errors (with the JSON-pointer diff), rendered by their own renderers. */
  const failed = (rendered: string): number => {
    io.stderr(`${rendered}\n`);
    return EXIT_FAILURE;
  };
  const failedWith = (reason: string, message: string): number => {
    reportError(io, { reason, message });
    return EXIT_FAILURE;
  };

  if (opts.yes === true && opts.deny === true) return usage('--yes and --deny cannot be used together');
  let timeoutMs: number | undefined;
  if (opts.timeout !== undefined) {
    timeoutMs = Number(opts.timeout);
    if (!/^\s*\d+(\.\d+)?\s*$/.test(opts.timeout) || !(timeoutMs > 0))
      return usage(`--timeout must be a positive number of milliseconds, got ${JSON.stringify(opts.timeout)}`);
  }

  // the specifications: a named library's own, or a specification file (loaded once: src/project/)
  const namedSource = Object.hasOwn(named, source) ? named[source] : undefined;
  let specs: ReadonlyArray<ToolSpecification>;
  let headerLibrary: string | undefined;
  if (namedSource?.specifications !== undefined) {
    try {
      specs = await namedSource.specifications();
    } catch (e) {
      return failedWith(ProjectCodes.LIBRARY_LOAD_FAILED, `cannot load the specifications of "${source}": ${e instanceof Error ? e.message : String(e)}`);
    }
  } else {
    const read = await readSpecSource(io, source);
    if (!read.ok) {
      reportError(io, read.error);
      return EXIT_FAILURE;
    }
    const loaded = await specsOfSource(io, read.value);
    if (isLeft(loaded)) return failed(formatDiagnostics(loaded.left.diagnostics, read.value.text, { filename: read.value.name }));
    specs = loaded.right.specs.tools;
    const header = loaded.right.header;
    if (header.problem !== undefined) return failedWith(CliCodes.INVALID_HEADER, `${read.value.name}: ${header.problem}`);
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

  // the library, by the one rule (src/project/library.ts): the named source and --library, else the
  // header's, else the implementation the file declares for the tool (`http: {...}`, `command: {...}`)
  const resolved = await resolveLibrary(
    {
      tools: [spec],
      given: opts.library !== undefined ? [opts.library] : [],
      ...(headerLibrary !== undefined ? { header: headerLibrary } : {}),
      ...(namedSource !== undefined ? { source } : {}),
    },
    await libraryLoaders(ctx, workspace),
  );
  if (!resolved.ok) {
    const failure = resolved.error;
    if (failure.kind === 'unimplemented')
      return usage(
        '--library <module> is required: a .ts or .js module exporting a ToolLibrary or tools (or declare the tool with http: {...} or command: {...})',
      );
    if (failure.kind === 'builtins') return failedWith(failure.error.reason, `web_search: ${failure.error.message}`);
    if (failure.kind === 'module') {
      reportError(io, failure.error);
      return EXIT_FAILURE;
    }
    return failed(formatDiagnostics(failure.diagnostics));
  }
  const library = resolved.value.library;
  const bound = bindTool(spec, library);
  if (isLeft(bound)) return failed(bound.left.map(formatBindError).join('\n'));

  // the call, through the policy gate of every command (arguments that are not JSON never reach
  // it: invokeJson refuses them)
  let argsText = opts.args ?? '{}';
  if (argsText === '-') argsText = await io.readStdin();
  const approval = chooseApprover(opts, {
    ...(io.isTTY ? { terminal: { input: io.stdin, output: io.stderr } } : {}),
    unattended: refusing(
      (request) =>
        `${request.reason}, and gramkit invoke is not on a terminal to ask: pass --yes to approve such calls (or --deny to refuse them without this message)`,
    ),
  });
  const options = timeoutMs !== undefined ? { timeoutMs } : {};
  try {
    const parsed = parseArguments(argsText);
    const result = parsed.ok
      ? await invokeGated(
          bound.right,
          parsed.value,
          { policies: commandPolicies(io.env), ...(approval.approver !== undefined ? { approver: approval.approver } : {}) },
          options,
        )
      : await invokeJson(bound.right, argsText, options);
    io.stdout(`${JSON.stringify(result, null, 2)}\n`);
    return result.ok ? EXIT_OK : EXIT_FAILURE;
  } finally {
    approval.close();
  }
};
