/**
 * Checkers of provider rules, written from the providers' documented constraints (see
 * docs/providers.md): given a tool definition in a dialect, every rule it breaks, as
 * `DIALECT_RULE_VIOLATION` errors. They are independent of the exporters, so tests can hold the
 * exporters to them, and a fake server can answer 400 like the real API would.
 */
import { error, type Diagnostic } from '../../core/diagnostic.js';
import type { JsonObject, JsonSchema } from '../../core/json-schema.js';
import { DialectCodes, type Dialect } from './dialect.js';
import { GEMINI_SCHEMA_KEYS, GEMINI_TYPES } from './lower-gemini.js';
import { OPENAI_STRICT_FORMATS, OPENAI_STRICT_LIMITS } from './lower-openai.js';
import { eachSubschema, isObj, showPath, typesOf } from './schema-walk.js';
import { isValidToolName, TOOL_NAME_RULES } from './tool-names.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

type Report = (path: ReadonlyArray<string>, message: string) => void;

/** Keywords strict mode rejects (OpenAI "Supported schemas", and the SDK's strict normaliser). */
const OPENAI_STRICT_FORBIDDEN = [
  'allOf',
  'not',
  'if',
  'then',
  'else',
  'dependentRequired',
  'dependentSchemas',
  'oneOf',
  'patternProperties',
  'propertyNames',
  'prefixItems',
  'unevaluatedProperties',
  'unevaluatedItems',
  'default',
  'minLength',
  'maxLength',
  'uniqueItems',
  'contains',
  'minContains',
  'maxContains',
  'minProperties',
  'maxProperties',
] as const;

// -------------------------------------------------------------------------------------------------
// checkers
// -------------------------------------------------------------------------------------------------

/** Every schema node of a document, with its path. */
const walk = (s: JsonSchema, path: ReadonlyArray<string>, f: (node: JsonObject, path: ReadonlyArray<string>) => void, depth = 0): void => {
  if (!isObj(s) || depth > 64) return;
  f(s, path);
  eachSubschema(s, (sub, segment) => walk(sub, [...path, segment], f, depth + 1));
};

const checkName = (dialect: Dialect, name: unknown, report: Report): void => {
  const rule = TOOL_NAME_RULES[dialect];
  if (typeof name !== 'string') {
    report([], 'the tool has no "name" string');
    return;
  }
  if (!isValidToolName(name, dialect)) {
    report(
      [],
      `tool name "${name}" breaks the ${dialect} rule (${rule === undefined ? 'non-empty' : `characters ${rule.char.source}${rule.first !== undefined ? `, first ${rule.first.source}` : ''}, 1 to ${rule.maxLength}`})`,
    );
  }
};

const checkRootObject = (schema: unknown, what: string, report: Report): schema is JsonObject => {
  if (!isObj(schema)) {
    report([], `${what} must be a JSON object schema`);
    return false;
  }
  if (schema['type'] !== 'object') report([], `${what} must have "type": "object" at the root`);
  return true;
};

const checkOpenAIParameters = (parameters: JsonObject, report: Report): void => {
  walk(parameters, [], (node, path) => {
    const t = typesOf(node);
    if (t?.includes('array') && node['items'] === undefined) report(path, 'array schema missing items');
    const ap = node['additionalProperties'];
    if (isObj(ap) && Object.keys(ap).length === 0) report(path, 'additionalProperties must not be an empty schema');
  });
};

const checkOpenAIStrict = (parameters: JsonObject, report: Report): void => {
  if (Array.isArray(parameters['anyOf'])) report([], 'the root must not be anyOf');
  let properties = 0;
  let maxDepth = 0;
  const depthOf = (path: ReadonlyArray<string>): number => path.filter((p) => !p.startsWith('[') && !p.includes('[') && !p.startsWith('$defs')).length;
  walk(parameters, [], (node, path) => {
    for (const k of OPENAI_STRICT_FORBIDDEN) if (k in node) report(path, `"${k}" is not permitted in strict mode`);
    const t = typesOf(node);
    if (t === undefined && !Array.isArray(node['anyOf']) && typeof node['$ref'] !== 'string') {
      report(path, 'schema must have a "type" key (or anyOf / $ref)');
    }
    if (t?.includes('object')) {
      if (node['additionalProperties'] !== false) report(path, "'additionalProperties' is required to be supplied and to be false");
      const props = isObj(node['properties']) ? Object.keys(node['properties']) : [];
      const req = Array.isArray(node['required']) ? node['required'] : [];
      const missing = props.filter((p) => !req.includes(p));
      if (missing.length > 0)
        report(path, `'required' is required to be supplied and to be an array including every key in properties; missing ${missing.join(', ')}`);
      properties += props.length;
      maxDepth = Math.max(maxDepth, depthOf(path) + 1);
    }
    if (t?.includes('array') && node['items'] === undefined) report(path, 'array schema missing items');
    const f = node['format'];
    if (f !== undefined && !(typeof f === 'string' && OPENAI_STRICT_FORMATS.has(f))) report(path, `format "${String(f)}" is not supported in strict mode`);
    const e = node['enum'];
    if (Array.isArray(e) && e.length > OPENAI_STRICT_LIMITS.enumValues) report(path, `an enum has at most ${OPENAI_STRICT_LIMITS.enumValues} values`);
  });
  if (properties > OPENAI_STRICT_LIMITS.properties) report([], `at most ${OPENAI_STRICT_LIMITS.properties} properties in all`);
  if (maxDepth > OPENAI_STRICT_LIMITS.nesting) report([], `at most ${OPENAI_STRICT_LIMITS.nesting} levels of nesting`);
};

