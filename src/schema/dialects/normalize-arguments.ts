/**
 * The way back: arguments a provider sent under a lowered schema, made to fit the canonical one
 * again before validation.
 *
 * - `openai-strict` and `gemini`: a `null` for an optional property whose canonical schema does
 *   not accept null means "not given" (strict mode makes every property required and nullable;
 *   Gemini sends nulls for optional fields), so it is removed — validation then applies the
 *   default, if any. A property that accepts null keeps its null.
 * - `gemini`: enums and consts with numbers were sent as strings; `"3"` becomes `3` again when the
 *   canonical schema allows the number 3 and not the string.
 * - The other dialects send what the canonical schema describes: arguments come back unchanged.
 *
 * Pure and total: any value goes in (not only objects), nothing is mutated, and a value the
 * schema does not describe is passed through for validation to report.
 */
import type { JsonObject, JsonSchema } from '../../core/json-schema.js';
import type { Dialect } from './dialect.js';
import { acceptsNull, isObj, jsonTypeOf, resolveRef, typesOf } from './schema-walk.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

interface Mode {
  readonly dropNulls: boolean;
  readonly numbersFromStrings: boolean;
  readonly root: JsonSchema;
}

const MAX_DEPTH = 64;

// -------------------------------------------------------------------------------------------------
// normalize
// -------------------------------------------------------------------------------------------------

/** Undoes a dialect's lowering on arguments the provider sent (see the module comment). */
export const normalizeArguments = (dialect: Dialect, schema: JsonObject, args: unknown): unknown => {
  if (dialect !== 'openai-strict' && dialect !== 'gemini') return args;
  const mode: Mode = { dropNulls: true, numbersFromStrings: dialect === 'gemini', root: schema };
  return norm(schema, args, mode, 0);
};

/** The object-schema view of a node: its properties and required names, `allOf` branches included. */
const objectView = (s: JsonObject, mode: Mode, depth: number): { props: Map<string, JsonSchema>; required: Set<string>; extra: JsonSchema | undefined } => {
  const props = new Map<string, JsonSchema>();
  const required = new Set<string>();
  let extra: JsonSchema | undefined;
  const add = (node: JsonSchema, d: number): void => {
    if (!isObj(node) || d > 8) return;
    const ref = node['$ref'];
    if (typeof ref === 'string') {
      const t = resolveRef(mode.root, ref);
      if (t !== undefined) add(t, d + 1);
    }
    const p = node['properties'];
    if (isObj(p)) for (const [k, v] of Object.entries(p)) if (!props.has(k) && (isObj(v) || typeof v === 'boolean')) props.set(k, v as JsonSchema);
    const r = node['required'];
    if (Array.isArray(r)) for (const x of r) if (typeof x === 'string') required.add(x);
    const ap = node['additionalProperties'];
    if (extra === undefined && (isObj(ap) || typeof ap === 'boolean')) extra = ap as JsonSchema;
    const all = node['allOf'];
    if (Array.isArray(all)) for (const b of all) add(b as JsonSchema, d + 1);
  };
  add(s, depth);
  return { props, required, extra };
};

/** Whether a union branch has the shape of the value (type, and for objects, its keys). */
const branchFits = (b: JsonSchema, v: unknown, mode: Mode): boolean => {
  if (!isObj(b)) return b === true;
  const target = typeof b['$ref'] === 'string' ? resolveRef(mode.root, b['$ref'] as string) : b;
  if (target === undefined || typeof target === 'boolean') return target === true;
  const t = typesOf(target);
  const vt = jsonTypeOf(v);
  if (t !== undefined && !t.includes(vt) && !(vt === 'integer' && t.includes('number'))) return false;
  if (vt === 'object' && isObj(v)) {
    const p = target['properties'];
    if (isObj(p) && target['additionalProperties'] === false) return Object.keys(v).every((k) => k in p);
  }
  return true;
};

const norm = (s: JsonSchema, v: unknown, mode: Mode, depth: number): unknown => {
  if (!isObj(s) || depth > MAX_DEPTH) return v;
  const ref = s['$ref'];
  if (typeof ref === 'string') {
    const target = resolveRef(mode.root, ref);
    if (target !== undefined) v = norm(target, v, mode, depth + 1);
  }
  if (mode.numbersFromStrings && typeof v === 'string') {
    const allowed = Array.isArray(s['enum']) ? s['enum'] : 'const' in s ? [s['const']] : undefined;
    if (allowed !== undefined && !allowed.includes(v)) {
      const n = allowed.find((x) => typeof x === 'number' && String(x) === v);
      if (n !== undefined) return n;
    }
  }
  for (const k of ['anyOf', 'oneOf'] as const) {
    const branches = s[k];
    if (Array.isArray(branches) && v !== null && typeof v === 'object') {
      const b = branches.find((x) => branchFits(x as JsonSchema, v, mode));
      if (b !== undefined) v = norm(b as JsonSchema, v, mode, depth + 1);
    } else if (Array.isArray(branches) && typeof v === 'string' && mode.numbersFromStrings) {
      for (const b of branches) {
        const n = norm(b as JsonSchema, v, mode, depth + 1);
        if (n !== v) return n;
      }
    }
  }
  if (Array.isArray(v)) {
    const prefix = Array.isArray(s['prefixItems']) ? s['prefixItems'] : Array.isArray(s['items']) ? s['items'] : [];
    const items = isObj(s['items'])
      ? (s['items'] as JsonSchema)
      : Array.isArray(s['items']) && isObj(s['additionalItems'])
        ? (s['additionalItems'] as JsonSchema)
        : undefined;
    if (prefix.length === 0 && items === undefined) return v;
    let out: unknown[] | undefined;
    v.forEach((x, i) => {
      const sub = (i < prefix.length ? prefix[i] : items) as JsonSchema | undefined;
      if (sub === undefined) return;
      const n = norm(sub, x, mode, depth + 1);
      if (n !== x) {
        out ??= [...v];
        out[i] = n;
      }
    });
    return out ?? v;
  }
  if (isObj(v)) {
    const { props, required, extra } = objectView(s, mode, depth);
    if (props.size === 0 && extra === undefined) return v;
    let out: Record<string, unknown> | undefined;
    for (const [k, x] of Object.entries(v)) {
      const sub = props.get(k);
      if (x === null && mode.dropNulls && sub !== undefined && !required.has(k) && !acceptsNull(sub, mode.root)) {
        out ??= { ...v };
        delete out[k];
        continue;
      }
      const target = sub ?? (isObj(extra) ? extra : undefined);
      if (target === undefined) continue;
      const n = norm(target, x, mode, depth + 1);
      if (n !== x) {
        out ??= { ...v };
        out[k] = n;
      }
    }
    return out ?? v;
  }
  return v;
};
