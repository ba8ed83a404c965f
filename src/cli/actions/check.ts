/**
 * `gramkit check <files...>`: runs on every file (directories: every `.gram` file under them;
 * `builtin`: the built-in specifications) the checks that `schema`, `run` and `invoke` run, and
 * reports every error and warning, then a summary:
 *
 * - the gram syntax, and the specifications: types, properties, defaults, agents' tools (the
 *   pipeline of `src/specification/load.ts`, shared with every command through `specsOfSource`);
 * - the implementations a file declares itself (`http: {...}`, `command: {...}`);
 * - the header's `library` and each agent's `model` (their form: nothing is loaded or called);
 * - with `--library`, the binding: every tool of the file the library implements matches its
 *   specification, and every tool of the file has an implementation.
 *
 * Exit 1 when any file has an error (with `--strict`, a warning too).
 */
import { error, type Diagnostic } from '../../core/diagnostic.js';
import { isLeft } from '../../core/either.js';
import type { Span } from '../../core/span.js';
import { unescapePointer } from '../../core/json-pointer.js';
import { parseModelId } from '../../providers/model-id.js';
import type { Specifications } from '../../specification/load.js';
import type { CompileCache } from '../../specification/compile-cache.js';
import type { ToolSpecification } from '../../specification/tool-spec.js';
import { HttpCodes } from '../../tools/http/codes.js';
import { CliCodes } from '../codes.js';
import { EXIT_FAILURE, EXIT_OK, type CommandContext } from '../context.js';
import { builtinToolsOf, resolveLibrary } from '../../project/library.js';
import type { ProjectFile } from '../../project/project-file.js';
import { declaresImplementation } from '../../tools/declared-kind.js';
import { expandArguments } from './gram-input.js';
import { countText, diagnosticsJson, renderDiagnostics } from './gram-report.js';
import { libraryLoaders, readSpecSource, resolveWorkspace, type SpecSource, specsOfSource } from './spec-source.js';
import { diagnosticsOf, reportError, usageError } from '../report.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface CheckCommandOptions {
  readonly strict?: boolean;
  readonly json?: boolean;
  readonly library?: ReadonlyArray<string>;
  readonly workspace?: string;
  /** The memo of a document checked at each edit (the language server). */
  readonly cache?: CompileCache;
  /** Without `library`: bind to the library the file's header names (the language server). */
  readonly headerLibrary?: boolean;
}

// -------------------------------------------------------------------------------------------------
// the checks past the specifications
// -------------------------------------------------------------------------------------------------

/** The tools of a file and of its agents (built-in tools an agent names included), once each. */
const toolsOf = (specs: Specifications): ReadonlyArray<ToolSpecification> => {
  const byName = new Map<string, ToolSpecification>();
  for (const t of specs.tools) byName.set(t.name, t);
  for (const a of specs.agents) for (const t of a.tools) if (!byName.has(t.name)) byName.set(t.name, t);
  return [...byName.values()];
};

/**
 * A secret is read from the environment when `run` starts, and the environment of a check is not
 * the one of a run (CI has no keys): a placeholder that names neither a parameter nor a variable
 * set here is a warning.
 */
const secretsAreEnvironment = (d: Diagnostic): Diagnostic =>
  d.code === HttpCodes.UNKNOWN_PLACEHOLDER
    ? { ...d, severity: 'warning', hint: `${d.hint !== undefined ? `${d.hint}; ` : ''}a secret is an environment variable: set it before \`gramkit run\`` }
    : d;

/**
 * The library of the tools that declare their implementation (`http`, `command`); undefined when
 * none does. The HTTP and command tools are loaded only then: most files declare none.
 */
const declaredLibraryOf = async (tools: ReadonlyArray<ToolSpecification>, ctx: CommandContext, workspace: string) => {
  const declared = tools.filter(declaresImplementation);
  if (declared.length === 0) return undefined;
  const { declaredLibrary } = await import('../../project/declared-library.js');
  return declaredLibrary(declared, workspace, ctx.io.env);
};

