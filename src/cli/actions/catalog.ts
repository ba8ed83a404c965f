/**
 * `gramkit catalog …`: the catalog's operations on its store, without a server. Exit 0 when
 * everything asked was done, 1 when something was refused (each refusal on stderr with its code),
 * 2 for usage errors.
 *
 * Tools are named by toolID, registry id (`tool_http_get`), or `[bundle/]slug[@version]` (the
 * bundle by slug or id; without a version, the tool must be the only version of the slug).
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, isAbsolute, resolve } from 'node:path';
import type { Catalog, ToolRef } from '../../catalog/catalog.js';
import { CatalogCodes } from '../../catalog/codes.js';
import { contentToGram } from '../../catalog/records/content.js';
import { newId, isUuidV7 } from '../../catalog/records/ids.js';
import { isSlug, slugOfRegistryId } from '../../catalog/records/slug.js';
import type { ToolRecord } from '../../catalog/records/records.js';
import { type CatalogResult, catalogCodes } from '../../catalog/result.js';
import { decodeStoredTool } from '../../catalog/records/tool-json.js';
import { isJsonObject } from '../../core/json.js';
import type { JsonObject } from '../../core/json-schema.js';
import { formatDiagnostics } from '../../core/format-diagnostic.js';
import { parseSpecifications } from '../../specification/load.js';
import { printToolSpecification } from '../../specification/serialize.js';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, type CommandContext } from '../context.js';
import { openCliCatalog, storeLocation } from './catalog-store.js';
import { functionLibraries } from './spec-source.js';
import { type Diagnosed, isLeft, isRight, mapRight } from '../../core/either.js';
import { reportError, reportWarning, usageError } from '../report.js';
import { CliCodes } from '../codes.js';

interface Options {
  readonly data?: string;
  readonly store?: string;
  readonly bundle?: string;
  readonly version?: string;
  readonly json?: boolean;
  readonly all?: boolean;
  readonly tag?: ReadonlyArray<string>;
  readonly bundles?: boolean;
  readonly limit?: string;
  readonly format?: string;
  readonly out?: string;
  readonly library?: ReadonlyArray<string>;
}

const DEFAULT_BUNDLE = 'default';

// -------------------------------------------------------------------------------------------------
// entry
// -------------------------------------------------------------------------------------------------

export const action = async (ctx: CommandContext, name: string, args: ReadonlyArray<unknown>): Promise<number> => {
  const { io } = ctx;
  // commander passes the arguments, then the options, then the command
  const options = (args[args.length - 2] ?? {}) as Options;
  const positional = args.slice(0, -2);
  const where = storeLocation(options, io);
  if (!where.ok) {
    reportError(io, where.error);
    return EXIT_USAGE;
  }
  // the libraries `function` tools name (--library): without them, such tools are unavailable, saying so
  const functions = await functionLibraries(ctx, options.library ?? [], io.cwd);
  if (!functions.ok) {
    reportError(io, functions.error);
    return EXIT_FAILURE;
  }
  const opened = await openCliCatalog(where.value, io, { workspace: io.cwd, functions: functions.value });
  if (!opened.ok) {
    reportError(io, opened.error);
    return EXIT_FAILURE;
  }
  const catalog = opened.value;
  try {
    const c = { ctx, catalog, options, name };
    switch (name) {
      case 'add':
        return await add(c, positional[0] as ReadonlyArray<string>);
      case 'ls':
        return await ls(c);
      case 'search':
        return await search(c, (positional[0] as ReadonlyArray<string>).join(' '));
      case 'enable':
      case 'disable':
        return await toggle(c, positional[0] as string | undefined, name === 'enable');
      case 'rm':
        return await remove(c, positional[0] as string | undefined);
      case 'export':
        return await exportCatalog(c);
      case 'import':
        return await importFile(c, positional[0] as string);
      default:
        usageError(io, `unknown command ${name}`);
        return EXIT_USAGE;
    }
  } finally {
    await catalog.close();
  }
};

interface Run {
  readonly ctx: CommandContext;
  readonly catalog: Catalog;
  readonly options: Options;
  readonly name: string;
}

const refused = (r: Run, what: string, result: CatalogResult<unknown>): number => {
  if (!result.ok) {
    const details = result.error.diagnostics !== undefined && result.error.diagnostics.length > 1 ? `\n${formatDiagnostics(result.error.diagnostics)}` : '';
    reportError(r.ctx.io, { reason: result.error.reason, message: `${what}: ${result.error.message}${details}` });
  }
  return EXIT_FAILURE;
};

// -------------------------------------------------------------------------------------------------
// naming
// -------------------------------------------------------------------------------------------------

/** The id of a bundle named by slug or id. */
const bundleId = async (r: Run, ref: string): Promise<CatalogResult<string>> => {
  const b = await r.catalog.findBundle(ref);
  return b.ok ? { ok: true, value: b.value['bundleID'] as string } : b;
};

