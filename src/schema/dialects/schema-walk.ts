/**
 * Small helpers to read and rebuild JSON Schema documents: where the subschemas are, which types
 * a schema allows, whether it accepts `null`, local `$ref` resolution, and a path notation that
 * reads like the arguments (`user.tags[]`).
 */
import { acceptsAnything } from '../schema-keywords.js';
import { isJsonObject } from '../../core/json.js';
import { refSegments, valueAt } from '../../core/json-pointer.js';
import type { JsonObject, JsonSchema, JsonValue } from '../../core/json-schema.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** Keywords whose value is one subschema. */
export const SINGLE_SUBSCHEMA = [
  'items',
  'additionalItems',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
] as const;

/** Keywords whose value is an array of subschemas. */
export const ARRAY_SUBSCHEMAS = ['prefixItems', 'anyOf', 'oneOf', 'allOf'] as const;

/** Keywords whose value maps names to subschemas. */
export const MAP_SUBSCHEMAS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'] as const;

export const JSON_TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'] as const;

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

/** A schema object (not a boolean schema). */
export const isObj = isJsonObject;

/** Path segment of a property (`name`), of array items (`[]`), of a tuple position (`[2]`), ... */
export const seg = {
  prop: (name: string): string => (/^[A-Za-z_$][\w$-]*$/.test(name) ? name : JSON.stringify(name)),
  items: '[]',
  index: (i: number): string => `[${i}]`,
  keyword: (k: string, i?: number): string => (i === undefined ? k : `${k}[${i}]`),
};

/** Joins path segments for a person: `user.tags[]`, `anyOf[1].name`, `(root)`. */
export const showPath = (path: ReadonlyArray<string>): string => {
  if (path.length === 0) return '(root)';
  let out = '';
  for (const s of path) out += out === '' || s.startsWith('[') ? s : `.${s}`;
  return out;
};

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

/** The `type` keyword as a list (undefined when absent). */
export const typesOf = (s: JsonObject): ReadonlyArray<string> | undefined => {
  const t = s['type'];
  if (typeof t === 'string') return [t];
  if (Array.isArray(t)) return t.filter((x): x is string => typeof x === 'string');
  return undefined;
};

/** True for `true`, `{}` and schemas with annotations only: any JSON value. */
export const isAnySchema = (s: JsonSchema): boolean => acceptsAnything(s);

/** The JSON type name of a value (`integer` for whole numbers). */
export const jsonTypeOf = (v: unknown): string => {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
};

/** Resolves a local reference (`#`, `#/$defs/x`, `#/definitions/x`, any JSON pointer into the root). */
export const resolveRef = (root: JsonSchema, ref: string): JsonSchema | undefined => {
  const keys = refSegments(ref);
  if (keys === undefined) return undefined;
  const target = valueAt(root, keys);
  return typeof target === 'boolean' || isObj(target) ? (target as JsonSchema) : undefined;
};

/**
 * Whether a schema accepts `null`, read from its keywords (no validator): a `null` type, an enum
 * or const with null, a union with a branch that does, or no constraint at all.
 */
export const acceptsNull = (s: JsonSchema, root: JsonSchema, depth = 0): boolean => {
  if (s === true) return true;
  if (s === false || depth > 16) return false;
  if (s['nullable'] === true) return true;
  const ref = s['$ref'];
  if (typeof ref === 'string') {
    const target = resolveRef(root, ref);
    if (target === undefined || !acceptsNull(target, root, depth + 1)) return false;
  }
  const t = typesOf(s);
  if (t !== undefined && !t.includes('null')) return false;
  const e = s['enum'];
  if (Array.isArray(e) && !e.includes(null)) return false;
  if ('const' in s && s['const'] !== null) return false;
  for (const k of ['anyOf', 'oneOf'] as const) {
    const branches = s[k];
    if (Array.isArray(branches) && !branches.some((b) => (isObj(b) || typeof b === 'boolean') && acceptsNull(b as JsonSchema, root, depth + 1))) return false;
  }
  const all = s['allOf'];
  if (Array.isArray(all) && !all.every((b) => (isObj(b) || typeof b === 'boolean') && acceptsNull(b as JsonSchema, root, depth + 1))) return false;
  if (s['not'] !== undefined) {
    const n = s['not'];
    if (n === true || (isObj(n) && acceptsNull(n, root, depth + 1) && isAnySchema(n))) return false;
  }
  return true;
};

/** A copy of `s` without the given keys. */
export const omit = (s: JsonObject, keys: ReadonlyArray<string>): JsonObject => {
  const out: Record<string, JsonValue> = {};
  for (const [k, v] of Object.entries(s)) if (!keys.includes(k)) out[k] = v;
  return out;
};

/** Compact JSON for a message, cut at `max` characters. */
export const brief = (v: unknown, max = 80): string => {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
};

/** A short description of what a schema accepts, for descriptions and messages: `string`, `array of integer`. */
export const describeSchema = (s: JsonSchema, depth = 0): string => {
  if (s === true || (isObj(s) && isAnySchema(s))) return 'any value';
  if (s === false) return 'nothing';
  if (depth > 2) return 'value';
  if ('const' in s) return brief(s['const'], 40);
  const e = s['enum'];
  if (Array.isArray(e)) return `one of ${e.map((x) => brief(x, 30)).join(', ')}`;
  const t = typesOf(s);
  if (t !== undefined) {
    return t
      .map((x) => {
        if (x === 'array' && (isObj(s['items']) || typeof s['items'] === 'boolean')) return `array of ${describeSchema(s['items'] as JsonSchema, depth + 1)}`;
        return x;
      })
      .join(' or ');
  }
  for (const k of ['anyOf', 'oneOf'] as const) {
    const b = s[k];
    if (Array.isArray(b)) return b.map((x) => describeSchema(x as JsonSchema, depth + 1)).join(' or ');
  }
  if (typeof s['$ref'] === 'string') return String(s['$ref']).split('/').pop() ?? 'value';
  if (isObj(s['properties'])) return 'object';
  return 'value';
};

/**
 * Calls `f` for every direct subschema of `s`, with the path segment that leads to it
 * (`name` for a property, `[]` for items, `[2]` for a tuple position, `anyOf[1]`, `$defs.x`).
 */
export const eachSubschema = (s: JsonObject, f: (sub: JsonSchema, segment: string, keyword: string) => void): void => {
  for (const [k, v] of Object.entries(s)) {
    if ((MAP_SUBSCHEMAS as ReadonlyArray<string>).includes(k) && isObj(v)) {
      for (const [name, sub] of Object.entries(v)) {
        if (isObj(sub) || typeof sub === 'boolean') f(sub as JsonSchema, k === 'properties' ? seg.prop(name) : `${k}.${name}`, k);
      }
    } else if (((ARRAY_SUBSCHEMAS as ReadonlyArray<string>).includes(k) || k === 'items') && Array.isArray(v)) {
      v.forEach((sub, i) => {
        if (isObj(sub) || typeof sub === 'boolean') f(sub as JsonSchema, k === 'prefixItems' || k === 'items' ? seg.index(i) : seg.keyword(k, i), k);
      });
    } else if ((SINGLE_SUBSCHEMA as ReadonlyArray<string>).includes(k) && (isObj(v) || typeof v === 'boolean')) {
      f(v as JsonSchema, k === 'items' ? seg.items : k, k);
    }
  }
};
