/**
 * `gramkit check <files...>`: parses every file (directories: every `.gram` file under them;
 * `builtin`: the built-in specifications) and reports all errors and warnings, then a summary.
 * Exit 1 when any file has an error.
 */
import { checkedDiagnostics } from '../../core/either.js';
import { hasErrors } from '../../core/diagnostic.js';
import { analyzeGram } from '../../gram/parse.js';
import { EXIT_FAILURE, EXIT_OK, type CommandContext } from '../context.js';
import { expandArguments, type Loaded, loadSource } from './gram-input.js';
import { countText, diagnosticsJson, renderDiagnostics } from './gram-report.js';

/**
 * A file, `-`, or `builtin` (the built-in specifications). The built-ins load the specification
 * layer, so they are imported only when asked for: `check` on a file stays fast to start.
 */
const readSource = async (ctx: CommandContext, arg: string): Promise<Loaded> => {
  if (arg !== 'builtin') return loadSource(ctx.io, arg);
  const { readSpecSource } = await import('./spec-source.js');
  return readSpecSource(ctx.io, arg);
};

export interface CheckCommandOptions {
  readonly strict?: boolean;
  readonly json?: boolean;
}

export const action = async (ctx: CommandContext, files: ReadonlyArray<string>, options: CheckCommandOptions): Promise<number> => {
  const args = await expandArguments(ctx.io, files);
  if (args.length === 0) {
    ctx.io.stderr('gramkit: no .gram files found\n');
    return EXIT_FAILURE;
  }
  let errors = 0;
  let warnings = 0;
  let failedFiles = 0;
  const json: Record<string, unknown>[] = [];
  for (const arg of args) {
    const loaded = await readSource(ctx, arg);
    if (!loaded.ok) {
      errors++;
      failedFiles++;
      if (options.json === true) json.push({ file: arg, code: loaded.error.code, severity: 'error', message: loaded.error.message });
      else ctx.io.stderr(`error: ${loaded.error.message}\n\n`);
      continue;
    }
    const { name, text } = loaded.value;
    const found = checkedDiagnostics(analyzeGram(text, { strict: options.strict === true, filename: name }));
    const e = found.filter((d) => d.severity === 'error').length;
    errors += e;
    warnings += found.filter((d) => d.severity === 'warning').length;
    if (hasErrors(found)) failedFiles++;
    if (options.json === true) json.push(...diagnosticsJson(found, text, name));
    else ctx.io.stderr(renderDiagnostics(found, text, name));
  }
  if (options.json === true) {
    ctx.io.stdout(`${JSON.stringify(json, null, 2)}\n`);
  } else {
    const files = `${args.length} file${args.length === 1 ? '' : 's'}`;
    const verdict = failedFiles === 0 ? 'ok' : `${failedFiles} with errors`;
    ctx.io.stdout(`checked ${files}${options.strict === true ? ' (strict)' : ''}: ${verdict}; ${countText(errors, warnings)}\n`);
  }
  return errors > 0 ? EXIT_FAILURE : EXIT_OK;
};