/** The bundle for additions: `--bundle`, created (by slug) when missing. */
const targetBundle = async (r: Run, ref: string | undefined): Promise<CatalogResult<string>> => {
  const name = ref ?? DEFAULT_BUNDLE;
  const found = await r.catalog.findBundle(name);
  if (found.ok) return { ok: true, value: found.value['bundleID'] as string };
  if (isUuidV7(name.toLowerCase())) return found;
  const created = await r.catalog.putBundle(newId(), { slug: name, displayName: name });
  if (created.ok) return { ok: true, value: created.value.bundle['bundleID'] as string };
  // another process created it meanwhile
  const again = await r.catalog.findBundle(name);
  return again.ok ? { ok: true, value: again.value['bundleID'] as string } : created;
};

/** A tool named on the command line. */
const toolRef = async (r: Run, text: string): Promise<CatalogResult<ToolRef>> => {
  if (isUuidV7(text.toLowerCase())) return { ok: true, value: { id: text } };
  const slash = text.indexOf('/');
  const bundleRef = slash >= 0 ? text.slice(0, slash) : r.options.bundle;
  const rest = slash >= 0 ? text.slice(slash + 1) : text;
  const at = rest.lastIndexOf('@');
  const slug = at >= 0 ? rest.slice(0, at) : rest;
  const version = at >= 0 ? rest.slice(at + 1) : undefined;
  if (bundleRef === undefined && version === undefined) {
    const byRegistry = await r.catalog.registryTool(text);
    if (byRegistry.ok) return { ok: true, value: { id: text } };
  }
  let bundleID: string | undefined;
  if (bundleRef !== undefined) {
    const b = await bundleId(r, bundleRef);
    if (!b.ok) return b;
    bundleID = b.value;
  }
  const list = await r.catalog.listTools({ includeDisabled: true, pageSize: 1000, ...(bundleID !== undefined ? { bundleIDs: [bundleID] } : {}) });
  if (!list.ok) return list;
  const all: JsonObject[] = [...list.value.tools];
  let token = list.value.nextPageToken;
  while (token !== undefined) {
    const more = await r.catalog.listTools({
      includeDisabled: true,
      pageSize: 1000,
      pageToken: token,
      ...(bundleID !== undefined ? { bundleIDs: [bundleID] } : {}),
    });
    if (!more.ok) return more;
    all.push(...more.value.tools);
    token = more.value.nextPageToken;
  }
  const wanted = isSlug(slug) ? slug : slugOfRegistryId(slug);
  const matches = all.filter((t) => t['slug'] === wanted && (version === undefined || t['version'] === version));
  if (matches.length === 1) {
    const t = matches[0] as JsonObject;
    return { ok: true, value: { id: t['toolID'] as string } };
  }
  const detail =
    matches.length === 0
      ? `no tool ${text}`
      : `${text} names ${matches.length} tools (${matches.map((t) => `${t['bundleSlug'] as string}/${t['slug'] as string}@${t['version'] as string}`).join(', ')}); name one as bundle/slug@version or by toolID`;
  return { ok: false, error: { ...catalogCodes(matches.length === 0 ? CatalogCodes.TOOL_NOT_FOUND : CatalogCodes.CONFLICT), message: detail } };
};

// -------------------------------------------------------------------------------------------------
// add and import
// -------------------------------------------------------------------------------------------------

const readText = async (r: Run, file: string): Promise<string | undefined> => {
  try {
    return await readFile(isAbsolute(file) ? file : resolve(r.ctx.io.cwd, file), 'utf8');
  } catch (e) {
    reportError(r.ctx.io, { reason: CliCodes.UNREADABLE, message: `cannot read ${file}: ${(e as Error).message}` });
    return undefined;
  }
};

