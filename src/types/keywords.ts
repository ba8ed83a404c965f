/**
 * The JSON Schema keywords a type may carry, in one table: where each applies, what its value must
 * be, and the order in which emitters write them. Compiler, importer and printers all read it, so a
 * keyword is added in one place.
 */
import type { JsonValue } from '../core/json-schema.js';
import { isLeft } from '../core/either.js';
import { linearRegex } from '../core/linear-regex.js';
import type { KeywordName, Keywords, TypeKind } from './types.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** What a keyword's value must be. */
export type KeywordValueKind =
  | 'string'
  | 'boolean'
  | 'number'
  /** A non-negative integer (lengths and counts). */
  | 'count'
  /** A number greater than 0. */
  | 'positive'
  /** An ECMAScript regular expression (with the `u` flag, as ajv compiles it). */
  | 'regex'
  /** Any JSON value (validated against the type itself). */
  | 'value'
  /** An array of JSON values (each validated against the type itself). */
  | 'values';

export interface KeywordInfo {
  readonly name: KeywordName;
  readonly value: KeywordValueKind;
  /** The kinds it applies to; `undefined` means every kind. */
  readonly kinds?: ReadonlySet<TypeKind>;
  /** Whether it changes which values validate (as opposed to documenting them). */
  readonly validates: boolean;
}

const NUMERIC: ReadonlySet<TypeKind> = new Set(['Integer', 'Number']);
const STRING: ReadonlySet<TypeKind> = new Set(['String']);
const ARRAY: ReadonlySet<TypeKind> = new Set(['Array']);
const ARRAYISH: ReadonlySet<TypeKind> = new Set(['Array', 'Tuple']);
const OBJECT: ReadonlySet<TypeKind> = new Set(['Object']);
const FORMATTED: ReadonlySet<TypeKind> = new Set(['String', 'Integer', 'Number']);

const kw = (name: KeywordName, value: KeywordValueKind, validates: boolean, kinds?: ReadonlySet<TypeKind>): KeywordInfo =>
  kinds === undefined ? { name, value, validates } : { name, value, validates, kinds };

/** Every keyword, in the order emitters write them (after `type` and the structure keywords). */
export const KEYWORDS: ReadonlyArray<KeywordInfo> = [
  kw('title', 'string', false),
  kw('description', 'string', false),
  kw('minimum', 'number', true, NUMERIC),
  kw('maximum', 'number', true, NUMERIC),
  kw('exclusiveMinimum', 'number', true, NUMERIC),
  kw('exclusiveMaximum', 'number', true, NUMERIC),
  kw('multipleOf', 'positive', true, NUMERIC),
  kw('minLength', 'count', true, STRING),
  kw('maxLength', 'count', true, STRING),
  kw('pattern', 'regex', true, STRING),
  kw('format', 'string', true, FORMATTED),
  kw('contentMediaType', 'string', false, STRING),
  kw('contentEncoding', 'string', false, STRING),
  kw('minItems', 'count', true, ARRAY),
  kw('maxItems', 'count', true, ARRAY),
  kw('uniqueItems', 'boolean', true, ARRAYISH),
  kw('minProperties', 'count', true, OBJECT),
  kw('maxProperties', 'count', true, OBJECT),
  kw('enum', 'values', true),
  kw('const', 'value', true),
  kw('default', 'value', false),
  kw('examples', 'values', false),
  kw('deprecated', 'boolean', false),
  kw('readOnly', 'boolean', false),
  kw('writeOnly', 'boolean', false),
];

export const KEYWORD_INFO: ReadonlyMap<string, KeywordInfo> = new Map(KEYWORDS.map((k) => [k.name, k]));

/** Keywords gram accepts as a range (`range: 1..10`), per kind: the natural bound of the type. */
export const RANGE_KEYWORDS: Readonly<Partial<Record<TypeKind, readonly [KeywordName, KeywordName]>>> = {
  Integer: ['minimum', 'maximum'],
  Number: ['minimum', 'maximum'],
  String: ['minLength', 'maxLength'],
  Array: ['minItems', 'maxItems'],
  Object: ['minProperties', 'maxProperties'],
};

/** Formats ajv-formats knows, by the kind of value they check. */
export const STRING_FORMATS: ReadonlySet<string> = new Set([
  'date',
  'time',
  'date-time',
  'iso-time',
  'iso-date-time',
  'duration',
  'uri',
  'uri-reference',
  'uri-template',
  'url',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'regex',
  'uuid',
  'json-pointer',
  'json-pointer-uri-fragment',
  'relative-json-pointer',
  'byte',
  'password',
  'binary',
]);
export const NUMBER_FORMATS: ReadonlySet<string> = new Set(['int32', 'int64', 'float', 'double']);

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

export const isKeyword = (name: string): name is KeywordName => KEYWORD_INFO.has(name);

/** Whether a keyword applies to a kind. */
export const keywordApplies = (name: KeywordName, kind: TypeKind): boolean => {
  const info = KEYWORD_INFO.get(name);
  return info !== undefined && (info.kinds === undefined || info.kinds.has(kind));
};

/** The kinds a keyword applies to, in words (for messages). */
export const keywordKinds = (name: KeywordName): string => {
  const info = KEYWORD_INFO.get(name);
  if (info?.kinds === undefined) return 'every type';
  return [...info.kinds].join(', ');
};

/** Checks the shape of a keyword's value (not its agreement with the type); a message when wrong. */
export const checkKeywordValue = (name: KeywordName, value: JsonValue): string | undefined => {
  const info = KEYWORD_INFO.get(name);
  if (info === undefined) return `unknown keyword ${name}`;
  switch (info.value) {
    case 'string':
      return typeof value === 'string' ? undefined : `${name} must be a string`;
    case 'boolean':
      return typeof value === 'boolean' ? undefined : `${name} must be true or false`;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : `${name} must be a number`;
    case 'count':
      return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? undefined : `${name} must be a non-negative integer`;
    case 'positive':
      return typeof value === 'number' && Number.isFinite(value) && value > 0 ? undefined : `${name} must be a number greater than 0`;
    case 'regex':
      if (typeof value !== 'string') return `${name} must be a string (a regular expression)`;
      {
        // patterns run on the linear engine (no backtracking: no pattern can stall validation)
        const r = linearRegex(value, 'u');
        return isLeft(r) ? `${name} is not a regular expression the linear engine can run: ${r.left}` : undefined;
      }
    case 'values':
      return Array.isArray(value) ? undefined : `${name} must be an array`;
    case 'value':
      return undefined;
  }
};

/** The keywords of `meta` in emission order, as `[name, value]` pairs. */
export const orderedKeywords = (meta: Keywords): ReadonlyArray<readonly [KeywordName, JsonValue]> => {
  const out: Array<readonly [KeywordName, JsonValue]> = [];
  for (const k of KEYWORDS) {
    const v = meta[k.name];
    if (v !== undefined) out.push([k.name, v as JsonValue]);
  }
  return out;
};

/** `meta` with its keys in emission order (so that equal metas print the same bytes). */
export const normalizeMeta = (meta: Keywords): Keywords => {
  const out: Record<string, JsonValue> = {};
  for (const [k, v] of orderedKeywords(meta)) out[k] = v;
  return out as Keywords;
};
