/**
 * `gramkit schema <file> [--tool NAME] [--format F] [--output]`: the JSON Schemas of a file's tools
 * on stdout — one tool's, or every tool's as an object keyed by tool name. `--format` picks a
 * provider dialect (OpenAI, OpenAI strict, Anthropic, Gemini, MCP); `--output` the result schemas.
 *
 * Also the specification loading shared by `schema`, `types` and `validate`.
 */
import type { Diagnostic } from '../../core/diagnostic.js';
import type { JsonObject, JsonValue } from '../../core/json-schema.js';
import type { Specifications } from '../../specification/load.js';
import { didYouMean } from '../../core/suggest.js';
import type { ToolSpecification } from '../../specification/tool-spec.js';
import { loadSpecSource } from './spec-source.js';
import { renderDiagnostics } from './gram-report.js';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, type CommandContext } from '../context.js';
import { reportError, usageError } from '../report.js';
import { CliCodes } from '../codes.js';
import { isLeft } from '../../core/either.js';

// -------------------------------------------------------------------------------------------------
// shared: loading specifications for a command
// -------------------------------------------------------------------------------------------------

/** Loads a specification file (`.gram`, or `.json` in the JSON form); reports and returns undefined on errors (the command exits 1). */
export const loadSpecsForCli = async (ctx: CommandContext, file: string): Promise<Specifications | undefined> => {
  // a file, `-` or `builtin`; agents may name built-in tools (spec-source.ts)
  const loaded = await loadSpecSource(ctx, file);
  if (!loaded.ok) {
    reportError(ctx.io, loaded.error);
    return undefined;
  }
  const { source, specs } = loaded.value;
  const shown: ReadonlyArray<Diagnostic> = specs.warnings.filter((d) => d.severity !== 'info');
  if (shown.length > 0) ctx.io.stderr(renderDiagnostics(shown, source.text, source.name));
  return specs;
};

/** The tool named `name`, or undefined with a message (with a suggestion) on stderr (the command exits 1). */
export const pickTool = (ctx: CommandContext, specs: Specifications, name: string, file: string): ToolSpecification | undefined => {
  const t = specs.tools.find((x) => x.name === name);
  if (t !== undefined) return t;
  const names = specs.tools.map((x) => x.name);
  const hint = didYouMean(name, names);
  reportError(ctx.io, {
    reason: CliCodes.UNKNOWN_TOOL,
    message: `${file} has no tool named "${name}"${hint !== undefined ? ` (${hint})` : names.length > 0 ? ` (tools: ${names.join(', ')})` : ''}`,
  });
  return undefined;
};

/** Every tool of the file, or only `--tool NAME` (undefined, with the error reported, when it has none of that name). */
export const selectTools = (
  ctx: CommandContext,
  specs: Specifications,
  name: string | undefined,
  file: string,
): ReadonlyArray<ToolSpecification> | undefined => {
  if (name === undefined) return specs.tools;
  const t = pickTool(ctx, specs, name, file);
  return t === undefined ? undefined : [t];
};

export const printJson = (ctx: CommandContext, value: unknown): void => ctx.io.stdout(`${JSON.stringify(value, null, 2)}\n`);

// -------------------------------------------------------------------------------------------------
// the command
// -------------------------------------------------------------------------------------------------

export interface SchemaOptions {
  readonly tool?: string;
  readonly format?: string;
  readonly output?: boolean;
}

export const action = async (ctx: CommandContext, file: string, options: SchemaOptions): Promise<number> => {
  const specs = await loadSpecsForCli(ctx, file);
  if (specs === undefined) return EXIT_FAILURE;
  const tools = selectTools(ctx, specs, options.tool, file);
  if (tools === undefined) return EXIT_FAILURE;
  let code = EXIT_OK;
  const format = options.format ?? 'jsonschema';
  const byName: Record<string, JsonValue> = {};
  if (format === 'jsonschema' || options.output === true) {
    if (options.output === true && format !== 'jsonschema') {
      usageError(ctx.io, '--output prints the result schemas in JSON Schema; it cannot be combined with --format');
      return EXIT_USAGE;
    }
    for (const t of tools) byName[t.name] = (options.output === true ? t.outputSchema : t.schema) as JsonValue;
  } else {
    const dialects = await import('../../schema/dialects/index.js');
    const parsed = dialects.parseDialect(format);
    if (isLeft(parsed)) {
      for (const d of parsed.left) usageError(ctx.io, `${d.message}${d.hint !== undefined ? ` (${d.hint})` : ''}`);
      return EXIT_USAGE;
    }
    const exported = dialects.exportTools(tools, parsed.right);
    const shown = exported.diagnostics.filter((d) => d.severity !== 'info');
    if (shown.length > 0) ctx.io.stderr(renderDiagnostics(shown, '', file));
    const gramkitNames = [...exported.names.values()];
    exported.tools.forEach((t: JsonObject, i: number) => {
      byName[gramkitNames[i] as string] = t;
    });
    if (exported.diagnostics.some((d) => d.severity === 'error')) code = EXIT_FAILURE;
  }
  if (options.tool !== undefined) {
    const one = byName[options.tool];
    if (one !== undefined) printJson(ctx, one);
    return code;
  }
  printJson(ctx, byName);
  return code;
};