/** What `run` checks before it starts: the header, the models, the declared implementations. */
const runChecks = async (
  ctx: CommandContext,
  { source, specs, header }: ProjectFile,
  builtins: ReadonlySet<string>,
  workspace: string,
): Promise<Diagnostic[]> => {
  const out: Diagnostic[] = [];
  if (header.problem !== undefined) out.push(error(CliCodes.INVALID_HEADER, header.problem, { file: source.name }));
  for (const a of specs.agents) {
    if (a.model === undefined) continue;
    const m = parseModelId(a.model);
    if (isLeft(m))
      out.push(error(m.left.reason, `agent \`${a.name}\`: ${m.left.message}`, { file: source.name, hint: '`gramkit run --model` can override it' }));
  }
  const declared = await declaredLibraryOf(
    toolsOf(specs).filter((t) => !builtins.has(t.name)),
    ctx,
    workspace,
  );
  if (declared !== undefined && isLeft(declared)) out.push(...declared.left.map(secretsAreEnvironment));
  return out;
};

/**
 * With `--library`: the library of the file's tools by the one rule of every command
 * (src/project/library.ts, with `run`'s loaders), then every tool of the file bound to it as `run`
 * binds it (the built-in tools the file names are gramkit's own: not checked).
 */
const bindChecks = async (
  ctx: CommandContext,
  source: SpecSource,
  specs: Specifications,
  refs: ReadonlyArray<string>,
  builtins: ReadonlySet<string>,
  workspace: string,
): Promise<Diagnostic[]> => {
  const tools = toolsOf(specs);
  const resolved = await resolveLibrary({ tools, given: refs, what: source.name }, await libraryLoaders(ctx, workspace));
  if (!resolved.ok) {
    const failure = resolved.error;
    if (failure.kind === 'declared') return [...failure.diagnostics];
    const ds = failure.kind === 'module' ? diagnosticsOf(failure.error) : [];
    return ds.length > 0 ? [...ds] : [error(failure.error.reason, failure.error.message)];
  }
  const out: Diagnostic[] = [];
  const { bindTool, formatBindError } = await import('../../library/bind.js');
  for (const t of tools) {
    if (builtins.has(t.name)) continue;
    const b = bindTool(t, resolved.value.library);
    // each error at its tool, each difference on its own line at the parameter it concerns (as invoke lists them)
    if (isLeft(b)) for (const e of b.left) out.push(locateBindError(e, t.name, source.text, formatBindError));
  }
  // the handler types the library modules are compiled against (gramkit types output)
  const { staleHandlerTypes } = await import('./handler-types.js');
  for (const ref of refs) out.push(...(await staleHandlerTypes(ref, ctx.io.cwd, source.name, specs.tools)));
  return out;
};

/** Where the tool `name` starts in the text (its `[name:Tool` head), if it is written there. */
const toolSpan = (text: string, name: string): Span | undefined => {
  const m = new RegExp(`\\[\\s*${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*:\\s*Tool(?:Specification)?\\b`).exec(text);
  return m === null ? undefined : { start: m.index + 1, end: m.index + 1 + name.length };
};

/** Where a parameter of the tool starting at `from` is declared (`(param::` or `(param:`). */
const paramSpan = (text: string, from: number, param: string): Span | undefined => {
  const re = new RegExp(`\\(\\s*${param.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*::?`, 'g');
  re.lastIndex = from;
  const m = re.exec(text);
  const next = text.indexOf('\n[', from);
  if (m === null || (next !== -1 && m.index > next)) return undefined;
  const start = m.index + m[0].indexOf(param);
  return { start, end: start + param.length };
};

/**
 * A bind error at its tool's head; each difference that concerns a parameter (`/properties/<param>…`)
 * a note of its own at the parameter's declaration; the others (descriptions, `required`) in the
 * hint. Without the tool in the text, all of them go in the hint.
 */
const locateBindError = (e: Diagnostic, name: string, text: string, format: (e: never) => string): Diagnostic => {
  const lines = format(e as never)
    .split('\n')
    .slice(1)
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const span = toolSpan(text, name);
  if (span === undefined) return { ...e, hint: lines.join('; ') };
  const related: Array<{ readonly message: string; readonly span: Span }> = [];
  const rest: string[] = [];
  for (const message of lines) {
    const param = /^\/properties\/([^/:]+)/.exec(message)?.[1];
    const at = param !== undefined ? paramSpan(text, span.start, unescapePointer(param)) : undefined;
    if (at !== undefined) related.push({ message, span: at });
    else rest.push(message);
  }
  return { ...e, span, ...(related.length > 0 ? { related } : {}), hint: rest.join('; ') };
};