/**
 * Each tool of a gram document as its own gram text (the catalog's write form). A tool's name is
 * its slug (`word_count` stays `word_count`); one that is not a slug (`read.file`, `a__b`) becomes
 * one as registry ids do (`_` and `.` become `-`: `read-file`).
 */
const gramTools = (
  text: string,
  file: string,
): Diagnosed<ReadonlyArray<{ readonly name: string; readonly slug: string; readonly version?: string; readonly gram: string }>> =>
  mapRight(parseSpecifications(text, { filename: file }), (parsed) =>
    parsed.tools.map((s) => {
      const v = s.metadata?.['version'];
      const slug = isSlug(s.name) ? s.name : slugOfRegistryId(s.name);
      return { name: s.name, slug, ...(typeof v === 'string' ? { version: v } : {}), gram: printToolSpecification({ ...s, name: slug }) };
    }),
  );

const add = async (r: Run, files: ReadonlyArray<string>): Promise<number> => {
  let code = EXIT_OK;
  const added: JsonObject[] = [];
  const say = (line: string): void => {
    if (r.options.json !== true) r.ctx.io.stdout(`${line}\n`);
  };
  for (const file of files) {
    const text = await readText(r, file);
    if (text === undefined) {
      code = EXIT_FAILURE;
      continue;
    }
    if (extname(file).toLowerCase() === '.gram') {
      const g = gramTools(text, file);
      if (isLeft(g)) {
        r.ctx.io.stderr(`${formatDiagnostics(g.left, text, { filename: file })}\n`);
        code = EXIT_FAILURE;
        continue;
      }
      const bundle = await targetBundle(r, r.options.bundle);
      if (!bundle.ok) return refused(r, file, bundle);
      for (const t of g.right) {
        const version = t.version ?? r.options.version ?? '1';
        const w = await r.catalog.putTool(bundle.value, t.slug, version, { gram: t.gram, version });
        if (!w.ok) code = refused(r, `${file}: ${t.slug}`, w);
        else {
          added.push(w.value.value);
          say(
            `added ${t.slug}@${version}${t.name !== t.slug ? ` (from ${t.name})` : ''} (${w.value.value['toolID'] as string}) to ${w.value.value['bundleSlug'] as string}`,
          );
          for (const d of w.value.warnings) reportWarning(r.ctx.io, { reason: d.code, message: `${t.slug}: ${d.message}` });
        }
      }
      continue;
    }
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch (e) {
      reportError(r.ctx.io, { reason: CliCodes.INVALID_JSON, message: `${file} is not JSON: ${(e as Error).message}` });
      code = EXIT_FAILURE;
      continue;
    }
    // the registry's bootstrap file ({"tools": [...]}), as import and serve --bootstrap take it
    const bootstrap =
      isJsonObject(doc) && Array.isArray(doc['tools']) && doc['bundles'] === undefined && Object.keys(doc).length === 1 ? doc['tools'] : undefined;
    const items = bootstrap ?? (Array.isArray(doc) ? doc : [doc]);
    for (const [i, item] of items.entries()) {
      const label = bootstrap !== undefined ? `${file} tools[${i}]` : Array.isArray(doc) ? `${file}[${i}]` : file;
      if (!isJsonObject(item)) {
        usageError(r.ctx.io, `${label}: expected a tool (a JSON object)`);
        code = EXIT_FAILURE;
        continue;
      }
      if (typeof item['id'] === 'string' && item['slug'] === undefined) {
        // a registry Tool JSON
        const w = await r.catalog.registerTool(item);
        if (!w.ok) code = refused(r, label, w);
        else {
          added.push(w.value.value);
          say(`registered ${item['id']} (${w.value.value['tool_id'] as string})`);
        }
        continue;
      }
      const own = typeof item['bundleID'] === 'string' && r.options.bundle === undefined ? await r.catalog.findBundle(item['bundleID']) : undefined;
      const bundle = own?.ok === true ? { ok: true as const, value: own.value['bundleID'] as string } : await targetBundle(r, r.options.bundle);
      if (!bundle.ok) return refused(r, label, bundle);
      const slug = typeof item['slug'] === 'string' ? item['slug'] : basename(file, extname(file));
      const version = typeof item['version'] === 'string' ? item['version'] : (r.options.version ?? '1');
      const w = await r.catalog.putTool(bundle.value, slug, version, item);
      if (!w.ok) code = refused(r, label, w);
      else {
        added.push(w.value.value);
        say(`added ${slug}@${version} (${w.value.value['toolID'] as string}) to ${w.value.value['bundleSlug'] as string}`);
      }
    }
  }
  if (r.options.json === true) r.ctx.io.stdout(`${JSON.stringify(added, null, 2)}\n`);
  return code;
};

