/**
 * The intersection of two types (the values of both), used by the importer for `allOf` and for
 * `$ref` with sibling keywords. Exact where it succeeds; `empty` when no value can be of both
 * (disjoint kinds), `fail` with a reason when the intersection exists but the type language cannot
 * write it (two different patterns, a closed object meeting fields it does not list, ...).
 */
import { jsonEqual } from '../core/json-equal.js';
import type { JsonValue } from '../core/json-schema.js';
import { KEYWORD_INFO, keywordApplies } from './keywords.js';
import { type Field, type KeywordName, type Keywords, type Type, field, objectType, tupleType, unionType } from './types.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export type Intersection = { readonly tag: 'ok'; readonly type: Type } | { readonly tag: 'empty' } | { readonly tag: 'fail'; readonly reason: string };

/** Which side's documentation (title, description, default, examples, ...) wins when both have one. */
export type AnnotationPreference = 'left' | 'right';

const ok = (type: Type): Intersection => ({ tag: 'ok', type });
const EMPTY: Intersection = { tag: 'empty' };
const fail = (reason: string): Intersection => ({ tag: 'fail', reason });

const LOWER: ReadonlySet<KeywordName> = new Set(['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties']);
const UPPER: ReadonlySet<KeywordName> = new Set(['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties']);

// -------------------------------------------------------------------------------------------------
// meta
// -------------------------------------------------------------------------------------------------

/** Merges the keywords of two types constraining the same value; a reason when they cannot be merged. */
export const mergeMeta = (a: Keywords, b: Keywords, prefer: AnnotationPreference = 'left'): Keywords | string => {
  const out: Record<string, JsonValue> = { ...(a as Record<string, JsonValue>) };
  for (const [k, bv] of Object.entries(b) as Array<[KeywordName, JsonValue]>) {
    const av = out[k];
    if (av === undefined || jsonEqual(av, bv)) {
      out[k] = bv;
      continue;
    }
    const info = KEYWORD_INFO.get(k);
    if (info !== undefined && !info.validates) {
      if (prefer === 'right') out[k] = bv;
      continue;
    }
    if (LOWER.has(k)) out[k] = Math.max(av as number, bv as number);
    else if (UPPER.has(k)) out[k] = Math.min(av as number, bv as number);
    else if (k === 'uniqueItems') out[k] = (av as boolean) || (bv as boolean);
    else if (k === 'enum') {
      const both = (av as JsonValue[]).filter((x) => (bv as JsonValue[]).some((y) => jsonEqual(x, y)));
      if (both.length === 0) return 'the two `enum` lists have no value in common';
      out[k] = both;
    } else if (k === 'multipleOf') {
      const x = av as number;
      const y = bv as number;
      if (Number.isInteger(x / y)) out[k] = x;
      else if (Number.isInteger(y / x)) out[k] = y;
      else return `multipleOf ${x} and ${y} cannot be combined into one keyword`;
    } else {
      return `two different values of \`${k}\` (${JSON.stringify(av)} and ${JSON.stringify(bv)}) cannot both be written`;
    }
  }
  if (out['const'] !== undefined && Array.isArray(out['enum'])) {
    const c = out['const'];
    if (!(out['enum'] as JsonValue[]).some((e) => jsonEqual(e, c))) return '`const` is not one of the `enum` values';
  }
  return out as Keywords;
};

// -------------------------------------------------------------------------------------------------
// intersection
// -------------------------------------------------------------------------------------------------

const withMerged = (t: Type, a: Keywords, b: Keywords, prefer: AnnotationPreference): Intersection => {
  const m = mergeMeta(a, b, prefer);
  if (typeof m === 'string') return fail(m);
  for (const k of Object.keys(m) as KeywordName[]) {
    if (!keywordApplies(k, t.kind)) return fail(`\`${k}\` does not apply to ${t.kind}`);
  }
  return ok({ ...t, meta: m } as Type);
};

