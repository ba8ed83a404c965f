/**
 * Whether one JSON Schema accepts every value another allows (`wider ⊇ narrower`): how a spec
 * variant of an experiment binds to a library whose descriptions differ (`bindTool` with
 * `match: 'accepts'`). What must agree is that the implementation accepts every argument the
 * variant's schema allows; the variant may say less (drop an optional parameter), say it more
 * strictly (an enum, a bound, a required parameter) or describe it otherwise.
 *
 * Sound, not complete: a gap is reported wherever the check cannot show inclusion (a `$ref` or
 * `allOf` the two schemas do not share, a pattern of the wider schema the narrower does not
 * repeat). Annotations (descriptions, titles, examples…) are ignored. Enumerated values (`enum`,
 * `const`) of the narrower schema are checked by validating each against the wider one.
 */
import { isLeft } from '../core/either.js';
import { jsonEqual } from '../core/json-equal.js';
import { isRecord } from '../core/json.js';
import type { JsonDifference } from '../core/json-diff.js';
import { escapePointer } from '../core/json-pointer.js';
import type { JsonSchema } from '../core/json-schema.js';
import { ANNOTATION_KEYWORDS, acceptsAnything } from './schema-keywords.js';
import { compileSchema } from './validate.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

type Obj = Readonly<Record<string, unknown>>;

const TYPES = ['null', 'boolean', 'object', 'array', 'number', 'integer', 'string'] as const;

/** Keywords this check reads; any other validating keyword must be equal on both sides. */
const HANDLED = new Set([
  'type',
  'enum',
  'const',
  'anyOf',
  'oneOf',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'items',
  'minItems',
  'maxItems',
  'uniqueItems',
  'properties',
  'required',
  'additionalProperties',
  'minProperties',
  'maxProperties',
]);

// -------------------------------------------------------------------------------------------------
// check
// -------------------------------------------------------------------------------------------------

const gap = (out: JsonDifference[], pointer: string, wider: unknown, narrower: unknown): void => {
  out.push({ pointer, kind: 'changed', expected: narrower, actual: wider });
};

const validating = (s: Obj): Obj =>
  Object.fromEntries(Object.entries(s).filter(([k, v]) => v !== undefined && !ANNOTATION_KEYWORDS.has(k) && !k.startsWith('x-')));

/** The types a schema allows (every type when it says none). */
const typesOf = (s: Obj): ReadonlySet<string> => {
  const t = s['type'];
  if (typeof t === 'string') return new Set([t]);
  if (Array.isArray(t)) return new Set(t.filter((x): x is string => typeof x === 'string'));
  return new Set(TYPES);
};

const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

/** The values allowed by `enum`/`const`, when the schema enumerates them. */
const enumerated = (s: Obj): ReadonlyArray<unknown> | undefined =>
  'const' in s && s['const'] !== undefined ? [s['const']] : Array.isArray(s['enum']) ? s['enum'] : undefined;

