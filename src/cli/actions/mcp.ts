/**
 * `gramkit mcp <spec.gram | builtin> [--library M] [--workspace DIR] [--yes]`: serves the tools of
 * a specification file, bound to their implementations, to an MCP client over stdio.
 *
 * The library is found as for `gramkit run`: `--library`, else the file header's, plus the tools
 * the file declares itself and the built-in ones. Calls go through the policies of `gramkit run`:
 * the default safety rules, the permissions of `ALLOWED_TOOL_PERMS`, and approvals (asked of the
 * client's user through elicitation when the client can; else refused, saying why, unless `--yes`).
 * The file's agents are the server's prompts. When the file changes, it is loaded again and the client is told
 * (`notifications/tools/list_changed`); a version with errors is reported and the last good one
 * kept. stdout carries the protocol only: problems go to stderr.
 *
 * Exit 0 when the client closes the connection; 1 when the tools cannot be served (a file with
 * errors, a library that does not load, a tool that does not bind); 2 for usage errors.
 */
import { type FSWatcher, watch } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { type Readable, Writable } from 'node:stream';
import { type Either, left, right, isLeft } from '../../core/either.js';
import { formatDiagnostics } from '../../core/format-diagnostic.js';
import { formatError, type Reportable } from '../../core/format-error.js';
import { ProjectCodes } from '../../project/codes.js';
import { CliCodes } from '../codes.js';
import { bindAll, type BoundTools, formatBindError } from '../../library/bind.js';
import type { Approver } from '../../policy/approvals.js';
import { mutableToolSource } from '../../mcp/tool-source.js';
import type { AgentSpecification } from '../../specification/agent-spec.js';
import { serveMcpStdio } from '../../mcp/stdio-server.js';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, type CommandContext } from '../context.js';
import { VERSION } from '../version.js';
import { positiveInteger, toolsLibrary } from './agent-setup.js';
import { renderDiagnostics } from './gram-report.js';
import { chooseApprover, commandPolicies, refusing } from '../../project/approval.js';
import { isMcpAddress } from './mcp-source.js';
import { BUILTIN, loadSpecSource, resolveWorkspace } from './spec-source.js';
import { reportError, usageError } from '../report.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface McpCommandOptions {
  readonly library?: ReadonlyArray<string>;
  readonly workspace?: string;
  readonly yes?: boolean;
  readonly timeout?: string;
  /** `--no-watch` sets it to false. */
  readonly watch?: boolean;
}

/** The bound tools and the files they come from (watched), or why they cannot be served (text for stderr). */
type Loaded = Either<string, { readonly bound: BoundTools; readonly agents: ReadonlyArray<AgentSpecification>; readonly files: ReadonlyArray<string> }>;

// -------------------------------------------------------------------------------------------------
// policies (every command's: src/project/approval.ts)
// -------------------------------------------------------------------------------------------------

/** Who approves calls that need it: everyone with `--yes`, else no one (the refusal says how to change that). */
const unattended = refusing((request) => `${request.reason}; this MCP server cannot ask anyone (start it with --yes to approve such calls)`);
const serveApprover = (yes: boolean): Approver => chooseApprover({ yes }, { unattended }).approver ?? unattended;

// -------------------------------------------------------------------------------------------------
// loading
// -------------------------------------------------------------------------------------------------

/** A failure as the one renderer writes it (report.ts), for stderr. */
const rendered = (e: Reportable): string => `${formatError(e)}\n`;

