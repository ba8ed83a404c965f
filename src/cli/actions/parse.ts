/**
 * `gramkit parse <file|->`: a gram file as canonical JSON (the header first, as an anonymous
 * pattern) or as formatted gram. Diagnostics go to standard error.
 */
import { checkedDiagnostics, isLeft } from '../../core/either.js';
import { toCanonicalJson } from '../../gram/canonical-json.js';
import { toPatterns } from '../../gram/lower.js';
import { analyzeGram } from '../../gram/parse.js';
import { formatGram } from '../../gram/print.js';
import { EXIT_FAILURE, EXIT_OK, type CommandContext } from '../context.js';
import { loadSource } from './gram-input.js';
import { renderDiagnostics } from './gram-report.js';
import { reportError } from '../report.js';

export interface ParseCommandOptions {
  readonly strict?: boolean;
  readonly format?: 'json' | 'gram';
  readonly pretty?: boolean;
}

export const action = async (ctx: CommandContext, file: string, options: ParseCommandOptions): Promise<number> => {
  const loaded = await loadSource(ctx.io, file);
  if (!loaded.ok) {
    reportError(ctx.io, loaded.error);
    return EXIT_FAILURE;
  }
  const { name, text } = loaded.value;
  const r = analyzeGram(text, { strict: options.strict === true, filename: name });
  ctx.io.stderr(renderDiagnostics(checkedDiagnostics(r), text, name));
  if (isLeft(r)) return EXIT_FAILURE;
  const document = r.right.value;
  if (options.format === 'gram') ctx.io.stdout(formatGram(document));
  else ctx.io.stdout(`${toCanonicalJson(toPatterns(document), { indent: options.pretty === true ? 2 : 0 })}\n`);
  return EXIT_OK;
};
