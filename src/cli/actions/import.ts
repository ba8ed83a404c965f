/**
 * `gramkit import <file|-> [--from F] [--name N] [--verbose]`: tool definitions from JSON Schema,
 * OpenAI, MCP, Anthropic or BFCL to one `.gram` document on stdout. What cannot be imported is
 * reported per tool on stderr with its reason, and the rest is still written (exit 1 then).
 *
 * The input may also be an MCP server (`mcp:<url>`, `mcp+stdio:<command line>`): its `tools/list`
 * is imported as an MCP document would be.
 *
 * The design documents' tool files are read too: seed 000's `tool.json` and seed 002's Tool JSON
 * (alone, in an array, or as a bootstrap `{"tools": [...]}`), through the catalog's codecs
 * (`seedToolToGram`): the gram is what `gramkit catalog add` stores, implementation included
 * (`http: {…}`, `command: {…}` from an `exec` block, `builtin: "…"`).
 */
import { basename, extname } from 'node:path';
import type { Diagnostic } from '../../core/diagnostic.js';
import { formatDiagnostic, formatDiagnostics } from '../../core/format-diagnostic.js';
import { type ImportFormat, type ImportReport, importDefinitions, importSucceeded, parseImportInput } from '../../spec/import.js';
import { codedError, err, ok } from '../../core/result.js';
import { CliCodes } from '../codes.js';
import { loadSource, type Loaded } from './gram-input.js';
import type { CommandContext } from '../context.js';
import { isMcpAddress, openMcp } from './mcp-source.js';

export interface ImportCommandOptions {
  readonly from?: string;
  readonly name?: string;
  readonly verbose?: boolean;
  readonly repair?: boolean;
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

const SEED_FORMATS = ['tool-json', 'registry'];

/** The definitions of an input, with seed documents apart (a bootstrap's `{"tools": [...]}` opened). */
const splitSeedDocuments = async (values: ReadonlyArray<{ readonly value: unknown; readonly at: string }>, from: string | undefined) => {
  const { seedToolFormat } = await import('../../catalog/convert.js');
  const seed: Array<{ readonly value: unknown; readonly at: string }> = [];
  const other: Array<{ readonly value: unknown; readonly at: string }> = [];
  const isSeed = (v: unknown): boolean => (from !== undefined ? SEED_FORMATS.includes(from) : seedToolFormat(v) !== undefined);
  for (const v of values) {
    const o = v.value;
    const items = Array.isArray(o)
      ? o.map((value, i) => ({ value, at: `${v.at}[${i}]` }))
      : typeof o === 'object' && o !== null && Array.isArray((o as { tools?: unknown }).tools) && (o as { id?: unknown }).id === undefined
        ? ((o as { tools: unknown[] }).tools.map((value, i) => ({ value, at: `${v.at}tools[${i}]` })))
        : [v];
    const seeds = items.filter((x) => isSeed(x.value));
    if (seeds.length === 0) other.push(v);
    else {
      seed.push(...seeds);
      other.push(...items.filter((x) => !isSeed(x.value)));
    }
  }
  return { seed, other };
};

/** Seed 000 and seed 002 tool documents as gram, through the catalog's codecs. */
const importSeedDocuments = async (ctx: CommandContext, values: ReadonlyArray<{ readonly value: unknown; readonly at: string }>, file: string, fallback: string | undefined): Promise<ImportReport> => {
  const { contentEnvironment, seedToolToGram } = await import('../../catalog/convert.js');
  const { builtinTools } = await import('../../tools/builtin/builtin-tools.js');
  const env = contentEnvironment(new Map(builtinTools({ workspace: ctx.io.cwd, allowedHosts: [] }).map((t) => [t.name, t])));
  const { parseSpecifications } = await import('../../spec/load.js');
  const grams: string[] = [];
  const tools: Array<ImportReport['tools'][number]> = [];
  for (const v of values) {
    const r = seedToolToGram(v.value, env, values.length === 1 && fallback !== undefined ? { slug: fallback } : {});
    const where = (d: Diagnostic): Diagnostic => ({ ...d, message: `${file}${v.at === '' ? '' : ` ${v.at}`}: ${d.message}` });
    if (r._tag === 'Left') {
      tools.push({ name: v.at === '' ? '#1' : v.at, format: 'jsonschema', diagnostics: r.left.map(where) });
      continue;
    }
    const specs = parseSpecifications(r.right.gram);
    const spec = specs._tag === 'Right' ? specs.right.tools[0] : undefined;
    grams.push(r.right.gram);
    tools.push({ name: r.right.slug, format: 'jsonschema', ...(spec !== undefined ? { spec } : {}), diagnostics: r.right.warnings.map((d) => ({ ...where(d), severity: 'warning' as const })) });
  }
  return { tools, diagnostics: [], gram: grams.length === 0 ? '' : `${grams.join('\n\n')}\n` };
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
  const input = parseImportInput(loaded.value.text, loaded.value.name);
  const { seed, other } = input.diagnostics.length > 0 || (from !== undefined && !SEED_FORMATS.includes(from)) ? { seed: [], other: input.values } : await splitSeedDocuments(input.values, from);
  const seeded = seed.length > 0 ? await importSeedDocuments(ctx, seed, loaded.value.name, fallback) : undefined;
  const others =
    seeded !== undefined && other.length === 0
      ? undefined
      : importDefinitions(other, {
          ...(from !== undefined && !SEED_FORMATS.includes(from) ? { from: from as ImportFormat } : {}),
          ...(fallback !== undefined ? { name: fallback } : {}),
          file: loaded.value.name,
          ...(options.repair === true ? { repair: true } : {}),
        });
  const report: ImportReport = {
    tools: [...(seeded?.tools ?? []), ...(others?.tools ?? [])],
    diagnostics: [...input.diagnostics, ...(others?.diagnostics ?? [])],
    gram: [seeded?.gram ?? '', others?.gram ?? ''].filter((g) => g !== '').join('\n'),
  };
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
