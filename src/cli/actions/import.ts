/**
 * `gramkit import <file|-> [--from F] [--name N] [--verbose]`: tool definitions from JSON Schema,
 * OpenAI, MCP, Anthropic or BFCL to one `.gram` document on stdout. What cannot be imported is
 * reported per tool on stderr with its reason, and the rest is still written (exit 1 then).
 *
 * The input may also be an MCP server (`mcp:<url>`, `mcp+stdio:<command line>`): its `tools/list`
 * is imported as an MCP document would be.
 *
 * The catalog's own JSON forms of a tool are read too: the `tool.json` record of a tool bundle and
 * the registry's Tool JSON (alone, in an array, or as a bootstrap `{"tools": [...]}`), through the
 * catalog's codecs (`catalogToolToGram`): the gram is what `gramkit catalog add` stores,
 * implementation included (`http: {…}`, `command: {…}` from an `exec` block, `builtin: "…"`).
 */
import { basename, extname } from 'node:path';
import type { Diagnostic } from '../../core/diagnostic.js';
import { formatDiagnostic } from '../../core/format-diagnostic.js';
import { type ImportFormat, type ImportReport, importDefinitions, importSucceeded, parseImportInput } from '../../specification/import.js';
import { type CodedError, ok, type Result } from '../../core/result.js';
import { loadSource, type Loaded } from './gram-input.js';
import { EXIT_FAILURE, EXIT_OK, type CommandContext } from '../context.js';
import { isMcpAddress, openMcp } from './mcp-source.js';
import { visibleControls } from '../terminal-text.js';
import { reportError } from '../report.js';
import { isLeft, isRight } from '../../core/either.js';

export interface ImportCommandOptions {
  readonly from?: string;
  readonly name?: string;
  readonly verbose?: boolean;
  readonly repair?: boolean;
}

const render = (d: Diagnostic): string => `${formatDiagnostic(d)}\n`;

/** The text to import: a file, stdin, or an MCP server's tool list (as `{"tools": [...]}`). */
const loadInput = async (ctx: CommandContext, file: string): Promise<Loaded | Result<never, CodedError>> => {
  if (!isMcpAddress(file)) return loadSource(ctx.io, file);
  const c = await openMcp(ctx, file);
  // why the server gives no tools, under its precise code (MCP_CONNECT_FAILED, ...)
  if (!c.ok) return c;
  // gramkit servers' own _meta keys (a result's output schema) are read as the client reads them
  const { importableDefinition } = await import('../../mcp/import-tools.js');
  return ok({ name: file, text: JSON.stringify({ tools: c.value.definitions.map(importableDefinition) }) });
};

const CATALOG_FORMATS = ['tool-json', 'registry'];

/** The definitions of an input, with the catalog's tool documents apart (a bootstrap's `{"tools": [...]}` opened). */
const splitCatalogDocuments = async (values: ReadonlyArray<{ readonly value: unknown; readonly at: string }>, from: string | undefined) => {
  const { catalogToolFormat } = await import('../../catalog/records/convert.js');
  const catalog: Array<{ readonly value: unknown; readonly at: string }> = [];
  const other: Array<{ readonly value: unknown; readonly at: string }> = [];
  const isCatalogTool = (v: unknown): boolean => (from !== undefined ? CATALOG_FORMATS.includes(from) : catalogToolFormat(v) !== undefined);
  for (const v of values) {
    const o = v.value;
    const items = Array.isArray(o)
      ? o.map((value, i) => ({ value, at: `${v.at}[${i}]` }))
      : typeof o === 'object' && o !== null && Array.isArray((o as { tools?: unknown }).tools) && (o as { id?: unknown }).id === undefined
        ? (o as { tools: unknown[] }).tools.map((value, i) => ({ value, at: `${v.at}tools[${i}]` }))
        : [v];
    const tools = items.filter((x) => isCatalogTool(x.value));
    if (tools.length === 0) other.push(v);
    else {
      catalog.push(...tools);
      other.push(...items.filter((x) => !isCatalogTool(x.value)));
    }
  }
  return { catalog, other };
};

