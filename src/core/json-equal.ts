/**
 * Structural equality of JSON values: the one equality of the codebase (the type ADT's keywords,
 * enum and const checks, de-duplicating imports, comparing a tool's schema with its
 * specification's). Key order is ignored, and so are keys whose value is `undefined` (JSON has
 * none). Options say which arrays are sets (`required` and `type` in a JSON Schema).
 */
import { isRecord } from './json.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface JsonEqualityOptions {
  /**
   * Whether the array under object key `key` is a set (order and repetition ignored). For JSON
   * Schemas, `required` and `type` arrays are sets (`schemaDiffOptions`).
   */
  readonly isSet?: (key: string) => boolean;
}

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

/** Primitives are equal when `===` says so; `NaN` (not JSON, but it reaches here) equals itself. */
export const samePrimitive = (a: unknown, b: unknown): boolean =>
  a === b || (typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b));

/** Own keys whose value is not `undefined`. */
export const definedKeys = (o: Readonly<Record<string, unknown>>): string[] => Object.keys(o).filter((k) => o[k] !== undefined);

/** Whether two arrays hold the same values, ignoring order and repetition. */
export const sameSet = (a: ReadonlyArray<unknown>, b: ReadonlyArray<unknown>): boolean =>
  a.every((x) => b.some((y) => jsonEqual(x, y))) && b.every((y) => a.some((x) => jsonEqual(x, y)));

const equal = (a: unknown, b: unknown, key: string | undefined, options: JsonEqualityOptions): boolean => {
  if (samePrimitive(a, b)) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b)) return false;
    if (key !== undefined && options.isSet?.(key) === true) return sameSet(a, b);
    return a.length === b.length && a.every((x, i) => equal(x, b[i], undefined, options));
  }
  if (!isRecord(a) || !isRecord(b)) return false;
  const ak = definedKeys(a);
  if (ak.length !== definedKeys(b).length) return false;
  return ak.every((k) => b[k] !== undefined && Object.prototype.hasOwnProperty.call(b, k) && equal(a[k], b[k], k, options));
};

/** Whether two JSON values are structurally equal (keys in any order, `undefined`-valued keys ignored). */
export const jsonEqual = (a: unknown, b: unknown, options: JsonEqualityOptions = {}): boolean => equal(a, b, undefined, options);
