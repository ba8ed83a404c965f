/**
 * Exporters: tools with canonical schemas → tool definitions in a provider's dialect, with the
 * provider-name → gramkit-name map and a diagnostic for everything that was lowered, moved or
 * dropped. Pure: the same tools give the same JSON.
 *
 * | dialect         | one tool                                                              |
 * | --------------- | --------------------------------------------------------------------- |
 * | `jsonschema`    | the canonical schema, as it is                                        |
 * | `openai`        | `{type: "function", function: {name, description, parameters}}`     |
 * | `openai-strict` | the same with `strict: true` (or `strict: false` and a warning)       |
 * | `anthropic`     | `{name, description, input_schema}`                                   |
 * | `gemini`        | `{name, description, parameters?}` (a `functionDeclarations` entry)   |
 * | `mcp`           | `{name, description, inputSchema, outputSchema?}`                     |
 */
import { error, type Diagnostic } from '../../core/diagnostic.js';
import type { JsonObject, JsonValue } from '../../core/json-schema.js';
import {
  DialectCodes,
  newNotes,
  noteError,
  noteInfo,
  noteWarning,
  type Dialect,
  type ExportableTool,
  type ExportedTool,
  type ExportedTools,
} from './dialect.js';
import { lowerGemini } from './lower-gemini.js';
import { lowerOpenAI, lowerOpenAIStrict } from './lower-openai.js';
import { isAnySchema, isObj, typesOf } from './schema-walk.js';
import { sanitizeToolName, toolNameMap } from './tool-names.js';

// -------------------------------------------------------------------------------------------------
// one tool
// -------------------------------------------------------------------------------------------------

const withDescription = (o: Record<string, JsonValue>, description: string): Record<string, JsonValue> => {
  if (description.length > 0) o['description'] = description;
  return o;
};

/**
 * One tool in `dialect`. `providerName` is the name to give it (by default the tool's name
 * sanitized to the provider's rules; `exportTools` passes collision-free names).
 */
export const exportTool = (tool: ExportableTool, dialect: Dialect, providerName: string = sanitizeToolName(tool.name, dialect)): ExportedTool => {
  const notes = newNotes(tool.name, dialect);
  const name = providerName;
  if (name !== tool.name) {
    noteInfo(
      notes,
      DialectCodes.NAME_CHANGED,
      [],
      `name sent as "${name}" (the provider does not accept "${tool.name}"); calls to "${name}" are reported as "${tool.name}"`,
    );
  }
  const schema = tool.schema;
  const t = isObj(schema) ? typesOf(schema) : undefined;
  if (!isObj(schema) || (t !== undefined && !(t.length === 1 && t[0] === 'object'))) {
    noteError(
      notes,
      DialectCodes.INVALID_SCHEMA,
      [],
      `the argument schema must be an object schema ("type": "object" at the root), got ${JSON.stringify(t ?? schema)}`,
    );
    return { tool: {}, name, gramkitName: tool.name, diagnostics: notes.out };
  }
  let params: JsonObject = schema;
  if (t === undefined && dialect !== 'jsonschema') {
    params = { type: 'object', ...schema };
    noteInfo(notes, DialectCodes.LOWERED, [], '"type": "object" added at the root');
  }
  let out: JsonObject;
  switch (dialect) {
    case 'jsonschema':
      out = schema;
      break;
    case 'openai':
      out = { type: 'function', function: { ...withDescription({ name }, tool.description), parameters: lowerOpenAI(params, notes) } };
      break;
    case 'openai-strict': {
      const strictNotes = newNotes(tool.name, dialect);
      const lowered = lowerOpenAIStrict(params, strictNotes);
      if (lowered.blockers.length === 0) {
        notes.out.push(...strictNotes.out);
        out = { type: 'function', function: { ...withDescription({ name }, tool.description), parameters: lowered.schema, strict: true } };
      } else {
        noteWarning(
          notes,
          DialectCodes.NOT_STRICT,
          [],
          `cannot use strict mode, sent with "strict": false: ${lowered.blockers.join('; ')}`,
          'gramkit validates the arguments locally either way; give the value a concrete type (or declare its fields) to make the tool strict',
        );
        out = { type: 'function', function: { ...withDescription({ name }, tool.description), parameters: lowerOpenAI(params, notes), strict: false } };
      }
      break;
    }
    case 'anthropic':
      out = { ...withDescription({ name }, tool.description), input_schema: params };
      break;
    case 'gemini': {
      const parameters = lowerGemini(params, notes);
      out = parameters === undefined ? withDescription({ name }, tool.description) : { ...withDescription({ name }, tool.description), parameters };
      break;
    }
    case 'mcp': {
      const o: Record<string, JsonValue> = { ...withDescription({ name }, tool.description), inputSchema: params };
      const os = tool.outputSchema;
      if (isObj(os) && typesOf(os)?.length === 1 && typesOf(os)?.[0] === 'object') o['outputSchema'] = os;
      else if (os !== undefined) {
        noteInfo(
          notes,
          DialectCodes.DROPPED,
          [],
          `outputSchema ${os === true || (isObj(os) && isAnySchema(os)) ? '(any value)' : `of type ${JSON.stringify(isObj(os) ? (os['type'] ?? 'union') : os)}`} not sent: MCP output schemas describe an object (structuredContent); the result goes in the text content`,
        );
      }
      out = o;
      break;
    }
    default: {
      // a dialect name that bypassed the type (from JavaScript or JSON)
      const unknown: string = dialect;
      noteError(notes, DialectCodes.UNKNOWN, [], `unknown schema dialect "${unknown}"`, 'use parseDialect on names that come from users');
      return { tool: {}, name, gramkitName: tool.name, diagnostics: notes.out };
    }
  }
  return { tool: out, name, gramkitName: tool.name, diagnostics: notes.out };
};

// -------------------------------------------------------------------------------------------------
// several tools
// -------------------------------------------------------------------------------------------------

/**
 * Every tool in `dialect`, with collision-free provider names and the reverse map. A tool whose
 * schema cannot be exported, or whose name repeats an earlier tool's, is left out with an error.
 */
export const exportTools = (tools: ReadonlyArray<ExportableTool>, dialect: Dialect): ExportedTools => {
  const seen = new Set<string>();
  const unique: ExportableTool[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const t of tools) {
    if (seen.has(t.name)) {
      diagnostics.push(
        error(DialectCodes.INVALID_SCHEMA, `tool "${t.name}" (${dialect}): a tool of that name was already exported; this one is left out`, {
          hint: 'give each tool a distinct name',
        }),
      );
      continue;
    }
    seen.add(t.name);
    unique.push(t);
  }
  const map = toolNameMap(
    unique.map((t) => t.name),
    dialect,
  );
  const out: JsonObject[] = [];
  const names = new Map<string, string>();
  for (const t of unique) {
    const e = exportTool(t, dialect, map.toProvider.get(t.name));
    diagnostics.push(...e.diagnostics);
    if (e.diagnostics.some((d) => d.severity === 'error')) continue;
    out.push(e.tool);
    names.set(e.name, t.name);
  }
  return { tools: out, names, diagnostics };
};
