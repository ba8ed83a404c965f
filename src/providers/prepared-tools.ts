/**
 * A request's tools in a provider's dialect: the wire definitions, the name map both ways and the
 * canonical schemas (for `normalizeArguments` on the way back). Computed once per tools array
 * and dialect (the loop sends the same array at every step), so a step costs no re-export.
 */
import type { ModelError, ToolDefinition } from '../agent/model.js';
import type { JsonObject } from '../core/json-schema.js';
import type { Dialect } from '../schema/dialects/dialect.js';
import { exportTools } from '../schema/dialects/export-tools.js';
import { normalizeArguments } from '../schema/dialects/normalize-arguments.js';
import { providerToolName, toolNameMap, type ToolNameMap } from '../schema/dialects/tool-names.js';
import { configurationError } from './model-error.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface PreparedTools {
  readonly dialect: Dialect;
  readonly wire: ReadonlyArray<JsonObject>;
  readonly names: ToolNameMap;
  /** gramkit name → canonical argument schema. */
  readonly schemas: ReadonlyMap<string, JsonObject>;
  /** Set when a tool cannot be sent (its schema is not an object schema, or a name repeats). */
  readonly error?: ModelError;
}

const cache = new WeakMap<ReadonlyArray<ToolDefinition>, Map<Dialect, PreparedTools>>();

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

/** The tools of a request in `dialect` (cached by array identity). */
export const prepareTools = (tools: ReadonlyArray<ToolDefinition>, dialect: Dialect): PreparedTools => {
  let byDialect = cache.get(tools);
  const hit = byDialect?.get(dialect);
  if (hit !== undefined) return hit;
  const exported = exportTools(
    tools.map((t) => ({ name: t.name, description: t.description, schema: t.inputSchema })),
    dialect,
  );
  const errors = exported.diagnostics.filter((d) => d.severity === 'error');
  const names = toolNameMap(
    tools.map((t) => t.name),
    dialect,
  );
  const prepared: PreparedTools = {
    dialect,
    wire: exported.tools,
    names,
    schemas: new Map(tools.map((t) => [t.name, t.inputSchema])),
    ...(errors.length > 0 ? { error: configurationError(`cannot send the tools: ${errors.map((d) => d.message).join('; ')}`, { diagnostics: errors }) } : {}),
  };
  if (byDialect === undefined) {
    byDialect = new Map();
    cache.set(tools, byDialect);
  }
  byDialect.set(dialect, prepared);
  return prepared;
};

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

/** The name the provider knows a gramkit tool by (tools outside the request are sanitized alone). */
export const wireName = (p: PreparedTools, name: string): string => providerToolName(p.names, name, p.dialect);

/** The gramkit name of a tool name the provider sent. */
export const gramkitName = (p: PreparedTools, name: string): string => p.names.toGramkit.get(name) ?? name;

/**
 * Arguments text as the loop should see it: for lowered dialects (strict, Gemini), parsed,
 * normalized and written again when normalization changed something; otherwise as sent.
 */
export const normalizeCallArguments = (p: PreparedTools, name: string, text: string): string => {
  if (p.dialect !== 'openai-strict' && p.dialect !== 'gemini') return text;
  const schema = p.schemas.get(name);
  if (schema === undefined) return text;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return text;
  }
  const out = normalizeArguments(p.dialect, schema, value);
  return out === value ? text : JSON.stringify(out);
};