const load = async (ctx: CommandContext, file: string, options: McpCommandOptions, workspace: string): Promise<Loaded> => {
  let problems = '';
  const err = ctx.io.stderr;
  const captured: CommandContext = { ...ctx, io: { ...ctx.io, stderr: (t) => void (problems += t) } };
  // the file's parse is traced on the real stderr (GRAMKIT_TRACE); an MCP server's connection is the captured context's
  const loaded = await loadSpecSource(isMcpAddress(file) ? captured : { ...captured, io: ctx.io }, file);
  if (!loaded.ok) {
    reportError(captured.io, loaded.error);
    return left(problems);
  }
  const { source, specs } = loaded.value;
  const warnings = specs.warnings.filter((d) => d.severity === 'warning');
  if (warnings.length > 0) err(renderDiagnostics(warnings, source.text, source.name));
  if (specs.tools.length === 0) return left(rendered({ reason: ProjectCodes.NO_TOOLS, message: `${source.name} defines no tool to serve` }));
  const header = loaded.value.header;
  if (header.problem !== undefined) return left(rendered({ reason: CliCodes.INVALID_HEADER, message: `${source.name}: ${header.problem}` }));
  // `builtin` serves the built-in library, an MCP server its own remote tools (a proxy with
  // gramkit's policies), under the user's libraries, which win on a shared name (src/project/library.ts)
  const itself = source.builtin ? BUILTIN : isMcpAddress(file) ? file : undefined;
  const library = await toolsLibrary(captured, specs.tools, source.name, header.library, options.library ?? [], workspace, undefined, itself);
  if (!library.ok) {
    reportError(captured.io, library.error);
    return left(problems);
  }
  const bound = bindAll(specs.tools, library.value);
  if (isLeft(bound)) return left(`${bound.left.map(formatBindError).join('\n\n')}\n`);
  // validators are compiled on a tool's first call: compile them now, so that no call pays for it
  // (the first compilation loads ajv's code, a few hundred milliseconds a client would see)
  for (const b of bound.right.tools) b.validators();
  const modules = [...(options.library ?? []), ...(header.library !== undefined ? [header.library] : [])].filter((r) => r !== BUILTIN && !isMcpAddress(r));
  const files = [...(source.path !== undefined ? [source.path] : []), ...modules.map((m) => (isAbsolute(m) ? m : resolve(ctx.io.cwd, m)))];
  return right({ bound: bound.right, agents: specs.agents, files });
};

// -------------------------------------------------------------------------------------------------
// action
// -------------------------------------------------------------------------------------------------

export const action = async (ctx: CommandContext, file: string, options: McpCommandOptions): Promise<number> => {
  const { io } = ctx;
  if (file === '-') {
    usageError(io, 'stdin carries the protocol, so the specifications must come from a file (or builtin)');
    return EXIT_USAGE;
  }
  const timeout = positiveInteger('--timeout', options.timeout);
  if (!timeout.ok) {
    usageError(io, timeout.error.message);
    return EXIT_USAGE;
  }
  const timeoutMs = timeout.value;
  const workspace = await resolveWorkspace(io, options.workspace);
  if (!workspace.ok) {
    reportError(io, workspace.error);
    return EXIT_FAILURE;
  }
  const first = await load(ctx, file, options, workspace.value);
  if (isLeft(first)) {
    io.stderr(first.left);
    return EXIT_FAILURE;
  }
  const source = mutableToolSource(first.right.bound, first.right.agents);

  // the file (and library modules) watched: a change reloads them and tells the client
  const watchers: FSWatcher[] = [];
  let reloading: Promise<void> = Promise.resolve();
  let pending: ReturnType<typeof setTimeout> | undefined;
  const reload = (): void => {
    reloading = reloading.then(async () => {
      const next = await load(ctx, file, options, workspace.value);
      if (isLeft(next)) io.stderr(`gramkit mcp: ${file} changed but cannot be served; still serving the previous tools\n${next.left}`);
      else source.set(next.right.bound, next.right.agents);
    });
  };
  if (options.watch !== false) {
    for (const f of first.right.files) {
      try {
        watchers.push(
          watch(f, () => {
            // editors write a file in several steps: reload once they are done
            if (pending !== undefined) clearTimeout(pending);
            pending = setTimeout(reload, 50);
          }),
        );
      } catch {
        // a file that cannot be watched is served as it is
      }
    }
  }

  const stdout = new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, done) {
      io.stdout(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
      done();
    },
  });
  const server = serveMcpStdio(source, {
    stdin: io.stdin as Readable,
    stdout,
    name: 'gramkit',
    version: VERSION,
    policies: commandPolicies(io.env),
    approver: serveApprover(options.yes === true),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    onDiagnostic: (d) => io.stderr(`${formatDiagnostics([d])}\n`),
  });
  if (io.isTTY)
    io.stderr(
      `gramkit mcp: serving ${first.right.bound.tools.length} tools of ${file} over stdio (an MCP client talks to this process on stdin and stdout; Ctrl-D ends it)\n`,
    );
  try {
    await server.closed;
  } finally {
    if (pending !== undefined) clearTimeout(pending);
    for (const w of watchers) w.close();
    await reloading;
  }
  return EXIT_OK;
};