// -------------------------------------------------------------------------------------------------
// the command
// -------------------------------------------------------------------------------------------------

interface FileReport {
  readonly diagnostics: ReadonlyArray<Diagnostic>;
  readonly text: string;
  readonly name: string;
}

/**
 * Everything `gramkit check` reports about one source (the language server checks the text of an
 * open document with it): the specifications, the checks past them, and with `library`, the binding.
 */
export const checkSource = async (
  ctx: CommandContext,
  source: SpecSource,
  options: CheckCommandOptions,
  workspace: string,
): Promise<{ readonly diagnostics: ReadonlyArray<Diagnostic>; readonly specs?: Specifications }> => {
  const loaded = await specsOfSource(ctx.io, source, { strict: options.strict === true, ...(options.cache !== undefined ? { cache: options.cache } : {}) });
  if (isLeft(loaded)) return { diagnostics: loaded.left.diagnostics };
  const { specs, header } = loaded.right;
  const builtins = builtinToolsOf(toolsOf(specs));
  const diagnostics = [...specs.warnings.filter((d) => d.severity !== 'info'), ...(await runChecks(ctx, loaded.right, builtins, workspace))];
  const refs = options.library ?? (options.headerLibrary === true && header.library !== undefined ? [header.library] : []);
  if (refs.length > 0 && !diagnostics.some((d) => d.severity === 'error'))
    diagnostics.push(...(await bindChecks(ctx, source, specs, refs, builtins, workspace)));
  return { diagnostics, specs };
};

const checkOne = async (ctx: CommandContext, arg: string, options: CheckCommandOptions, workspace: string): Promise<FileReport> => {
  const read = await readSpecSource(ctx.io, arg);
  if (!read.ok) return { diagnostics: [error(read.error.reason, read.error.message)], text: '', name: arg };
  const source = read.value;
  return { diagnostics: (await checkSource(ctx, source, options, workspace)).diagnostics, text: source.text, name: source.name };
};

export const action = async (ctx: CommandContext, files: ReadonlyArray<string>, options: CheckCommandOptions): Promise<number> => {
  const args = await expandArguments(ctx.io, files);
  if (args.length === 0) {
    usageError(ctx.io, 'no .gram files found');
    return EXIT_FAILURE;
  }
  const workspace = await resolveWorkspace(ctx.io, options.workspace);
  if (!workspace.ok) {
    reportError(ctx.io, workspace.error);
    return EXIT_FAILURE;
  }
  let errors = 0;
  let warnings = 0;
  let failedFiles = 0;
  const json: Record<string, unknown>[] = [];
  for (const arg of args) {
    const r = await checkOne(ctx, arg, options, workspace.value);
    const e = r.diagnostics.filter((d) => d.severity === 'error').length;
    const w = r.diagnostics.filter((d) => d.severity === 'warning').length;
    errors += e;
    warnings += w;
    if (e > 0 || (options.strict === true && w > 0)) failedFiles++;
    if (options.json === true) json.push(...diagnosticsJson(r.diagnostics, r.text, r.name));
    else ctx.io.stderr(renderDiagnostics(r.diagnostics, r.text, r.name));
  }
  if (options.json === true) {
    ctx.io.stdout(`${JSON.stringify(json, null, 2)}\n`);
  } else {
    const files = `${args.length} file${args.length === 1 ? '' : 's'}`;
    const verdict = failedFiles === 0 ? 'ok' : `${failedFiles} with ${errors > 0 ? 'errors' : 'warnings'}`;
    ctx.io.stdout(`checked ${files}${options.strict === true ? ' (strict)' : ''}: ${verdict}; ${countText(errors, warnings)}\n`);
  }
  return failedFiles > 0 ? EXIT_FAILURE : EXIT_OK;
};
