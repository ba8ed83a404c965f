/**
 * A server's `tools/list` as specifications: the definitions go through the specification
 * importer (MCP format), after gramkit's own `_meta` keys are read: a gramkit server sends the
 * output schema of a tool whose result is not an object under `_meta["gramkit/outputSchema"]`
 * (MCP's `outputSchema` must describe an object), so the imported specification keeps its result
 * type; `_meta["gramkit/annotations"]` is for the remote tool (policies), not for the
 * specification's metadata. Other servers' definitions are imported as they are.
 */
import { isJsonObject } from '../core/json.js';
import type { JsonObject, JsonValue } from '../core/json-schema.js';
import { importDefinitions, type ImportReport } from '../specification/import.js';
import { ANNOTATIONS_META_KEY } from './annotations.js';

/** The `_meta` key of a served tool's output schema when it is not an object schema. */
export const OUTPUT_SCHEMA_META_KEY = 'gramkit/outputSchema';

const GRAMKIT_KEYS = [ANNOTATIONS_META_KEY, OUTPUT_SCHEMA_META_KEY];

/** A definition as the importer should see it (gramkit's `_meta` keys read and removed). */
export const importableDefinition = (d: JsonObject): JsonObject => {
  const meta = d['_meta'];
  if (!isJsonObject(meta) || !GRAMKIT_KEYS.some((k) => Object.prototype.hasOwnProperty.call(meta, k))) return d;
  const { _meta: _dropped, ...rest } = d;
  const others: Record<string, JsonValue> = {};
  for (const [k, v] of Object.entries(meta)) if (!GRAMKIT_KEYS.includes(k)) others[k] = v;
  const output = meta[OUTPUT_SCHEMA_META_KEY];
  return {
    ...rest,
    ...(rest['outputSchema'] === undefined && output !== undefined ? { outputSchema: output } : {}),
    ...(Object.keys(others).length > 0 ? { _meta: others } : {}),
  };
};

/** Imports the tool definitions of a `tools/list`; `file` names the server in diagnostics. */
export const importMcpTools = (definitions: ReadonlyArray<JsonObject>, file?: string): ImportReport =>
  importDefinitions([{ value: { tools: definitions.map(importableDefinition) }, at: '' }], { from: 'mcp', ...(file !== undefined ? { file } : {}) });
