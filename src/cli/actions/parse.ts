/**
 * `gramkit parse <file|->`: a gram file as canonical JSON (the header first, as an anonymous
 * pattern) or as formatted gram. Diagnostics go to standard error.
 */
import { toCanonicalJson } from '../../gram/canonical-json.js';
import { toPatterns } from '../../gram/lower.js';
import { analyzeGram } from '../../gram/parse.js';
import { formatGram } from '../../gram/print.js';
import { EXIT_FAILURE, EXIT_OK, type CommandContext } from '../context.js';
import { loadSource } from './gram-input.js';
import { renderDiagnostics } from './gram-report.js';

export interface ParseCommandOptions {
  readonly strict?: boolean;
  readonly format?: 'json' | 'gram';
  readonly pretty?: boolean;
}

export const action = async (ctx: CommandContext, file: string, options: ParseCommandOptions): Promise<number> => {
  const loaded = await loadSource(ctx.io, file);
  if (!loaded.ok) {
    ctx.io.stderr(`gramkit: ${loaded.message}\n`);
    return EXIT_FAILURE;
  }
  const { name, text } = loaded.source;
  const r = analyzeGram(text, { strict: options.strict === true, filename: name });
  ctx.io.stderr(renderDiagnostics(r.diagnostics, text, name));
  if (r.document === undefined) return EXIT_FAILURE;
  if (options.format === 'gram') ctx.io.stdout(formatGram(r.document));
  else ctx.io.stdout(`${toCanonicalJson(toPatterns(r.document), { indent: options.pretty === true ? 2 : 0 })}\n`);
  return EXIT_OK;
};
