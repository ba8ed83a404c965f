/**
 * The map form of a schema, as the registry's Tool JSON may write `input_schema` and
 * `output_schema`: `{"url": "string", "selectors?": "string[]"}` is an object with a required
 * string `url` and an optional array of strings `selectors`.
 *
 * Type names: `string`, `int`/`integer`, `float`/`number`/`double`, `bool`/`boolean`, `object`,
 * `array`, `any`, and `T[]` for arrays of `T`. A key ending in `?` is optional.
 *
 * An object is read as JSON Schema (not a map) when it is empty (`{}`: any value), has a value that
 * is not a string, has `$schema` or `$ref`, or has a `type` whose value is a JSON Schema type name
 * (`{"type": "string", "format": "email"}`). So a map with a field named `type` must be written as
 * JSON Schema; a field named `pattern` or `format` is fine.
 */
import { type Either, left, right, isLeft, isRight } from '../../core/either.js';
import { type Diagnostic, error } from '../../core/diagnostic.js';
import { isJsonObject, setOwn } from '../../core/json.js';
import type { JsonObject, JsonSchema, JsonValue } from '../../core/json-schema.js';
import { jsonEqual } from '../../core/json-equal.js';
import { CatalogCodes } from '../codes.js';

const NAMES: Readonly<Record<string, JsonObject>> = {
  string: { type: 'string' },
  str: { type: 'string' },
  int: { type: 'integer' },
  integer: { type: 'integer' },
  long: { type: 'integer' },
  float: { type: 'number' },
  double: { type: 'number' },
  number: { type: 'number' },
  bool: { type: 'boolean' },
  boolean: { type: 'boolean' },
  object: { type: 'object' },
  array: { type: 'array' },
  any: {},
};

const CANONICAL: Readonly<Record<string, string>> = { string: 'string', integer: 'int', number: 'float', boolean: 'bool', object: 'object', array: 'array' };

const JSON_TYPES = new Set(['string', 'integer', 'number', 'boolean', 'object', 'array', 'null']);

/** Whether a schema value is in the map form rather than JSON Schema. */
export const isMapForm = (v: unknown): v is Readonly<Record<string, string>> => {
  if (!isJsonObject(v)) return false;
  const entries = Object.entries(v);
  if (entries.length === 0 || entries.some(([, x]) => typeof x !== 'string')) return false;
  if (v['$schema'] !== undefined || v['$ref'] !== undefined) return false;
  return !(typeof v['type'] === 'string' && JSON_TYPES.has(v['type']));
};

const typeSchema = (name: string, at: string): Either<Diagnostic, JsonObject> => {
  const t = name.trim();
  if (t.endsWith('[]')) {
    const inner = typeSchema(t.slice(0, -2), at);
    return isLeft(inner) ? inner : right({ type: 'array', items: inner.right });
  }
  const s = NAMES[t.toLowerCase()];
  return s !== undefined
    ? right(s)
    : left(
        error(CatalogCodes.INVALID_SCHEMA, `${at}: unknown type ${JSON.stringify(name)}`, {
          hint: `one of ${Object.keys(NAMES).join(', ')}, or T[] for arrays`,
        }),
      );
};

/** The JSON Schema of a map form (an object schema), or every unknown type name. */
export const mapToSchema = (map: Readonly<Record<string, string>>, at = 'input_schema'): Either<ReadonlyArray<Diagnostic>, JsonObject> => {
  const properties: Record<string, JsonValue> = {};
  const required: string[] = [];
  const problems: Diagnostic[] = [];
  for (const [rawKey, typeName] of Object.entries(map)) {
    const optional = rawKey.endsWith('?');
    const key = optional ? rawKey.slice(0, -1) : rawKey;
    if (key === '') {
      problems.push(error(CatalogCodes.INVALID_SCHEMA, `${at}: an empty field name`));
      continue;
    }
    const s = typeSchema(typeName, `${at}.${rawKey}`);
    if (isLeft(s)) problems.push(s.left);
    else {
      setOwn(properties, key, s.right);
      if (!optional) required.push(key);
    }
  }
  if (problems.length > 0) return left(problems);
  return right({ type: 'object', properties, ...(required.length > 0 ? { required } : {}) });
};

const typeName = (s: JsonValue | undefined): string | undefined => {
  if (!isJsonObject(s)) return undefined;
  const keys = Object.keys(s);
  if (keys.length === 0) return 'any';
  if (typeof s['type'] !== 'string') return undefined;
  if (s['type'] === 'array' && keys.length === 2 && s['items'] !== undefined) {
    const inner = typeName(s['items']);
    return inner === undefined ? undefined : `${inner}[]`;
  }
  return keys.length === 1 ? CANONICAL[s['type']] : undefined;
};

/**
 * The map form of a schema when it says exactly the same (plain typed fields, nothing more), so
 * `mapToSchema(schemaToMap(s))` equals `s`; `undefined` otherwise.
 */
export const schemaToMap = (schema: JsonSchema): Readonly<Record<string, string>> | undefined => {
  if (!isJsonObject(schema) || schema['type'] !== 'object' || !isJsonObject(schema['properties'])) return undefined;
  const required = Array.isArray(schema['required']) ? (schema['required'] as ReadonlyArray<unknown>) : [];
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(schema['properties'])) {
    const t = typeName(v);
    if (t === undefined || k.endsWith('?') || k === '') return undefined;
    setOwn(out, required.includes(k) ? k : `${k}?`, t);
  }
  if (!isMapForm(out)) return undefined;
  const back = mapToSchema(out);
  return isRight(back) && jsonEqual(back.right, schema) ? out : undefined;
};
