/**
 * Checks a JSON value against a type directly on the ADT, with the semantics of the JSON Schema the
 * type emits (as ajv applies it). The compiler uses it for defaults, `enum`, `const` and `examples`,
 * so that checking a specification never compiles an ajv validator (compiling is lazy, on first
 * call of a tool). A property test keeps it in agreement with ajv.
 */
import { plural } from '../core/plural.js';
import { isRight } from '../core/either.js';
import { linearRegex, type LinearRegex } from '../core/linear-regex.js';
import { escapePointer } from '../core/json-pointer.js';
import { isRecord } from '../core/json.js';
import { jsonEqual } from '../core/json-equal.js';
import * as formatsModule from 'ajv-formats/dist/formats.js';
import type { Format } from 'ajv';
import { describeValue, displayPath } from './describe-value.js';
import { type Keywords, type Type } from './types.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** Why a value does not fit a type: where (a JSON pointer) and what. */
export interface ValueProblem {
  readonly pointer: string;
  readonly message: string;
}

const formats: Readonly<Record<string, Format>> =
  (formatsModule as unknown as { fullFormats?: Record<string, Format> }).fullFormats ??
  (formatsModule as unknown as { default: { fullFormats: Record<string, Format> } }).default.fullFormats;

// -------------------------------------------------------------------------------------------------
// checking
// -------------------------------------------------------------------------------------------------

/** The problems of `value` as a value of `t` (empty when it fits). Stops at the first few. */
export const checkValue = (t: Type, value: unknown): ReadonlyArray<ValueProblem> => {
  const out: ValueProblem[] = [];
  check(t, value, '', out);
  return out;
};

/** Whether `value` is a value of `t`. */
export const isValueOf = (t: Type, value: unknown): boolean => checkValue(t, value).length === 0;

/** A one-line explanation of the first problem, e.g. `must be an integer, got "ten"` or `tags[2]: ...`. */
export const explainProblems = (problems: ReadonlyArray<ValueProblem>): string =>
  problems
    .slice(0, 3)
    .map((p) => (p.pointer === '' ? p.message : `${displayPath(p.pointer)}: ${p.message}`))
    .join('; ');

const MAX_PROBLEMS = 8;

/** Unicode code points, as ajv counts string lengths. */
const codePoints = (s: string): number => {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    n++;
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
  }
  return n;
};

const regexCache = new Map<string, LinearRegex | undefined>();
/** A schema `pattern` on the linear engine (as ajv runs it, see validate.ts); undefined when it cannot run there. */
const regex = (p: string): LinearRegex | undefined => {
  if (!regexCache.has(p)) {
    const r = linearRegex(p, 'u');
    regexCache.set(p, isRight(r) ? r.right : undefined);
  }
  return regexCache.get(p);
};

/** Whether a value passes a known format (unknown formats pass, as ajv ignores them in non-strict mode). */
export const checkFormat = (format: string, value: unknown): boolean => {
  const f = formats[format];
  if (f === undefined) return true;
  if (f instanceof RegExp || typeof f === 'function' || typeof f === 'string') {
    if (typeof value !== 'string') return true;
    return f instanceof RegExp ? f.test(value) : typeof f === 'function' ? Boolean((f as (s: string) => boolean)(value)) : new RegExp(f, 'u').test(value);
  }
  const def = f as { readonly type?: string; readonly validate: RegExp | string | ((x: unknown) => boolean) };
  const t = def.type ?? 'string';
  if (t === 'number' ? typeof value !== 'number' : typeof value !== 'string') return true;
  const v = def.validate;
  if (v instanceof RegExp) return v.test(String(value));
  if (typeof v === 'string') return new RegExp(v, 'u').test(String(value));
  return Boolean(v(value));
};

const typeWord = (t: Type): string => {
  switch (t.kind) {
    case 'String':
      return 'a string';
    case 'Integer':
      return 'an integer';
    case 'Number':
      return 'a number';
    case 'Boolean':
      return 'a boolean';
    case 'Null':
      return 'null';
    case 'Array':
    case 'Tuple':
      return 'an array';
    case 'Object':
      return 'an object';
    default:
      return 'a JSON value';
  }
};