/** The values of both `a` and `b`. */
export const intersect = (a: Type, b: Type, prefer: AnnotationPreference = 'left'): Intersection => {
  if (a.kind === 'Any') return withMerged(b, a.meta, b.meta, prefer);
  if (b.kind === 'Any') return withMerged(a, a.meta, b.meta, prefer);
  if (a.kind === 'Union' || b.kind === 'Union') return intersectUnion(a, b, prefer);
  if (a.kind === 'Integer' && b.kind === 'Number') return withMerged(a, a.meta, b.meta, prefer);
  if (a.kind === 'Number' && b.kind === 'Integer') return withMerged(b, a.meta, b.meta, prefer);
  if (a.kind === 'Array' && b.kind === 'Tuple') return intersect(b, a, prefer === 'left' ? 'right' : 'left');
  if (a.kind === 'Tuple' && b.kind === 'Array') {
    const items: Type[] = [];
    for (const it of a.items) {
      const r = intersect(it, b.items, prefer);
      if (r.tag !== 'ok') return r;
      items.push(r.type);
    }
    const rest: Record<string, unknown> = { ...b.meta };
    if (rest['minItems'] !== undefined && (rest['minItems'] as number) > a.items.length) return EMPTY;
    if (rest['maxItems'] !== undefined && (rest['maxItems'] as number) < a.items.length) return EMPTY;
    delete rest['minItems'];
    delete rest['maxItems'];
    return withMerged(tupleType(items), a.meta, rest as Keywords, prefer);
  }
  if (a.kind !== b.kind) return EMPTY;
  switch (a.kind) {
    case 'Array': {
      const r = intersect(a.items, (b as typeof a).items, prefer);
      if (r.tag === 'fail') return r;
      if (r.tag === 'empty') return fail('the element types have no value in common (only empty arrays would match)');
      return withMerged({ ...a, items: r.type }, a.meta, b.meta, prefer);
    }
    case 'Tuple': {
      const bi = (b as typeof a).items;
      if (bi.length !== a.items.length) return EMPTY;
      const items: Type[] = [];
      for (let i = 0; i < bi.length; i++) {
        const r = intersect(a.items[i] as Type, bi[i] as Type, prefer);
        if (r.tag !== 'ok') return r;
        items.push(r.type);
      }
      return withMerged(tupleType(items), a.meta, b.meta, prefer);
    }
    case 'Object':
      return intersectObjects(a, b as typeof a, prefer);
    default:
      return withMerged(a, a.meta, b.meta, prefer);
  }
};

const intersectUnion = (a: Type, b: Type, prefer: AnnotationPreference): Intersection => {
  const [u, other, flipped] = a.kind === 'Union' ? [a, b, false] : [b, a, true];
  if (u.kind !== 'Union') return fail('internal: union expected');
  const members: Type[] = [];
  for (const m of u.members) {
    const r = flipped ? intersect(other, m, prefer) : intersect(m, other, prefer);
    if (r.tag === 'fail') return r;
    if (r.tag === 'ok') members.push(r.type);
  }
  if (members.length === 0) return EMPTY;
  // the union's own meta (general keywords) stays on the union
  if (members.length === 1) {
    const only = members[0] as Type;
    const m = mergeMeta(only.meta, u.meta, prefer);
    if (typeof m === 'string') return fail(m);
    return ok({ ...only, meta: m } as Type);
  }
  return ok(unionType(members, u.meta));
};

const intersectObjects = (a: Extract<Type, { kind: 'Object' }>, b: Extract<Type, { kind: 'Object' }>, prefer: AnnotationPreference): Intersection => {
  const names = new Set(a.fields.map((f) => f.name));
  const bNames = new Set(b.fields.map((f) => f.name));
  if (a.additional !== undefined && b.fields.some((f) => !names.has(f.name))) {
    return fail('a closed object (additionalProperties) is combined with fields it does not list');
  }
  if (b.additional !== undefined && a.fields.some((f) => !bNames.has(f.name))) {
    return fail('a closed object (additionalProperties) is combined with fields it does not list');
  }
  const fields: Field[] = [];
  for (const fa of a.fields) {
    const fb = b.fields.find((f) => f.name === fa.name);
    if (fb === undefined) {
      fields.push(fa);
      continue;
    }
    const r = intersect(fa.type, fb.type, prefer);
    if (r.tag === 'fail') return r;
    if (r.tag === 'empty') {
      if (fa.optional && fb.optional) return fail(`property "${fa.name}" can only be absent, which cannot be written`);
      return EMPTY;
    }
    fields.push(field(fa.name, r.type, fa.optional && fb.optional));
  }
  for (const fb of b.fields) if (!names.has(fb.name)) fields.push(fb);
  let additional: false | Type | undefined;
  if (a.additional === undefined) additional = b.additional;
  else if (b.additional === undefined) additional = a.additional;
  else if (a.additional === false || b.additional === false) additional = false;
  else {
    const r = intersect(a.additional, b.additional, prefer);
    if (r.tag === 'fail') return r;
    additional = r.tag === 'empty' ? false : r.type;
  }
  const m = mergeMeta(a.meta, b.meta, prefer);
  if (typeof m === 'string') return fail(m);
  return ok(objectType(fields, m, additional));
};
