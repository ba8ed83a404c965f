/**
 * `gramkit validate <file> --tool NAME --args JSON`: checks one call's arguments against a tool's
 * specification (exit 0 valid, 1 with the errors). `--calls FILE.jsonl` checks a log of recorded
 * calls, one `{"tool": .., "args": ..}` per line (also `name` / `arguments` as JSON text, the way
 * models send them), printing one JSON result per line.
 */
import { type CodedError, failWith, ok, type Result } from '../../core/result.js';
import { type CliCode, CliCodes } from '../codes.js';
import type { JsonValue } from '../../core/json-schema.js';
import type { Specifications } from '../../specification/load.js';
import { isJsonObject } from '../../core/json.js';
import { validateToolArgs } from '../../schema/validate.js';
import { loadSource } from './gram-input.js';
import { loadSpecsForCli, pickTool, printJson } from './schema.js';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, type CommandContext } from '../context.js';
import { reportError, usageError } from '../report.js';
import { isRight } from '../../core/either.js';

export interface ValidateOptions {
  readonly tool?: string;
  readonly args?: string;
  readonly calls?: string;
  readonly json?: boolean;
}

const parseJson = (text: string): Result<unknown, CodedError<CliCode>> => {
  try {
    return ok(JSON.parse(text) as unknown);
  } catch (e) {
    return failWith(CliCodes.INVALID_JSON, (e as Error).message);
  }
};

export const action = async (ctx: CommandContext, file: string, options: ValidateOptions): Promise<number> => {
  if ((options.args === undefined) === (options.calls === undefined)) {
    usageError(ctx.io, 'give either --args (with --tool) or --calls');
    return EXIT_USAGE;
  }
  if (options.args !== undefined && options.tool === undefined) {
    usageError(ctx.io, '--args needs --tool NAME');
    return EXIT_USAGE;
  }
  const specs = await loadSpecsForCli(ctx, file);
  if (specs === undefined) return EXIT_FAILURE;
  if (options.args !== undefined) return one(ctx, specs, file, options.tool as string, options.args, options.json === true);
  return many(ctx, specs, options.calls as string, options.tool);
};

const one = async (ctx: CommandContext, specs: Specifications, file: string, toolName: string, argsText: string, json: boolean): Promise<number> => {
  const tool = pickTool(ctx, specs, toolName, file);
  if (tool === undefined) return EXIT_FAILURE;
  const text = argsText === '-' ? await ctx.io.readStdin() : argsText;
  const parsed = parseJson(text);
  if (!parsed.ok) {
    if (json) printJson(ctx, { tool: tool.name, valid: false, error: `the arguments are not JSON: ${parsed.error.message}` });
    else ctx.io.stdout(`the arguments are not JSON: ${parsed.error.message}\n`);
    return EXIT_FAILURE;
  }
  const r = validateToolArgs(tool.schema, parsed.value);
  if (isRight(r)) {
    if (json) printJson(ctx, { tool: tool.name, valid: true, args: r.right });
    else ctx.io.stdout(`valid: the arguments of "${tool.name}" match its specification\n`);
    return EXIT_OK;
  }
  if (json) printJson(ctx, { tool: tool.name, valid: false, issues: r.left });
  else ctx.io.stdout(r.left.map((i) => `${i.message} [${i.code}]\n`).join(''));
  return EXIT_FAILURE;
};

interface CallResult {
  readonly line: number;
  readonly tool?: string;
  readonly valid: boolean;
  readonly issues?: ReadonlyArray<unknown>;
  readonly error?: string;
}

const many = async (ctx: CommandContext, specs: Specifications, callsFile: string, defaultTool: string | undefined): Promise<number> => {
  const loaded = await loadSource(ctx.io, callsFile);
  if (!loaded.ok) {
    reportError(ctx.io, loaded.error);
    return EXIT_FAILURE;
  }
  const byName = new Map(specs.tools.map((t) => [t.name, t]));
  let invalid = 0;
  let total = 0;
  const lines = loaded.value.text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const raw = (lines[i] as string).trim();
    if (raw === '') continue;
    total++;
    const result = check(raw, i + 1, byName, defaultTool);
    if (!result.valid) invalid++;
    ctx.io.stdout(`${JSON.stringify(result)}\n`);
  }
  ctx.io.stderr(`${total - invalid} of ${total} call${total === 1 ? '' : 's'} valid\n`);
  return invalid > 0 ? EXIT_FAILURE : EXIT_OK;
};

const check = (raw: string, line: number, byName: ReadonlyMap<string, Specifications['tools'][number]>, defaultTool: string | undefined): CallResult => {
  const parsed = parseJson(raw);
  if (!parsed.ok) return { line, valid: false, error: `not JSON: ${parsed.error.message}` };
  const call = parsed.value;
  if (!isJsonObject(call)) return { line, valid: false, error: 'a call must be an object {"tool": .., "args": ..}' };
  const name = typeof call['tool'] === 'string' ? call['tool'] : typeof call['name'] === 'string' ? call['name'] : defaultTool;
  if (name === undefined) return { line, valid: false, error: 'the call names no tool ("tool" or "name")' };
  const tool = byName.get(name);
  if (tool === undefined) return { line, tool: name, valid: false, error: `no tool named "${name}" in the specification` };
  let args: unknown;
  if (call['args'] !== undefined) args = call['args'];
  else if (typeof call['arguments'] === 'string') {
    const a = parseJson(call['arguments']);
    if (!a.ok) return { line, tool: name, valid: false, error: `"arguments" is not JSON: ${a.error.message}` };
    args = a.value;
  } else if (call['arguments'] !== undefined) args = call['arguments'] as JsonValue;
  else return { line, tool: name, valid: false, error: 'the call has no "args" (or "arguments")' };
  const r = validateToolArgs(tool.schema, args);
  return isRight(r) ? { line, tool: name, valid: true } : { line, tool: name, valid: false, issues: r.left };
};