/** Tools an import writes in one transaction. */
const IMPORT_BATCH = 5000;

const importFile = async (r: Run, file: string): Promise<number> => {
  if (extname(file).toLowerCase() === '.gram') return add(r, [file]);
  const text = await readText(r, file);
  if (text === undefined) return EXIT_FAILURE;
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    reportError(r.ctx.io, { reason: CliCodes.INVALID_JSON, message: `${file} is not JSON: ${(e as Error).message}` });
    return EXIT_FAILURE;
  }
  if (!isJsonObject(doc) || !Array.isArray(doc['bundles']) || !Array.isArray(doc['tools'])) {
    usageError(r.ctx.io, `${file} is not an export ({"bundles": [...], "tools": [...]}); add tool.json files with gramkit catalog add`);
    return EXIT_FAILURE;
  }
  let code = EXIT_OK;
  let tools = 0;
  let same = 0;
  // the bundles first, exactly as exported (disabled and deleted ones too), then their tools
  const b = await r.catalog.importBundles(doc['bundles']);
  if (!b.ok) return refused(r, 'bundles', b);
  for (const e of b.value.refused)
    code = refused(r, `bundle ${JSON.stringify((doc['bundles'][e.index] as JsonObject | undefined)?.['bundleID'] ?? e.index)}`, { ok: false, error: e.error });
  // the tools in transactions of 5,000 (the store writes each batch together)
  // each record decoded once: the catalog takes the decoded record (its content is checked, not read again)
  const items: Array<{ readonly bundleID: string; readonly slug: string; readonly version: string; readonly record: ToolRecord }> = [];
  for (const t of doc['tools']) {
    const stored = decodeStoredTool(t, { exact: true });
    if (isLeft(stored)) {
      reportError(r.ctx.io, { reason: CatalogCodes.INVALID_RECORD, message: `a tool record does not decode: ${stored.left.map((d) => d.message).join('; ')}` });
      code = EXIT_FAILURE;
      continue;
    }
    const record: ToolRecord = stored.right;
    items.push({ bundleID: record.bundleID, slug: record.slug, version: record.version, record });
  }
  for (let from = 0; from < items.length; from += IMPORT_BATCH) {
    const batch = items.slice(from, from + IMPORT_BATCH);
    const w = await r.catalog.importTools(batch);
    if (!w.ok) {
      code = refused(r, `tools ${from + 1}–${from + batch.length}`, w);
      continue;
    }
    tools += w.value.created;
    same += w.value.existing;
    for (const e of w.value.refused) {
      const item = batch[e.index] as { readonly slug: string; readonly version: string };
      code = refused(r, `${item.slug}@${item.version}`, { ok: false, error: e.error });
    }
  }
  const counted = (n: number, what: string): string => `${n} ${what}${n === 1 ? '' : 's'}`;
  const there = b.value.existing + same > 0 ? ` (${counted(b.value.existing, 'bundle')} and ${counted(same, 'tool')} already there)` : '';
  r.ctx.io.stdout(`imported ${counted(b.value.created, 'bundle')} and ${counted(tools, 'tool')}${there}\n`);
  return code;
};

// -------------------------------------------------------------------------------------------------
// reading
// -------------------------------------------------------------------------------------------------

