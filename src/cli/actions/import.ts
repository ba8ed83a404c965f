/**
 * `gramkit import <file|-> [--from F] [--name N] [--verbose]`: tool definitions from JSON Schema,
 * OpenAI, MCP, Anthropic or BFCL to one `.gram` document on stdout. What cannot be imported is
 * reported per tool on stderr with its reason, and the rest is still written (exit 1 then).
 *
 * The input may also be an MCP server (`mcp:<url>`, `mcp+stdio:<command line>`): its `tools/list`
 * is imported as an MCP document would be.
 */
import { basename, extname } from 'node:path';
import type { Diagnostic } from '../../core/diagnostic.js';
import { formatDiagnostic, formatDiagnostics } from '../../core/format-diagnostic.js';
import { type ImportFormat, importSucceeded, importTools } from '../../spec/import.js';
import { codedError, err, ok } from '../../core/result.js';
import { CliCodes } from '../codes.js';
import { loadSource, type Loaded } from './gram-input.js';
import type { CommandContext } from '../context.js';
import { isMcpAddress, openMcp } from './mcp-source.js';

export interface ImportCommandOptions {
  readonly from?: string;
  readonly name?: string;
  readonly verbose?: boolean;
}

const render = (d: Diagnostic): string => `${formatDiagnostic(d)}\n`;

/** The text to import: a file, stdin, or an MCP server's tool list (as `{"tools": [...]}`). */
const loadInput = async (ctx: CommandContext, file: string): Promise<Loaded> => {
  if (!isMcpAddress(file)) return loadSource(ctx.io, file);
  const c = await openMcp(ctx, file);
  if (c._tag === 'Left') return err(codedError(CliCodes.UNREADABLE, formatDiagnostics(c.left).trimEnd().replace(/^error\[[A-Z_]+\]: /, '')));
  // gramkit servers' own _meta keys (a result's output schema) are read as the client reads them
  const { importableDefinition } = await import('../../mcp/import-tools.js');
  return ok({ name: file, text: JSON.stringify({ tools: c.right.definitions.map(importableDefinition) }) });
};

export const action = async (ctx: CommandContext, file: string, options: ImportCommandOptions): Promise<void> => {
  const mcp = isMcpAddress(file);
  const loaded = await loadInput(ctx, file);
  if (!loaded.ok) {
    ctx.io.stderr(`gramkit: ${loaded.error.message}\n`);
    ctx.exit(1);
    return;
  }
  const fallback = options.name ?? (file === '-' || mcp ? undefined : basename(file, extname(file)));
  const from = options.from ?? (mcp ? 'mcp' : undefined);
  const report = importTools(loaded.value.text, {
    ...(from !== undefined ? { from: from as ImportFormat } : {}),
    ...(fallback !== undefined ? { name: fallback } : {}),
    file: loaded.value.name,
  });
  ctx.io.stdout(report.gram);
  const shown = (d: Diagnostic): boolean => d.severity !== 'info' || options.verbose === true;
  let out = '';
  for (const d of report.diagnostics) if (shown(d)) out += render(d);
  for (const t of report.tools) for (const d of t.diagnostics) if (shown(d)) out += render(d);
  const imported = report.tools.filter((t) => t.spec !== undefined).length;
  const failed = report.tools.filter((t) => t.diagnostics.some((d) => d.severity === 'error')).length;
  const warned = report.tools.filter((t) => t.diagnostics.some((d) => d.severity === 'warning')).length;
  const duplicates = report.tools.length - imported - failed;
  out += `imported ${imported} tool${imported === 1 ? '' : 's'} of ${report.tools.length} definition${report.tools.length === 1 ? '' : 's'}`;
  const notes = [
    ...(failed > 0 ? [`${failed} not imported`] : []),
    ...(duplicates > 0 ? [`${duplicates} identical repeat${duplicates === 1 ? '' : 's'} written once`] : []),
    ...(warned > 0 ? [`${warned} with warnings`] : []),
  ];
  ctx.io.stderr(`${out}${notes.length > 0 ? ` (${notes.join(', ')})` : ''}\n`);
  if (!importSucceeded(report) || imported === 0) ctx.exit(1);
};