/** `tool.json` records and registry Tool JSON as gram, through the catalog's codecs. */
const importCatalogDocuments = async (
  ctx: CommandContext,
  values: ReadonlyArray<{ readonly value: unknown; readonly at: string }>,
  file: string,
  fallback: string | undefined,
): Promise<ImportReport> => {
  const { contentEnvironment, catalogToolToGram } = await import('../../catalog/records/convert.js');
  const { builtinTools } = await import('../../tools/builtin/builtin-tools.js');
  const env = contentEnvironment(new Map(builtinTools({ workspace: ctx.io.cwd, allowedHosts: [] }).map((t) => [t.name, t])));
  const { parseSpecifications } = await import('../../specification/load.js');
  const grams: string[] = [];
  const tools: Array<ImportReport['tools'][number]> = [];
  for (const v of values) {
    const r = catalogToolToGram(v.value, env, values.length === 1 && fallback !== undefined ? { slug: fallback } : {});
    const where = (d: Diagnostic): Diagnostic => ({ ...d, message: `${file}${v.at === '' ? '' : ` ${v.at}`}: ${d.message}` });
    if (isLeft(r)) {
      tools.push({ name: v.at === '' ? '#1' : v.at, format: 'jsonschema', diagnostics: r.left.map(where) });
      continue;
    }
    const specs = parseSpecifications(r.right.gram);
    const spec = isRight(specs) ? specs.right.tools[0] : undefined;
    grams.push(r.right.gram);
    tools.push({
      name: r.right.slug,
      format: 'jsonschema',
      ...(spec !== undefined ? { spec } : {}),
      diagnostics: r.right.warnings.map((d) => ({ ...where(d), severity: 'warning' as const })),
    });
  }
  return { tools, diagnostics: [], gram: grams.length === 0 ? '' : `${grams.join('\n\n')}\n` };
};

export const action = async (ctx: CommandContext, file: string, options: ImportCommandOptions): Promise<number> => {
  const mcp = isMcpAddress(file);
  const loaded = await loadInput(ctx, file);
  if (!loaded.ok) {
    reportError(ctx.io, loaded.error);
    return EXIT_FAILURE;
  }
  const fallback = options.name ?? (file === '-' || mcp ? undefined : basename(file, extname(file)));
  const from = options.from ?? (mcp ? 'mcp' : undefined);
  const input = parseImportInput(loaded.value.text, loaded.value.name);
  const { catalog, other } =
    input.diagnostics.length > 0 || (from !== undefined && !CATALOG_FORMATS.includes(from))
      ? { catalog: [], other: input.values }
      : await splitCatalogDocuments(input.values, from);
  const fromCatalog = catalog.length > 0 ? await importCatalogDocuments(ctx, catalog, loaded.value.name, fallback) : undefined;
  const others =
    fromCatalog !== undefined && other.length === 0
      ? undefined
      : importDefinitions(other, {
          ...(from !== undefined && !CATALOG_FORMATS.includes(from) ? { from: from as ImportFormat } : {}),
          ...(fallback !== undefined ? { name: fallback } : {}),
          file: loaded.value.name,
          ...(options.repair === true ? { repair: true } : {}),
        });
  const report: ImportReport = {
    tools: [...(fromCatalog?.tools ?? []), ...(others?.tools ?? [])],
    diagnostics: [...input.diagnostics, ...(others?.diagnostics ?? [])],
    gram: [fromCatalog?.gram ?? '', others?.gram ?? ''].filter((g) => g !== '').join('\n'),
  };
  // descriptions are others' text: no escape sequence of theirs reaches the terminal
  const gram = visibleControls(report.gram);
  ctx.io.stdout(gram.text);
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
  if (gram.replaced > 0) notes.push(`${gram.replaced} control character${gram.replaced === 1 ? '' : 's'} shown as symbols`);
  ctx.io.stderr(visibleControls(`${out}${notes.length > 0 ? ` (${notes.join(', ')})` : ''}\n`).text);
  return !importSucceeded(report) || imported === 0 ? EXIT_FAILURE : EXIT_OK;
};