const table = (rows: ReadonlyArray<ReadonlyArray<string>>): string => {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows
    .map((r) =>
      r
        .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
};

const toolRows = (tools: ReadonlyArray<JsonObject>, extra?: (t: JsonObject) => string): ReadonlyArray<ReadonlyArray<string>> => [
  ['TOOL', 'VERSION', 'BUNDLE', 'TYPE', 'STATE', ...(extra !== undefined ? ['MATCH'] : []), 'ID'],
  ...tools.map((t) => [
    String(t['slug']),
    String(t['version']),
    String(t['bundleSlug']),
    String(t['type']),
    t['available'] === false ? 'unavailable' : t['isEnabled'] === true ? 'enabled' : 'disabled',
    ...(extra !== undefined ? [extra(t)] : []),
    String(t['toolID']),
  ]),
];

const ls = async (r: Run): Promise<number> => {
  const { io } = r.ctx;
  let bundleIDs: ReadonlyArray<string> | undefined;
  if (r.options.bundle !== undefined) {
    const b = await bundleId(r, r.options.bundle);
    if (!b.ok) return refused(r, r.options.bundle, b);
    bundleIDs = [b.value];
  }
  if (r.options.bundles === true) {
    const all: JsonObject[] = [];
    let token: string | undefined;
    do {
      const p = await r.catalog.listBundles({
        includeDisabled: r.options.all === true,
        pageSize: 1000,
        ...(bundleIDs !== undefined ? { bundleIDs } : {}),
        ...(token !== undefined ? { pageToken: token } : {}),
      });
      if (!p.ok) return refused(r, 'list', p);
      all.push(...p.value.bundles);
      token = p.value.nextPageToken;
    } while (token !== undefined);
    if (r.options.json === true) io.stdout(`${JSON.stringify(all, null, 2)}\n`);
    else
      io.stdout(
        `${table([['BUNDLE', 'TOOLS', 'STATE', 'ID'], ...all.map((b) => [String(b['slug']), String(b['toolCount']), b['softDeletedAt'] !== null ? 'deleted' : b['isEnabled'] === true ? 'enabled' : 'disabled', String(b['bundleID'])])])}\n`,
      );
    return EXIT_OK;
  }
  const all: JsonObject[] = [];
  let token: string | undefined;
  do {
    const p = await r.catalog.listTools({
      includeDisabled: r.options.all === true,
      pageSize: 1000,
      ...(bundleIDs !== undefined ? { bundleIDs } : {}),
      ...(r.options.tag !== undefined ? { tags: r.options.tag } : {}),
      ...(token !== undefined ? { pageToken: token } : {}),
    });
    if (!p.ok) return refused(r, 'list', p);
    all.push(...p.value.tools);
    token = p.value.nextPageToken;
  } while (token !== undefined);
  io.stdout(r.options.json === true ? `${JSON.stringify(all, null, 2)}\n` : `${table(toolRows(all))}\n${whyUnavailable(all)}`);
  return EXIT_OK;
};

/** A line per unavailable tool, saying why (after a table). */
const whyUnavailable = (tools: ReadonlyArray<JsonObject>): string =>
  tools
    .filter((t) => t['available'] === false)
    .map((t) => `${String(t['slug'])}@${String(t['version'])} is unavailable: ${String(t['unavailableReason'] ?? 'its implementation is missing')}\n`)
    .join('');

const search = async (r: Run, query: string): Promise<number> => {
  const limit = r.options.limit === undefined ? 20 : Number(r.options.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
    usageError(r.ctx.io, `--limit must be a whole number from 1 to 1000`);
    return EXIT_USAGE;
  }
  const p = await r.catalog.searchTools({ q: query, includeDisabled: r.options.all === true, pageSize: limit });
  if (!p.ok) return refused(r, 'search', p);
  r.ctx.io.stdout(
    r.options.json === true
      ? `${JSON.stringify(p.value.tools, null, 2)}\n`
      : `${table(toolRows(p.value.tools, (t) => String(t['match'])))}\n${whyUnavailable(p.value.tools)}`,
  );
  return EXIT_OK;
};

const exportCatalog = async (r: Run): Promise<number> => {
  const format = r.options.format ?? 'json';
  if (format !== 'json' && format !== 'gram') {
    usageError(r.ctx.io, `--format is json or gram, got ${JSON.stringify(format)}`);
    return EXIT_USAGE;
  }
  let bundleIDs: ReadonlyArray<string> | undefined;
  if (r.options.bundle !== undefined) {
    const b = await bundleId(r, r.options.bundle);
    if (!b.ok) return refused(r, r.options.bundle, b);
    bundleIDs = [b.value];
  }
  const bundles: JsonObject[] = [];
  let token: string | undefined;
  do {
    const p = await r.catalog.listBundles({
      includeDisabled: true,
      pageSize: 1000,
      ...(bundleIDs !== undefined ? { bundleIDs } : {}),
      ...(token !== undefined ? { pageToken: token } : {}),
    });
    if (!p.ok) return refused(r, 'export', p);
    bundles.push(...p.value.bundles.filter((b) => b['isBuiltIn'] !== true));
    token = p.value.nextPageToken;
  } while (token !== undefined);
  const tools: ToolRecord[] = [];
  token = undefined;
  do {
    const p = await r.catalog.listTools({
      includeDisabled: true,
      pageSize: 1000,
      ...(bundleIDs !== undefined ? { bundleIDs } : {}),
      ...(token !== undefined ? { pageToken: token } : {}),
    });
    if (!p.ok) return refused(r, 'export', p);
    for (const t of p.value.tools) {
      if (t['isBuiltIn'] === true) continue;
      const d = decodeStoredTool(
        Object.fromEntries(Object.entries(t).filter(([k]) => !['bundleSlug', 'available', 'unavailableReason', 'callCount', 'lastCalledAt'].includes(k))),
      );
      if (isRight(d)) tools.push(d.right);
    }
    token = p.value.nextPageToken;
  } while (token !== undefined);
  const { encodeTool } = await import('../../catalog/records/tool-json.js');
  const { encodeBundle, decodeStoredBundle } = await import('../../catalog/records/bundle-json.js');
  const text =
    format === 'json'
      ? `${JSON.stringify(
          {
            bundles: bundles.flatMap((b) => {
              const d = decodeStoredBundle(b);
              return isRight(d) ? [encodeBundle(d.right)] : [];
            }),
            tools: tools.map(encodeTool),
          },
          null,
          2,
        )}\n`
      : `${tools.map((t) => `// ${t.toolID} in bundle ${t.bundleID}${t.isEnabled ? '' : ' (disabled)'}\n${contentToGram(t)}`).join('\n\n')}\n`;
  if (r.options.out === undefined) r.ctx.io.stdout(text);
  else {
    const path = isAbsolute(r.options.out) ? r.options.out : resolve(r.ctx.io.cwd, r.options.out);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(`${path}.tmp`, text, 'utf8');
    await rename(`${path}.tmp`, path);
    r.ctx.io.stdout(`exported ${tools.length} tool${tools.length === 1 ? '' : 's'} to ${r.options.out}\n`);
  }
  return EXIT_OK;
};

// -------------------------------------------------------------------------------------------------
// writing
// -------------------------------------------------------------------------------------------------

const toggle = async (r: Run, tool: string | undefined, isEnabled: boolean): Promise<number> => {
  const verb = isEnabled ? 'enabled' : 'disabled';
  if (tool === undefined) {
    if (r.options.bundle === undefined) {
      usageError(r.ctx.io, `name a tool, or a bundle with --bundle`);
      return EXIT_USAGE;
    }
    const b = await bundleId(r, r.options.bundle);
    if (!b.ok) return refused(r, r.options.bundle, b);
    const w = await r.catalog.patchBundle(b.value, { isEnabled });
    if (!w.ok) return refused(r, r.options.bundle, w);
    r.ctx.io.stdout(`${verb} bundle ${w.value['slug'] as string}\n`);
    return EXIT_OK;
  }
  const ref = await toolRef(r, tool);
  if (!ref.ok) return refused(r, tool, ref);
  const w = await r.catalog.patchTool(ref.value, { isEnabled });
  if (!w.ok) return refused(r, tool, w);
  r.ctx.io.stdout(`${verb} ${w.value['slug'] as string}@${w.value['version'] as string}\n`);
  return EXIT_OK;
};

const remove = async (r: Run, tool: string | undefined): Promise<number> => {
  if (tool === undefined) {
    if (r.options.bundle === undefined) {
      usageError(r.ctx.io, 'name a tool, or a bundle with --bundle');
      return EXIT_USAGE;
    }
    const b = await bundleId(r, r.options.bundle);
    if (!b.ok) return refused(r, r.options.bundle, b);
    const w = await r.catalog.deleteBundle(b.value);
    if (!w.ok) return refused(r, r.options.bundle, w);
    r.ctx.io.stdout(`deleted bundle ${w.value['slug'] as string} (kept until it is empty and 2 days old)\n`);
    return EXIT_OK;
  }
  const ref = await toolRef(r, tool);
  if (!ref.ok) return refused(r, tool, ref);
  const w = await r.catalog.deleteTool(ref.value);
  if (!w.ok) return refused(r, tool, w);
  r.ctx.io.stdout(`deleted ${w.value['slug'] as string}@${w.value['version'] as string}\n`);
  return EXIT_OK;
};