const check = (t: Type, v: unknown, ptr: string, out: ValueProblem[]): void => {
  if (out.length >= MAX_PROBLEMS) return;
  switch (t.kind) {
    case 'String':
      if (typeof v !== 'string') return void out.push({ pointer: ptr, message: `must be a string, got ${describeValue(v)}` });
      break;
    case 'Integer':
      if (typeof v !== 'number' || !Number.isInteger(v)) return void out.push({ pointer: ptr, message: `must be an integer, got ${describeValue(v)}` });
      break;
    case 'Number':
      if (typeof v !== 'number' || !Number.isFinite(v)) return void out.push({ pointer: ptr, message: `must be a number, got ${describeValue(v)}` });
      break;
    case 'Boolean':
      if (typeof v !== 'boolean') return void out.push({ pointer: ptr, message: `must be a boolean (true or false), got ${describeValue(v)}` });
      break;
    case 'Null':
      if (v !== null) return void out.push({ pointer: ptr, message: `must be null, got ${describeValue(v)}` });
      break;
    case 'Any':
      break;
    case 'Array':
      if (!Array.isArray(v)) return void out.push({ pointer: ptr, message: `must be an array, got ${describeValue(v)}` });
      v.forEach((x, i) => check(t.items, x, `${ptr}/${i}`, out));
      break;
    case 'Tuple':
      if (!Array.isArray(v)) return void out.push({ pointer: ptr, message: `must be an array, got ${describeValue(v)}` });
      if (v.length !== t.items.length) return void out.push({ pointer: ptr, message: `must have exactly ${plural(t.items.length, 'item')}, got ${v.length}` });
      t.items.forEach((it, i) => check(it, v[i], `${ptr}/${i}`, out));
      break;
    case 'Object': {
      if (!isRecord(v)) return void out.push({ pointer: ptr, message: `must be an object, got ${describeValue(v)}` });
      const known = new Set<string>();
      for (const f of t.fields) {
        known.add(f.name);
        const has = Object.prototype.hasOwnProperty.call(v, f.name);
        if (!has) {
          if (!f.optional) out.push({ pointer: `${ptr}/${escapePointer(f.name)}`, message: 'is required' });
          continue;
        }
        check(f.type, v[f.name], `${ptr}/${escapePointer(f.name)}`, out);
      }
      if (t.additional !== undefined) {
        for (const k of Object.keys(v)) {
          if (known.has(k)) continue;
          if (t.additional === false) out.push({ pointer: `${ptr}/${escapePointer(k)}`, message: 'is not allowed (unknown property)' });
          else check(t.additional, v[k], `${ptr}/${escapePointer(k)}`, out);
        }
      }
      break;
    }
    case 'Union': {
      const ok = t.members.some((m) => checkValue(m, v).length === 0);
      if (!ok) return void out.push({ pointer: ptr, message: `matches none of ${t.members.map(typeWord).join(', ')}, got ${describeValue(v)}` });
      break;
    }
  }
  checkMeta(t.meta, v, ptr, out);
};

const checkMeta = (m: Keywords, v: unknown, ptr: string, out: ValueProblem[]): void => {
  if (m.enum !== undefined && !m.enum.some((e) => jsonEqual(e, v))) {
    out.push({ pointer: ptr, message: `must be one of ${m.enum.map((e) => JSON.stringify(e)).join(', ')}, got ${describeValue(v)}` });
  }
  if (m.const !== undefined && !jsonEqual(m.const, v)) out.push({ pointer: ptr, message: `must be ${JSON.stringify(m.const)}, got ${describeValue(v)}` });
  if (typeof v === 'number') {
    if (m.minimum !== undefined && v < m.minimum) out.push({ pointer: ptr, message: `must be at least ${m.minimum}, got ${v}` });
    if (m.maximum !== undefined && v > m.maximum) out.push({ pointer: ptr, message: `must be at most ${m.maximum}, got ${v}` });
    if (m.exclusiveMinimum !== undefined && v <= m.exclusiveMinimum)
      out.push({ pointer: ptr, message: `must be greater than ${m.exclusiveMinimum}, got ${v}` });
    if (m.exclusiveMaximum !== undefined && v >= m.exclusiveMaximum) out.push({ pointer: ptr, message: `must be less than ${m.exclusiveMaximum}, got ${v}` });
    if (m.multipleOf !== undefined) {
      const q = v / m.multipleOf;
      if (q !== Number.parseInt(String(q), 10)) out.push({ pointer: ptr, message: `must be a multiple of ${m.multipleOf}, got ${v}` });
    }
  }
  if (typeof v === 'string') {
    if (m.minLength !== undefined || m.maxLength !== undefined) {
      const n = codePoints(v);
      if (m.minLength !== undefined && n < m.minLength)
        out.push({ pointer: ptr, message: `must have at least ${plural(m.minLength, 'character')}, got ${describeValue(v)}` });
      if (m.maxLength !== undefined && n > m.maxLength)
        out.push({ pointer: ptr, message: `must have at most ${plural(m.maxLength, 'character')}, got ${describeValue(v)}` });
    }
    if (m.pattern !== undefined) {
      const r = regex(m.pattern);
      if (r !== undefined && !r.test(v)) out.push({ pointer: ptr, message: `must match the pattern ${m.pattern}, got ${describeValue(v)}` });
    }
  }
  if (m.format !== undefined && !checkFormat(m.format, v)) out.push({ pointer: ptr, message: `must be a valid ${m.format}, got ${describeValue(v)}` });
  if (Array.isArray(v)) {
    if (m.minItems !== undefined && v.length < m.minItems)
      out.push({ pointer: ptr, message: `must have at least ${plural(m.minItems, 'item')}, got ${v.length}` });
    if (m.maxItems !== undefined && v.length > m.maxItems)
      out.push({ pointer: ptr, message: `must have at most ${plural(m.maxItems, 'item')}, got ${v.length}` });
    if (m.uniqueItems === true) {
      for (let i = 1; i < v.length; i++) {
        for (let j = 0; j < i; j++) {
          if (jsonEqual(v[i], v[j])) return void out.push({ pointer: ptr, message: `must not repeat items (items ${j} and ${i} are equal)` });
        }
      }
    }
  }
  if (isRecord(v)) {
    const n = Object.keys(v).length;
    if (m.minProperties !== undefined && n < m.minProperties) out.push({ pointer: ptr, message: `must have at least ${plural(m.minProperties, 'property')}` });
    if (m.maxProperties !== undefined && n > m.maxProperties) out.push({ pointer: ptr, message: `must have at most ${plural(m.maxProperties, 'property')}` });
  }
};
