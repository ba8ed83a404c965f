/**
 * Small utilities over JSON values, shared by every layer: what a record is, whether a value is
 * JSON data, own-property writes that also work for `__proto__`, deep freezing, and numbers
 * written without exponent.
 */
import type { JsonObject, JsonValue } from './json-schema.js';

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

/** Whether a value is an object that is neither `null` nor an array (a JSON object, a record). */
export const isRecord = (v: unknown): v is Readonly<Record<string, unknown>> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `isRecord`, typed as a JSON object (for values already known to be JSON). */
export const isJsonObject = isRecord as (v: unknown) => v is JsonObject;

/** Sets an own property, also for the key `__proto__` (which plain assignment would not create). */
export const setOwn = (o: Record<string, unknown>, key: string, value: unknown): void => {
  if (key === '__proto__') Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
  else o[key] = value;
};

/** Whether a value is a JSON value (finite numbers, plain objects and arrays, no cycles checked beyond depth 1000). */
export const isJsonValue = (v: unknown, depth = 0): v is JsonValue => {
  if (depth > 1000) return false;
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v);
  if (Array.isArray(v)) return v.every((x) => isJsonValue(x, depth + 1));
  if (typeof v === 'object') {
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) return false;
    return Object.values(v as object).every((x) => isJsonValue(x, depth + 1));
  }
  return false;
};

/** Freezes a value and everything inside it (specifications are immutable). */
export const deepFreeze = <A>(a: A): A => {
  if (typeof a === 'object' && a !== null && !Object.isFrozen(a)) {
    Object.freeze(a);
    for (const v of Object.values(a as object)) deepFreeze(v);
  }
  return a;
};

/**
 * A number written without exponent (gram has none): `1e-7` → `0.0000001`, `1e21` →
 * `1000000000000000000000`. Exact: the digits are those of JavaScript's shortest round-trip form.
 */
export const plainNumber = (n: number): string => {
  if (Object.is(n, -0)) return '0';
  const s = String(n);
  const m = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
  if (m === null) return s;
  const sign = m[1] as string;
  const digits = (m[2] as string) + (m[3] ?? '');
  const exp = Number(m[4]) - (m[3] ?? '').length;
  if (exp >= 0) return sign + digits + '0'.repeat(exp);
  const point = digits.length + exp;
  if (point > 0) return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
  return `${sign}0.${'0'.repeat(-point)}${digits}`;
};

/**
 * The deepest nesting of arrays and objects a tool call's arguments may have. Deeper arguments are
 * refused (`INVALID_ARGUMENTS`) before they are parsed, validated, copied or recorded, so that no
 * recursive step (validation, JSON text, redaction, a person's approval view) can overflow the stack.
 */
export const MAX_ARGUMENT_DEPTH = 64;

/** How deeply JSON text nests arrays and objects, read without parsing (strings skipped); stops counting past `limit`. */
export const jsonTextDepth = (text: string, limit = Number.POSITIVE_INFINITY): number => {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      // a string: skip to its closing quote
      for (i += 1; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 92) i += 1;
        else if (d === 34) break;
      }
    } else if (c === 91 || c === 123) {
      depth += 1;
      if (depth > max) {
        max = depth;
        if (max > limit) return max;
      }
    } else if (c === 93 || c === 125) depth -= 1;
  }
  return max;
};

/** Whether a value nests arrays and objects deeper than `limit` (iterative: any depth is safe to ask). */
export const deeperThan = (value: unknown, limit: number): boolean => {
  if (typeof value !== 'object' || value === null) return false;
  const stack: Array<{ v: object; d: number }> = [{ v: value, d: 1 }];
  while (stack.length > 0) {
    const { v, d } = stack.pop() as { v: object; d: number };
    if (d > limit) return true;
    for (const x of Array.isArray(v) ? v : Object.values(v)) if (typeof x === 'object' && x !== null) stack.push({ v: x, d: d + 1 });
  }
  return false;
};
