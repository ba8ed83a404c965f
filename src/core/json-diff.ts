/**
 * A short diff of two JSON values addressed by JSON pointers (RFC 6901), key order ignored: how a
 * tool's schema differs from its specification's (`bindTool`), how a recorded request differs from
 * the one a replayed model got. It agrees with `jsonEqual`: no difference exactly when equal.
 */
import { isRecord } from './json.js';
import { definedKeys, type JsonEqualityOptions, samePrimitive, sameSet } from './json-equal.js';
import { escapePointer } from './json-pointer.js';
import { stableStringify } from './stable-json.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface JsonDifference {
  /** Where, as a JSON pointer: `` (the whole value), `/properties/age/type`. */
  readonly pointer: string;
  /** `missing`: only in the expected value; `extra`: only in the actual one; `changed`: in both, different. */
  readonly kind: 'missing' | 'extra' | 'changed';
  readonly expected?: unknown;
  readonly actual?: unknown;
}

/** Which arrays are sets (see `jsonEqual`). */
export type DiffOptions = JsonEqualityOptions;

/** JSON Schema comparison: `required` and `type` arrays are compared as sets. */
export const schemaDiffOptions: DiffOptions = { isSet: (key) => key === 'required' || key === 'type' };

// -------------------------------------------------------------------------------------------------
// diff
// -------------------------------------------------------------------------------------------------

const walk = (expected: unknown, actual: unknown, pointer: string, key: string | undefined, opts: DiffOptions, out: JsonDifference[], limit: number): void => {
  if (out.length >= limit) return;
  if (samePrimitive(expected, actual)) return;
  if (Array.isArray(expected) && Array.isArray(actual)) {
    if (key !== undefined && opts.isSet?.(key) === true) {
      if (!sameSet(expected, actual)) out.push({ pointer, kind: 'changed', expected, actual });
      return;
    }
    const n = Math.min(expected.length, actual.length);
    for (let i = 0; i < n; i++) walk(expected[i], actual[i], `${pointer}/${i}`, undefined, opts, out, limit);
    for (let i = n; i < expected.length && out.length < limit; i++) out.push({ pointer: `${pointer}/${i}`, kind: 'missing', expected: expected[i] });
    for (let i = n; i < actual.length && out.length < limit; i++) out.push({ pointer: `${pointer}/${i}`, kind: 'extra', actual: actual[i] });
    return;
  }
  if (isRecord(expected) && isRecord(actual)) {
    const ek = definedKeys(expected).sort();
    const ak = new Set(definedKeys(actual));
    for (const k of ek) {
      const p = `${pointer}/${escapePointer(k)}`;
      if (!ak.has(k)) {
        if (out.length < limit) out.push({ pointer: p, kind: 'missing', expected: expected[k] });
      } else {
        walk(expected[k], actual[k], p, k, opts, out, limit);
      }
      ak.delete(k);
    }
    for (const k of [...ak].sort()) {
      if (out.length < limit) out.push({ pointer: `${pointer}/${escapePointer(k)}`, kind: 'extra', actual: actual[k] });
    }
    return;
  }
  // different primitives, or different kinds (object vs array vs primitive)
  out.push({ pointer, kind: 'changed', expected, actual });
};

/**
 * The differences between two JSON values, at most `limit` of them (default: all), in a
 * deterministic order (object keys sorted). Empty exactly when the values are structurally equal:
 * same keys and values whatever the key order, `undefined`-valued keys ignored as JSON ignores them.
 */
export const diffJson = (expected: unknown, actual: unknown, options: DiffOptions = {}, limit = Number.POSITIVE_INFINITY): ReadonlyArray<JsonDifference> => {
  const out: JsonDifference[] = [];
  walk(expected, actual, '', undefined, options, out, limit);
  return out;
};

// -------------------------------------------------------------------------------------------------
// rendering
// -------------------------------------------------------------------------------------------------

const MAX_VALUE = 60;

/** A value as short JSON text for a message: `"string"`, `{"type":"integer"}`, `[…12 items]`. */
export const shortJson = (v: unknown): string => {
  const s = stableStringify(v);
  return s.length > MAX_VALUE ? `${s.slice(0, MAX_VALUE - 1)}…` : s;
};

/**
 * One line per difference, e.g. `/properties/age/type: spec "integer", tool "string"`;
 * `labels` name the two sides (default `spec` and `tool`), `max` caps the lines shown.
 */
export const formatDifferences = (
  diffs: ReadonlyArray<JsonDifference>,
  options: { readonly expected?: string; readonly actual?: string; readonly max?: number; readonly total?: number } = {},
): string => {
  const e = options.expected ?? 'spec';
  const a = options.actual ?? 'tool';
  const max = options.max ?? 8;
  const lines = diffs.slice(0, max).map((d) => {
    const where = d.pointer === '' ? '(root)' : d.pointer;
    switch (d.kind) {
      case 'missing':
        return `${where}: only in the ${e}: ${shortJson(d.expected)}`;
      case 'extra':
        return `${where}: only in the ${a}: ${shortJson(d.actual)}`;
      case 'changed':
        return `${where}: ${e} ${shortJson(d.expected)}, ${a} ${shortJson(d.actual)}`;
    }
  });
  const total = Math.max(options.total ?? diffs.length, diffs.length);
  if (total > lines.length) lines.push(`… and ${total - lines.length} more difference${total - lines.length === 1 ? '' : 's'}`);
  return lines.join('\n');
};