const checkGemini = (parameters: JsonObject, report: Report): void => {
  walk(parameters, [], (node, path) => {
    for (const k of Object.keys(node)) if (!GEMINI_SCHEMA_KEYS.has(k)) report(path, `Invalid JSON payload received. Unknown name "${k}"`);
    const t = node['type'];
    if (t !== undefined && !(typeof t === 'string' && GEMINI_TYPES.has(t.toLowerCase())))
      report(path, `type must be one of STRING, NUMBER, INTEGER, BOOLEAN, ARRAY, OBJECT, NULL (got ${JSON.stringify(t)})`);
    const e = node['enum'];
    if (e !== undefined && !(Array.isArray(e) && e.every((x) => typeof x === 'string'))) report(path, 'enum values must be strings');
    if (typeof t === 'string' && t.toLowerCase() === 'array' && node['items'] === undefined) report(path, 'an ARRAY schema needs "items"');
    const props = isObj(node['properties']) ? Object.keys(node['properties']) : [];
    const req = node['required'];
    if (Array.isArray(req)) for (const r of req) if (!props.includes(String(r))) report(path, `required property "${String(r)}" is not defined in properties`);
    const order = node['propertyOrdering'];
    if (Array.isArray(order))
      for (const r of order) if (!props.includes(String(r))) report(path, `propertyOrdering names "${String(r)}", which is not a property`);
  });
};

/**
 * The rules `tool` (a definition in `dialect`, as `exportTool` makes it) breaks, as errors; empty
 * when the provider would accept it.
 */
export const checkExportedTool = (dialect: Dialect, tool: JsonObject): ReadonlyArray<Diagnostic> => {
  const out: Diagnostic[] = [];
  const label =
    typeof tool['name'] === 'string' ? tool['name'] : isObj(tool['function']) && typeof tool['function']['name'] === 'string' ? tool['function']['name'] : '?';
  const report: Report = (path, message) => out.push(error(DialectCodes.RULE_VIOLATION, `tool "${label}" (${dialect}), at ${showPath(path)}: ${message}`));
  switch (dialect) {
    case 'jsonschema':
      checkRootObject(tool, 'the schema', report);
      break;
    case 'openai':
    case 'openai-strict': {
      if (tool['type'] !== 'function') report([], 'tools[].type must be "function"');
      const fn = tool['function'];
      if (!isObj(fn)) {
        report([], 'tools[].function must be an object');
        break;
      }
      checkName(dialect, fn['name'], report);
      const params = fn['parameters'];
      if (params === undefined) break;
      if (!checkRootObject(params, 'function.parameters', report)) break;
      checkOpenAIParameters(params, report);
      if (fn['strict'] === true) checkOpenAIStrict(params, report);
      else if (dialect === 'openai-strict' && fn['strict'] !== false) report([], 'openai-strict definitions say "strict" explicitly');
      break;
    }
    case 'anthropic':
      checkName(dialect, tool['name'], report);
      checkRootObject(tool['input_schema'], 'input_schema', report);
      break;
    case 'gemini': {
      checkName(dialect, tool['name'], report);
      const params = tool['parameters'];
      if (params === undefined) break;
      if (!isObj(params)) report([], 'parameters must be a schema object');
      else {
        if (typeof params['type'] !== 'string' || params['type'].toLowerCase() !== 'object') report([], 'parameters must have type OBJECT');
        checkGemini(params, report);
      }
      if ('parametersJsonSchema' in tool) report([], 'parameters and parametersJsonSchema are mutually exclusive');
      break;
    }
    case 'mcp':
      checkName(dialect, tool['name'], report);
      checkRootObject(tool['inputSchema'], 'inputSchema', report);
      if (tool['outputSchema'] !== undefined) checkRootObject(tool['outputSchema'], 'outputSchema', report);
      break;
  }
  return out;
};
