/**
 * The `tools/list` of a server: bound tools as MCP tool definitions. Each definition is exactly
 * what `gramkit schema --format mcp` prints for the tool (name, description, `inputSchema`, and
 * `outputSchema` when the result is an object), plus `annotations` (MCP's hints, from the tool's
 * safety level and approval) and, under `_meta`, gramkit's exact annotations (`gramkit/annotations`)
 * and the output schema of a result that is not an object (`gramkit/outputSchema`), which gramkit
 * clients read back (see import-tools.ts).
 *
 * A tool that cannot be exported is left out with a diagnostic; the others are still served. The
 * export is cached per tools array, so a source that returns the same array pays for it once.
 */
import type { Diagnostic } from '../core/diagnostic.js';
import type { JsonObject, JsonValue } from '../core/json-schema.js';
import type { BoundTool } from '../library/bind.js';
import { DialectCodes } from '../schema/dialects/dialect.js';
import { exportTools } from '../schema/dialects/export-tools.js';
import { ANNOTATIONS_META_KEY, annotationsMeta, mcpHints } from './annotations.js';
import { OUTPUT_SCHEMA_META_KEY } from './import-tools.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface ServedTools {
  /** The `tools` of a `tools/list` result, in the source's order. */
  readonly definitions: ReadonlyArray<JsonObject>;
  /** MCP name → bound tool (names the MCP rules changed are mapped back). */
  readonly byMcpName: ReadonlyMap<string, BoundTool>;
  /** MCP names of the tools that declare an object output schema (their results carry `structuredContent`). */
  readonly structured: ReadonlySet<string>;
  /** Tools left out (errors), and names changed for MCP (notes). */
  readonly diagnostics: ReadonlyArray<Diagnostic>;
}

// -------------------------------------------------------------------------------------------------
// export
// -------------------------------------------------------------------------------------------------

const cache = new WeakMap<ReadonlyArray<BoundTool>, ServedTools>();

/** The served form of `tools` (cached by the array's identity). */
export const servedTools = (tools: ReadonlyArray<BoundTool>): ServedTools => {
  const cached = cache.get(tools);
  if (cached !== undefined) return cached;
  const byGramkitName = new Map(tools.map((b) => [b.name, b] as const));
  const exported = exportTools(
    tools.map((b) => b.spec),
    'mcp',
  );
  const definitions: JsonObject[] = [];
  const byMcpName = new Map<string, BoundTool>();
  const structured = new Set<string>();
  const names = [...exported.names];
  exported.tools.forEach((t, i) => {
    const [mcpName, gramkitName] = names[i] as [string, string];
    const bound = byGramkitName.get(gramkitName);
    if (bound === undefined) return;
    const hints = mcpHints(bound.tool.annotations);
    const annotations = annotationsMeta(bound.tool.annotations);
    // a result that is not an object has no outputSchema in MCP: gramkit clients read it from _meta
    const os = bound.spec.outputSchema;
    const output = t['outputSchema'] === undefined && typeof os === 'object' && Object.keys(os).length > 0 ? os : undefined;
    const meta: Record<string, JsonValue> = {
      ...(annotations !== undefined ? { [ANNOTATIONS_META_KEY]: annotations } : {}),
      ...(output !== undefined ? { [OUTPUT_SCHEMA_META_KEY]: output } : {}),
    };
    definitions.push({ ...t, ...(hints !== undefined ? { annotations: hints as JsonObject } : {}), ...(Object.keys(meta).length > 0 ? { _meta: meta } : {}) });
    byMcpName.set(mcpName, bound);
    if (t['outputSchema'] !== undefined) structured.add(mcpName);
  });
  const served: ServedTools = Object.freeze({
    definitions: Object.freeze(definitions),
    byMcpName,
    structured,
    diagnostics: exported.diagnostics.filter((d) => d.severity !== 'info' || d.code === DialectCodes.NAME_CHANGED),
  });
  cache.set(tools, served);
  return served;
};