const walk = (wider: unknown, narrower: unknown, pointer: string, out: JsonDifference[], limit: number): void => {
  if (out.length >= limit) return;
  if (narrower === false || acceptsAnything(wider as JsonSchema)) return;
  if (wider === false || !isRecord(wider)) return gap(out, pointer, wider, narrower);
  if (narrower === true || !isRecord(narrower)) return gap(out, pointer, wider, narrower);
  const w = validating(wider);
  const n = validating(narrower);
  if (jsonEqual(w, n, { isSet: (k) => k === 'required' || k === 'type' })) return;

  // enumerated values: each must be valid for the wider schema
  const values = enumerated(n);
  if (values !== undefined) {
    const compiled = compileSchema(wider as JsonSchema);
    if (isLeft(compiled)) return gap(out, pointer, wider, narrower);
    for (const v of values) if (!compiled.right.check(v)) gap(out, `${pointer}/${'const' in n ? 'const' : 'enum'}`, wider, v);
    return;
  }
  if (enumerated(w) !== undefined) return gap(out, pointer, wider, narrower);

  // a union on the narrower side: each branch (with the rest of its schema) must be accepted
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = n[key];
    if (Array.isArray(branches)) {
      const { [key]: _, ...rest } = n;
      branches.forEach((b, i) => walk(wider, isRecord(b) ? { ...rest, ...b } : b, `${pointer}/${key}/${i}`, out, limit));
      return;
    }
  }
  // a union on the wider side: the narrower schema must fit one branch
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = w[key];
    if (Array.isArray(branches)) {
      const { [key]: _, ...rest } = w;
      const fits = branches.some((b) => {
        const trial: JsonDifference[] = [];
        walk(isRecord(b) ? { ...rest, ...b } : b, n, pointer, trial, 1);
        return trial.length === 0;
      });
      if (!fits) gap(out, `${pointer}/${key}`, branches, narrower);
      return;
    }
  }

  // keywords this check does not read must be the same
  for (const k of new Set([...Object.keys(w), ...Object.keys(n)])) {
    if (HANDLED.has(k)) continue;
    if (k in w && !jsonEqual(w[k], n[k])) gap(out, `${pointer}/${escapePointer(k)}`, w[k], n[k]);
  }

  const wt = typesOf(w);
  const nt = typesOf(n);
  const badTypes = [...nt].filter((t) => !wt.has(t) && !(t === 'integer' && wt.has('number')));
  if (badTypes.length > 0) gap(out, `${pointer}/type`, w['type'], n['type'] ?? badTypes);

  // bounds: the narrower schema's must be at least as tight
  const lower = (k: string, strictOk: string | undefined): void => {
    const wv = num(w[k]);
    if (wv === undefined) return;
    const nv = num(n[k]);
    const ns = strictOk !== undefined ? num(n[strictOk]) : undefined;
    if ((nv === undefined || nv < wv) && (ns === undefined || ns < wv)) gap(out, `${pointer}/${k}`, wv, n[k]);
  };
  const upper = (k: string, strictOk: string | undefined): void => {
    const wv = num(w[k]);
    if (wv === undefined) return;
    const nv = num(n[k]);
    const ns = strictOk !== undefined ? num(n[strictOk]) : undefined;
    if ((nv === undefined || nv > wv) && (ns === undefined || ns > wv)) gap(out, `${pointer}/${k}`, wv, n[k]);
  };
  lower('minimum', 'exclusiveMinimum');
  upper('maximum', 'exclusiveMaximum');
  lower('exclusiveMinimum', undefined);
  upper('exclusiveMaximum', undefined);
  lower('minLength', undefined);
  upper('maxLength', undefined);
  lower('minItems', undefined);
  upper('maxItems', undefined);
  lower('minProperties', undefined);
  upper('maxProperties', undefined);
  for (const k of ['exclusiveMinimum', 'exclusiveMaximum'] as const) {
    // a narrower exclusive bound equal to the wider inclusive one is tighter, handled above; the reverse is not
    if (num(w[k]) !== undefined && num(n[k]) === undefined && num(n[k === 'exclusiveMinimum' ? 'minimum' : 'maximum']) === num(w[k]))
      gap(out, `${pointer}/${k}`, w[k], undefined);
  }
  const wm = num(w['multipleOf']);
  if (wm !== undefined) {
    const nm = num(n['multipleOf']);
    if (nm === undefined || !Number.isInteger(nm / wm)) gap(out, `${pointer}/multipleOf`, wm, n['multipleOf']);
  }
  for (const k of ['pattern', 'format'] as const) if (w[k] !== undefined && w[k] !== n[k]) gap(out, `${pointer}/${k}`, w[k], n[k]);
  if (w['uniqueItems'] === true && n['uniqueItems'] !== true) gap(out, `${pointer}/uniqueItems`, true, n['uniqueItems']);

  // arrays
  if (nt.has('array') && w['items'] !== undefined) walk(w['items'], n['items'] ?? true, `${pointer}/items`, out, limit);

  // objects
  if (!nt.has('object')) return;
  const wp = isRecord(w['properties']) ? w['properties'] : {};
  const np = isRecord(n['properties']) ? n['properties'] : {};
  const wExtra = w['additionalProperties'] ?? true;
  for (const [name, s] of Object.entries(np)) walk(name in wp ? wp[name] : wExtra, s, `${pointer}/properties/${escapePointer(name)}`, out, limit);
  const nExtra = n['additionalProperties'] ?? true;
  if (nExtra !== false) {
    for (const [name, s] of Object.entries(wp)) if (!(name in np)) walk(s, nExtra, `${pointer}/properties/${escapePointer(name)}`, out, limit);
    walk(wExtra, nExtra, `${pointer}/additionalProperties`, out, limit);
  }
  const nRequired = new Set(Array.isArray(n['required']) ? n['required'] : []);
  for (const r of Array.isArray(w['required']) ? w['required'] : []) if (!nRequired.has(r)) gap(out, `${pointer}/required`, r, undefined);
};

/**
 * Where `narrower` allows a value `wider` refuses (or the check cannot show it does not), as
 * differences whose `expected` is the narrower side and `actual` the wider one; empty when
 * `wider` accepts everything `narrower` allows. At most `limit` (default: all).
 */
export const schemaAcceptGaps = (
  wider: JsonSchema | undefined,
  narrower: JsonSchema | undefined,
  limit = Number.POSITIVE_INFINITY,
): ReadonlyArray<JsonDifference> => {
  const out: JsonDifference[] = [];
  walk(wider ?? true, narrower ?? true, '', out, limit);
  return out.slice(0, limit);
};
