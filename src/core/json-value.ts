/**
 * Whether a value an implementation returned is JSON data, and where it is not. A tool result goes
 * to a model as JSON text: a function or a `Map` would silently vanish, `NaN` would turn into
 * `null`, a `BigInt` or a cycle would crash `JSON.stringify` later. `invoke` rejects those as
 * `INVALID_OUTPUT`, with the path of the first offending part.
 */

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface NotJson {
  /** Where, as a path a person reads: `` (the whole value), `items[2].when`. */
  readonly path: string;
  /** What was found there, with how to fix it: `a Date (return date.toISOString())`. */
  readonly found: string;
}

/** Deeper than this is reported rather than walked (JSON text this deep is not meant for a model). */
export const MAX_JSON_DEPTH = 256;

// -------------------------------------------------------------------------------------------------
// check
// -------------------------------------------------------------------------------------------------

const IDENT = /^[A-Za-z_$][\w$]*$/;
const child = (path: string, key: string): string => (IDENT.test(key) ? (path === '' ? key : `${path}.${key}`) : `${path}[${JSON.stringify(key)}]`);

const isPlainPrototype = (proto: unknown): boolean => proto === null || Object.getPrototypeOf(proto) === null;

const describeObject = (v: object): string => {
  if (v instanceof Date) return 'a Date (return date.toISOString())';
  if (v instanceof Map) return 'a Map (return Object.fromEntries(map) or an array of entries)';
  if (v instanceof Set) return 'a Set (return an array)';
  if (ArrayBuffer.isView(v) || v instanceof ArrayBuffer) return 'binary data (return text, e.g. base64)';
  if (v instanceof Error) return `an Error ("${v.message}"; throw it, or return its message)`;
  if (typeof (v as { then?: unknown }).then === 'function') return 'a promise (await it inside the tool)';
  const name = (v as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === 'string' && name !== '' ? `an instance of ${name} (return a plain object)` : 'an object that is not plain data';
};

const primitiveProblem = (v: unknown, inArray: boolean): string | undefined => {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return undefined;
    case 'number':
      return Number.isFinite(v) ? undefined : `${String(v)} (JSON has no ${String(v)}; return null or a string)`;
    case 'bigint':
      return `a BigInt (${String(v)}n; return a number or a string)`;
    case 'function':
      return 'a function';
    case 'symbol':
      return 'a symbol';
    case 'undefined':
      return inArray ? 'undefined inside an array (JSON has no undefined; use null)' : undefined;
    default:
      return undefined;
  }
};

/**
 * The first part of `value` that is not JSON data, or `undefined` when it all is. JSON data:
 * `null`, booleans, finite numbers, strings, arrays of JSON data, and plain objects whose values
 * are JSON data or `undefined` (a property set to `undefined` is absent, as in JSON). Shared
 * sub-values are fine; cycles are not.
 */
export const findNonJson = (value: unknown): NotJson | undefined => {
  try {
    // most values are JSON data: walked first without the paths, which only a problem needs
    return visit(value, undefined, [], false) === undefined ? undefined : visit(value, '', [], false);
  } catch (e) {
    return { path: '', found: `a value that cannot be read (${e instanceof Error ? e.message : 'it threw'})` };
  }
};

/** The first part of `v` that is not JSON data; `path` is where `v` is, or `undefined` for a walk that builds no paths (its problems say `''`). */
const visit = (v: unknown, at: string | undefined, ancestors: object[], inArray: boolean): NotJson | undefined => {
  const path = at ?? '';
  if (v === null) return undefined;
  if (typeof v !== 'object') {
    const p = primitiveProblem(v, inArray);
    return p === undefined ? undefined : { path, found: p };
  }
  if (ancestors.length >= MAX_JSON_DEPTH) return { path, found: `a value nested more than ${MAX_JSON_DEPTH} levels deep` };
  if (ancestors.includes(v)) return { path, found: 'a circular reference (a value that contains itself)' };
  if (Array.isArray(v)) {
    ancestors.push(v);
    for (let i = 0; i < v.length; i++) {
      const r = visit(v[i], at === undefined ? undefined : `${at}[${i}]`, ancestors, true);
      if (r !== undefined) return r;
    }
    ancestors.pop();
    return undefined;
  }
  if (!isPlainPrototype(Object.getPrototypeOf(v))) return { path, found: describeObject(v) };
  ancestors.push(v);
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    const r = visit(o[k], at === undefined ? undefined : child(at, k), ancestors, false);
    if (r !== undefined) return r;
  }
  ancestors.pop();
  return undefined;
};

/** Size of the JSON text of a value, in UTF-8 bytes (the value must be JSON data). */
export const jsonByteLength = (value: unknown): number => Buffer.byteLength(JSON.stringify(value) ?? 'null', 'utf8');
