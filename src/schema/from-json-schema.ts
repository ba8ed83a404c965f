/**
 * JSON Schema → type ADT: the importer. Reads JSON Schema draft 2020-12 and draft-07 as tools use
 * them (and BFCL's dialect, bfcl.ts), so that an imported schema compiles back to one that accepts
 * and rejects the same values.
 *
 * Nothing is dropped silently. What changes no validation outcome but has no place in the type
 * language (`$comment`, `x-*` extensions, a keyword that does not apply to its type, a default that
 * does not validate) is dropped with a warning; what would change validation and cannot be written
 * (`not`, `if`, `patternProperties`, recursive `$ref`, ...) is an error naming the keyword
 * (schema-keywords.ts says which is which). Diagnostics have no span (the input is JSON); their
 * message starts with the JSON pointer (import-context.ts).
 */
import { type Checked, checked, type Either, unwarned } from '../core/either.js';
import { type Diagnostic, error } from '../core/diagnostic.js';
import { jsonEqual } from '../core/json-equal.js';
import { escapePointer, refSegments, valueAt } from '../core/json-pointer.js';
import { isJsonObject } from '../core/json.js';
import type { JsonObject, JsonValue } from '../core/json-schema.js';
import { checkObjectOptional, checkPropertyOptional, hasOptionalList, isBfclType, BFCL_TYPES } from './bfcl.js';
import { ImportCodes } from '../types/codes.js';
import { err, type ImportContext, importContext, note, type SchemaImportOptions, warn, where } from './import-context.js';
import { sanitize } from './import-values.js';
import { intersect } from '../types/intersect.js';
import { KEYWORD_INFO, checkKeywordValue } from '../types/keywords.js';
import { IMPORT_DROPPED, IMPORT_STRUCTURE, IMPORT_UNSUPPORTED } from './schema-keywords.js';
import {
  type Field,
  type KeywordName,
  type Keywords,
  type ObjectType,
  type Type,
  type TypeKind,
  type TypeSignature,
  anyType,
  arrayType,
  field,
  objectType,
  primitiveType,
  returnType,
  tupleType,
  typeSignature,
  unionType,
} from '../types/types.js';

export type { SchemaDialect, SchemaImportOptions } from './import-context.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

const JSON_KINDS: Readonly<Record<string, TypeKind>> = {
  string: 'String',
  integer: 'Integer',
  number: 'Number',
  boolean: 'Boolean',
  null: 'Null',
  object: 'Object',
  array: 'Array',
};

const OBJECT_KEYS = ['properties', 'required', 'additionalProperties', 'unevaluatedProperties', 'minProperties', 'maxProperties'];
const ARRAY_KEYS = ['items', 'prefixItems', 'additionalItems', 'minItems', 'maxItems', 'uniqueItems'];
const STRING_KEYS = ['minLength', 'maxLength', 'pattern'];
const NUMBER_KEYS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'];

// -------------------------------------------------------------------------------------------------
// entry points
// -------------------------------------------------------------------------------------------------

const done = <A>(ctx: Ctx, value: A | undefined): Checked<A> => checked(value, ctx.diagnostics);

type Ctx = ImportContext;

/** Imports a schema as a type, with every diagnostic. */
export const checkFromJsonSchema = (schema: unknown, options: SchemaImportOptions = {}): Checked<Type> => {
  const ctx = importContext(schema, options);
  const t = convert(schema, '', ctx);
  return done(ctx, t === undefined ? undefined : sanitize(t, '', ctx));
};

/** Imports a schema as a type; `Left` with the errors when it cannot be written. */
export const fromJsonSchema = (schema: unknown, options: SchemaImportOptions = {}): Either<ReadonlyArray<Diagnostic>, Type> =>
  unwarned(checkFromJsonSchema(schema, options));

/**
 * Imports a tool's schemas as a signature: `input` (the arguments; its root must be an object, and
 * an absent input means no parameters) and `output` (the result; absent means `Any`).
 */
export const checkSignatureFromJsonSchemas = (
  input: unknown,
  output: unknown,
  options: SchemaImportOptions & { readonly outputAt?: string } = {},
): Checked<TypeSignature> => {
  const diagnostics: Diagnostic[] = [];
  let args: ObjectType | undefined;
  if (input === undefined || input === null) {
    args = objectType([]);
  } else {
    const ctx = importContext(input, options);
    let t = convert(input, '', ctx, true);
    if (t !== undefined) t = sanitize(t, '', ctx);
    diagnostics.push(...ctx.diagnostics);
    if (t !== undefined) {
      if (t.kind === 'Object') args = t;
      else if (t.kind === 'Any' && Object.keys(t.meta).length === 0) args = objectType([]);
      else if (t.kind === 'Any') args = objectType([], t.meta);
      else
        diagnostics.push(
          error(ImportCodes.ROOT_NOT_OBJECT, `${where(ctx, '')}: the arguments schema must be an object (it is ${describeKind(t)})`, {
            ...(options.file !== undefined ? { file: options.file } : {}),
            hint: 'tool arguments are always a JSON object; wrap the value in an object property',
          }),
        );
    }
  }
  let result: Type | undefined = anyType();
  if (output !== undefined && output !== null) {
    const ctx = importContext(output, { ...options, at: options.outputAt ?? 'outputSchema' });
    const t = convert(output, '', ctx);
    result = t === undefined ? undefined : sanitize(t, '', ctx);
    diagnostics.push(...ctx.diagnostics);
  }
  return checked(
    args === undefined || result === undefined ? undefined : typeSignature(args.fields, returnType(result), args.meta, args.additional),
    diagnostics,
  );
};

const describeKind = (t: Type): string => (t.kind === 'Union' ? 'a union' : t.kind === 'Any' ? 'any value' : `of type ${t.kind}`);

// -------------------------------------------------------------------------------------------------
// conversion
// -------------------------------------------------------------------------------------------------

const MAX_DEPTH = 64;

const convert = (s: unknown, ptr: string, ctx: Ctx, root = false): Type | undefined => {
  if (s === true) return anyType();
  if (s === false) return err(ctx, ImportCodes.UNSUPPORTED_KEYWORD, ptr, 'the schema `false` (no value allowed) cannot be written as a type');
  if (!isJsonObject(s)) return err(ctx, ImportCodes.INVALID_SCHEMA, ptr, `a schema must be an object or a boolean, got ${JSON.stringify(s)}`);
  if (ctx.depth > MAX_DEPTH) return err(ctx, ImportCodes.UNSUPPORTED_KEYWORD, ptr, `schema nested deeper than ${MAX_DEPTH} levels`);
  ctx.depth++;
  try {
    if (typeof s['$ref'] === 'string') return convertRef(s, ptr, ctx);
    if (s['allOf'] !== undefined) return convertAllOf(s, ptr, ctx, root);
    if (s['anyOf'] !== undefined || s['oneOf'] !== undefined) return convertUnion(s, ptr, ctx);
    return convertPlain(s, ptr, ctx, root);
  } finally {
    ctx.depth--;
  }
};

const without = (s: JsonObject, keys: ReadonlyArray<string>): JsonObject => {
  const out: Record<string, JsonValue> = {};
  for (const [k, v] of Object.entries(s)) if (!keys.includes(k)) out[k] = v;
  return out;
};

const resolvePointer = (root: JsonObject, ref: string): unknown => {
  const keys = refSegments(ref);
  return keys === undefined ? undefined : valueAt(root, keys);
};

const convertRef = (s: JsonObject, ptr: string, ctx: Ctx): Type | undefined => {
  const ref = s['$ref'] as string;
  if (ctx.stack.includes(ref)) {
    return err(
      ctx,
      ImportCodes.RECURSIVE_REF,
      ptr,
      `\`$ref: ${ref}\` refers to itself (a recursive type), which gram cannot write`,
      'gram types are finite trees; flatten the recursion to a fixed depth or use Any',
    );
  }
  const target = resolvePointer(ctx.root, ref);
  if (target === undefined) {
    return err(
      ctx,
      ImportCodes.UNRESOLVED_REF,
      ptr,
      `\`$ref: ${ref}\` does not resolve in this document`,
      'only local references (`#/$defs/...`, `#/definitions/...`) can be imported',
    );
  }
  ctx.stack.push(ref);
  const t = convert(target, ptr, ctx);
  ctx.stack.pop();
  if (t === undefined) return undefined;
  const siblings = without(s, ['$ref', '$defs', 'definitions', '$schema']);
  if (Object.keys(siblings).length === 0) return t;
  if (ctx.draft07) {
    // draft-07 ignores every keyword next to $ref: keep the documentation, drop the rest (visibly)
    const kept: Record<string, JsonValue> = {};
    const ignored: string[] = [];
    for (const [k, v] of Object.entries(siblings)) {
      const info = KEYWORD_INFO.get(k);
      if (info !== undefined && !info.validates) kept[k] = v;
      else ignored.push(k);
    }
    if (ignored.length > 0) {
      warn(
        ctx,
        ImportCodes.KEYWORD_IGNORED,
        ptr,
        `${ignored.map((k) => `\`${k}\``).join(', ')} next to \`$ref\` ${ignored.length === 1 ? 'is' : 'are'} ignored by draft-07 validators, so ${ignored.length === 1 ? 'it was' : 'they were'} not imported`,
      );
    }
    return mergeInto(t, kept, ptr, ctx);
  }
  return mergeInto(t, siblings, ptr, ctx);
};

/** `t` constrained further by the keywords of `extra` (a `$ref`'s siblings), whose documentation wins. */
const mergeInto = (t: Type, extra: JsonObject, ptr: string, ctx: Ctx): Type | undefined => {
  if (Object.keys(extra).length === 0) return t;
  const e = convert(extra, ptr, ctx);
  if (e === undefined) return undefined;
  const r = intersect(t, e, 'right');
  if (r.tag === 'ok') return r.type;
  if (r.tag === 'empty') return err(ctx, ImportCodes.UNSATISFIABLE, ptr, 'the keywords next to `$ref` exclude every value of the referenced schema');
  return err(ctx, ImportCodes.UNSUPPORTED_KEYWORD, ptr, `\`$ref\` with sibling keywords cannot be combined: ${r.reason}`);
};

const convertAllOf = (s: JsonObject, ptr: string, ctx: Ctx, root: boolean): Type | undefined => {
  const parts = s['allOf'];
  if (!Array.isArray(parts) || parts.length === 0) return err(ctx, ImportCodes.INVALID_SCHEMA, ptr, '`allOf` must be a non-empty array');
  const types: Type[] = [];
  let failed = false;
  const base = without(s, ['allOf']);
  const typed = base['type'] !== undefined || parts.some((p) => isJsonObject(p) && p['type'] !== undefined);
  if (typed) ctx.quietInference++;
  parts.forEach((p, i) => {
    const t = convert(p, `${ptr}/allOf/${i}`, ctx, root);
    if (t === undefined) failed = true;
    else types.push(t);
  });
  if (Object.keys(without(base, ['$defs', 'definitions', '$schema'])).length > 0) {
    const t = convert(base, ptr, ctx, root);
    if (t === undefined) failed = true;
    else types.push(t);
  }
  if (typed) ctx.quietInference--;
  if (failed) return undefined;
  let acc = types[0] as Type;
  for (const t of types.slice(1)) {
    const r = intersect(acc, t, 'right');
    if (r.tag === 'empty') return err(ctx, ImportCodes.UNSATISFIABLE, ptr, '`allOf` has no value in common between its schemas');
    if (r.tag === 'fail') return err(ctx, ImportCodes.UNSUPPORTED_KEYWORD, `${ptr}/allOf`, `\`allOf\` cannot be merged into one type: ${r.reason}`);
    acc = r.type;
  }
  return acc;
};

const kindsOf = (t: Type): ReadonlySet<TypeKind> | 'any' => {
  if (t.kind === 'Any') return 'any';
  if (t.kind === 'Union') {
    const out = new Set<TypeKind>();
    for (const m of t.members) {
      const k = kindsOf(m);
      if (k === 'any') return 'any';
      for (const x of k) out.add(x);
    }
    return out;
  }
  if (t.kind === 'Tuple') return new Set(['Array']);
  if (t.kind === 'Integer') return new Set(['Integer', 'Number']);
  if (t.kind === 'Number') return new Set(['Number', 'Integer']);
  return new Set([t.kind]);
};

/** Whether no value can be of both types (a sufficient test: kinds, constants, or a required discriminator). */
export const disjoint = (a: Type, b: Type): boolean => {
  const ka = kindsOf(a);
  const kb = kindsOf(b);
  if (ka !== 'any' && kb !== 'any' && ![...ka].some((k) => kb.has(k))) return true;
  const va = a.meta.const !== undefined ? [a.meta.const] : a.meta.enum;
  const vb = b.meta.const !== undefined ? [b.meta.const] : b.meta.enum;
  if (va !== undefined && vb !== undefined && !va.some((x) => vb.some((y) => jsonEqual(x, y)))) return true;
  if (a.kind === 'Object' && b.kind === 'Object') {
    for (const fa of a.fields) {
      const fb = b.fields.find((f) => f.name === fa.name);
      if (fb !== undefined && !fa.optional && !fb.optional && disjoint(fa.type, fb.type)) return true;
    }
  }
  return false;
};

const convertUnion = (s: JsonObject, ptr: string, ctx: Ctx): Type | undefined => {
  if (s['anyOf'] !== undefined && s['oneOf'] !== undefined) {
    return err(ctx, ImportCodes.UNSUPPORTED_KEYWORD, ptr, '`anyOf` and `oneOf` together cannot be written as one union');
  }
  const key = s['anyOf'] !== undefined ? 'anyOf' : 'oneOf';
  const list = s[key];
  if (!Array.isArray(list) || list.length === 0) return err(ctx, ImportCodes.INVALID_SCHEMA, ptr, `\`${key}\` must be a non-empty array`);
  const members: Type[] = [];
  let failed = false;
  list.forEach((m, i) => {
    const t = convert(m, `${ptr}/${key}/${i}`, ctx);
    if (t === undefined) failed = true;
    else members.push(t);
  });
  if (failed) return undefined;
  if (key === 'oneOf') {
    for (let i = 0; i < members.length; i++) {
      for (let j = 0; j < i; j++) {
        if (!disjoint(members[i] as Type, members[j] as Type)) {
          warn(
            ctx,
            ImportCodes.ONEOF_AS_ANYOF,
            ptr,
            `\`oneOf\` imported as a union (\`anyOf\`): branches ${j} and ${i} may both match a value, and a union then accepts it where \`oneOf\` rejects it`,
          );
          i = members.length;
          break;
        }
      }
    }
  }
  const base = without(s, [key]);
  // documentation and general keywords stay on the union; structural keywords constrain each member
  const general: Record<string, JsonValue> = {};
  const specific: Record<string, JsonValue> = {};
  for (const [k, v] of Object.entries(base)) {
    const info = KEYWORD_INFO.get(k);
    const isSpecific =
      (info !== undefined && info.kinds !== undefined) ||
      (IMPORT_STRUCTURE.has(k) && k !== 'example' && k !== '$defs' && k !== 'definitions' && k !== '$schema');
    if (isSpecific) specific[k] = v;
    else general[k] = v;
  }
  reportUnread(general, ptr, ctx);
  let out = members;
  if (Object.keys(specific).length > 0) {
    const b = convert(specific, ptr, ctx);
    if (b === undefined) return undefined;
    out = [];
    for (const m of members) {
      const r = intersect(m, b, 'left');
      if (r.tag === 'fail')
        return err(ctx, ImportCodes.UNSUPPORTED_KEYWORD, ptr, `the keywords next to \`${key}\` cannot be distributed over its branches: ${r.reason}`);
      if (r.tag === 'ok') out.push(r.type);
    }
    if (out.length === 0) return err(ctx, ImportCodes.UNSATISFIABLE, ptr, `no branch of \`${key}\` agrees with the keywords next to it`);
  }
  const meta = convertMeta(general, ptr, ctx, undefined);
  if (meta === undefined) return undefined;
  // a union of bare constants is an enum (the same values, written shorter)
  const constOnly = (t: Type): boolean => t.kind === 'Any' && Object.keys(t.meta).length === 1 && t.meta.const !== undefined;
  if (out.length > 1 && out.every(constOnly) && meta.enum === undefined && meta.const === undefined) {
    const values: JsonValue[] = [];
    for (const m of out) if (!values.some((v) => jsonEqual(v, m.meta.const))) values.push(m.meta.const as JsonValue);
    return anyType({ ...meta, enum: values });
  }
  if (out.length === 1) {
    const only = out[0] as Type;
    const r = intersect(only, anyType(meta), 'right');
    if (r.tag !== 'ok') return err(ctx, ImportCodes.UNSUPPORTED_KEYWORD, ptr, `\`${key}\` with one branch cannot be merged with its keywords`);
    return r.type;
  }
  return unionType(out, meta);
};

/** Reads the keywords of the table from a schema object, for a type of kind `kind` (undefined: general ones only). */
const convertMeta = (s: JsonObject, ptr: string, ctx: Ctx, kinds: ReadonlySet<TypeKind> | undefined): Keywords | undefined => {
  const out: Record<string, JsonValue> = {};
  let ok = true;
  for (const [k, v] of Object.entries(s)) {
    const info = KEYWORD_INFO.get(k);
    if (info === undefined) continue;
    if (kinds === undefined ? info.kinds !== undefined : info.kinds !== undefined && ![...kinds].some((x) => info.kinds?.has(x))) continue;
    if ((k === 'exclusiveMinimum' || k === 'exclusiveMaximum') && typeof v === 'boolean') continue;
    const problem = checkKeywordValue(k as KeywordName, v);
    if (problem !== undefined) {
      err(ctx, ImportCodes.INVALID_SCHEMA, `${ptr}/${k}`, problem);
      ok = false;
      continue;
    }
    out[k] = v;
  }
  // draft-04 style boolean exclusive bounds
  for (const [ex, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof s[ex] === 'boolean' && kinds !== undefined && (kinds.has('Number') || kinds.has('Integer'))) {
      if (s[ex] === true && typeof s[bound] === 'number') {
        out[ex] = s[bound] as number;
        delete out[bound];
        note(ctx, ImportCodes.NOTE, ptr, `draft-04 \`${ex}: true\` read as \`${ex}: ${String(s[bound])}\``);
      } else if (s[ex] === true) {
        warn(ctx, ImportCodes.KEYWORD_IGNORED, `${ptr}/${ex}`, `\`${ex}: true\` without \`${bound}\` has no effect and was not imported`);
      }
    }
  }
  if (s['example'] !== undefined && kinds === undefined) {
    if (out['examples'] === undefined) {
      out['examples'] = [s['example']];
      note(ctx, ImportCodes.NOTE, `${ptr}/example`, 'OpenAPI `example` imported as `examples: [...]`');
    } else {
      warn(ctx, ImportCodes.KEYWORD_DROPPED, `${ptr}/example`, 'OpenAPI `example` dropped: `examples` is already given');
    }
  }
  return ok ? (out as Keywords) : undefined;
};

/** Reports the keys of a schema the importer does not read: errors for validation it cannot write, warnings for the rest. */
const reportUnread = (s: JsonObject, ptr: string, ctx: Ctx): void => {
  for (const k of Object.keys(s)) {
    if (IMPORT_STRUCTURE.has(k) || KEYWORD_INFO.has(k)) continue;
    if (ctx.bfcl && k === 'optional') continue;
    if (IMPORT_UNSUPPORTED.has(k)) {
      err(
        ctx,
        ImportCodes.UNSUPPORTED_KEYWORD,
        `${ptr}/${escapePointer(k)}`,
        `\`${k}\` has no equivalent in gram types`,
        'simplify the schema, or keep this check in the tool implementation',
      );
    } else if (IMPORT_DROPPED.has(k) || k.startsWith('x-')) {
      warn(
        ctx,
        ImportCodes.KEYWORD_DROPPED,
        `${ptr}/${escapePointer(k)}`,
        `\`${k}\` dropped: it does not affect validation and has no place in a gram type${k === 'nullable' ? ' (`nullable` is OpenAPI; in JSON Schema write `type: ["T", "null"]`)' : ''}`,
      );
    } else {
      warn(ctx, ImportCodes.KEYWORD_DROPPED, `${ptr}/${escapePointer(k)}`, `unknown keyword \`${k}\` dropped (JSON Schema validators ignore it)`);
    }
  }
};

const convertPlain = (s: JsonObject, ptr: string, ctx: Ctx, root: boolean): Type | undefined => {
  // 1. kinds
  let kinds: TypeKind[] | undefined;
  let bfclTuple = false;
  const rawType = s['type'];
  if (rawType !== undefined) {
    const names = Array.isArray(rawType) ? rawType : [rawType];
    const ks: TypeKind[] = [];
    let anyName = false;
    for (const n of names) {
      if (typeof n !== 'string') return err(ctx, ImportCodes.INVALID_SCHEMA, `${ptr}/type`, '`type` must be a string or an array of strings');
      let name: string | undefined = n;
      if (ctx.bfcl && isBfclType(n)) {
        name = BFCL_TYPES[n];
        if (n === 'tuple') bfclTuple = true;
        if (name === undefined) {
          anyName = true;
          continue;
        }
      }
      const k = JSON_KINDS[name];
      if (k === undefined) {
        const hint = isBfclType(n)
          ? "this is BFCL's dialect: import with `--from bfcl`"
          : 'JSON Schema types are string, integer, number, boolean, null, object and array';
        return err(ctx, ImportCodes.INVALID_SCHEMA, `${ptr}/type`, `unknown type ${JSON.stringify(n)}`, hint);
      }
      if (!ks.includes(k)) ks.push(k);
    }
    kinds = anyName ? undefined : ks;
    if (!anyName && ks.length === 0) return err(ctx, ImportCodes.UNSATISFIABLE, `${ptr}/type`, '`type: []` allows no value');
  } else {
    const has = (keys: ReadonlyArray<string>) => keys.some((k) => s[k] !== undefined);
    const inferred: TypeKind[] = [];
    if (has(OBJECT_KEYS) || (ctx.bfcl && hasOptionalList(s))) inferred.push('Object');
    if (has(ARRAY_KEYS)) inferred.push('Array');
    if (has(STRING_KEYS)) inferred.push('String');
    if (has(NUMBER_KEYS)) inferred.push('Number');
    if (inferred.length > 0) {
      kinds = inferred;
      const msg = `no \`type\`, read as ${inferred.join(' or ')} from its keywords`;
      if (ctx.quietInference > 0) {
        // another part of the allOf gives the type
      } else if (root && inferred.length === 1 && inferred[0] === 'Object')
        note(ctx, ImportCodes.TYPE_INFERRED, ptr, `${msg} (tool arguments are always an object)`);
      else warn(ctx, ImportCodes.TYPE_INFERRED, ptr, `${msg}; the original also accepted values of other types`);
    }
  }
  if (bfclTuple) note(ctx, ImportCodes.BFCL_TUPLE, ptr, 'BFCL `tuple` is a JSON array (its length is not given): imported as `[T]`');

  // 2. keywords the importer does not read
  reportUnread(s, ptr, ctx);

  // 3. keywords that apply to none of the kinds
  if (kinds !== undefined) {
    const kindSet = new Set(kinds);
    for (const k of Object.keys(s)) {
      const infoK = KEYWORD_INFO.get(k);
      if (infoK?.kinds !== undefined && ![...kindSet].some((x) => infoK.kinds?.has(x) || (x === 'Array' && infoK.kinds?.has('Tuple')))) {
        warn(
          ctx,
          ImportCodes.KEYWORD_IGNORED,
          `${ptr}/${escapePointer(k)}`,
          `\`${k}\` does not apply to type ${kinds.map((x) => x.toLowerCase()).join('/')} (validators ignore it), so it was not imported`,
        );
      }
      if (
        (OBJECT_KEYS.includes(k) && !KEYWORD_INFO.has(k) && !kindSet.has('Object')) ||
        (ARRAY_KEYS.includes(k) && !KEYWORD_INFO.has(k) && !kindSet.has('Array'))
      ) {
        warn(
          ctx,
          ImportCodes.KEYWORD_IGNORED,
          `${ptr}/${escapePointer(k)}`,
          `\`${k}\` does not apply to type ${kinds.map((x) => x.toLowerCase()).join('/')} (validators ignore it), so it was not imported`,
        );
      }
    }
  }

  // 4. build
  const general = convertMeta(s, ptr, ctx, undefined);
  if (general === undefined) return undefined;
  if (kinds === undefined) {
    return anyType(general);
  }
  const members: Type[] = [];
  for (const k of kinds) {
    const m = buildKind(k, s, ptr, ctx);
    if (m === undefined) return undefined;
    members.push(m);
  }
  if (members.length === 1) {
    const only = members[0] as Type;
    return { ...only, meta: { ...only.meta, ...general } } as Type;
  }
  return unionType(members, general);
};

const buildKind = (k: TypeKind, s: JsonObject, ptr: string, ctx: Ctx): Type | undefined => {
  const meta = convertMeta(s, ptr, ctx, new Set([k]));
  if (meta === undefined) return undefined;
  const specific: Record<string, JsonValue> = {};
  for (const [name, v] of Object.entries(meta)) {
    if (KEYWORD_INFO.get(name)?.kinds !== undefined) specific[name] = v as JsonValue;
  }
  switch (k) {
    case 'Object':
      return buildObject(s, ptr, ctx, specific as Keywords);
    case 'Array':
      return buildArray(s, ptr, ctx, specific as Keywords);
    default:
      return primitiveType(k as 'String', specific as Keywords);
  }
};

const buildObject = (s: JsonObject, ptr: string, ctx: Ctx, meta: Keywords): Type | undefined => {
  const props = s['properties'];
  if (props !== undefined && !isJsonObject(props)) return err(ctx, ImportCodes.INVALID_SCHEMA, `${ptr}/properties`, '`properties` must be an object');
  const reqRaw = s['required'];
  let required: string[] = [];
  if (reqRaw !== undefined) {
    if (!Array.isArray(reqRaw) || !reqRaw.every((r) => typeof r === 'string')) {
      if (ctx.bfcl && typeof reqRaw === 'boolean') {
        warn(
          ctx,
          ImportCodes.KEYWORD_DROPPED,
          `${ptr}/required`,
          '`required: true|false` on a property is not JSON Schema (validators ignore it); it was not imported',
        );
      } else {
        return err(ctx, ImportCodes.INVALID_SCHEMA, `${ptr}/required`, '`required` must be an array of property names');
      }
    } else {
      required = reqRaw as string[];
    }
  }
  const dup = required.filter((r, i) => required.indexOf(r) !== i);
  if (dup.length > 0) warn(ctx, ImportCodes.NOTE, `${ptr}/required`, `\`required\` lists ${dup.map((d) => `"${d}"`).join(', ')} more than once`);
  const requiredSet = new Set(required);
  const fields: Field[] = [];
  let failed = false;
  for (const [name, sub] of Object.entries(props ?? {})) {
    const t = convert(sub, `${ptr}/properties/${escapePointer(name)}`, ctx);
    if (t === undefined) {
      failed = true;
      continue;
    }
    const optional = !requiredSet.has(name);
    if (ctx.bfcl) checkPropertyOptional(ctx, sub, ptr, name, optional);
    fields.push(field(name, t, optional));
  }
  for (const r of required) {
    if (fields.some((f) => f.name === r)) continue;
    fields.push(field(r, anyType(), false));
  }
  if (ctx.bfcl) checkObjectOptional(ctx, s, ptr, requiredSet);
  let additional: false | Type | undefined;
  const ap = s['additionalProperties'];
  if (ap === false) additional = false;
  else if (ap === true || ap === undefined) additional = undefined;
  else {
    const t = convert(ap, `${ptr}/additionalProperties`, ctx);
    if (t === undefined) failed = true;
    else additional = t.kind === 'Any' && Object.keys(t.meta).length === 0 ? undefined : t;
  }
  const up = s['unevaluatedProperties'];
  if (up !== undefined) {
    if (up === false && (additional === undefined || additional === false)) additional = false;
    else if (up !== true)
      err(
        ctx,
        ImportCodes.UNSUPPORTED_KEYWORD,
        `${ptr}/unevaluatedProperties`,
        '`unevaluatedProperties` other than `false` on a plain object has no equivalent in gram types',
      );
  }
  if (failed) return undefined;
  return objectType(fields, meta, additional);
};

const buildArray = (s: JsonObject, ptr: string, ctx: Ctx, meta: Keywords): Type | undefined => {
  const items = s['items'];
  const prefix = Array.isArray(s['prefixItems']) ? s['prefixItems'] : Array.isArray(items) ? items : undefined;
  if (prefix !== undefined) {
    const n = prefix.length;
    const prefixKey = Array.isArray(s['prefixItems']) ? 'prefixItems' : 'items';
    const rest = Array.isArray(s['prefixItems']) ? items : s['additionalItems'];
    const closed = rest === false || meta.maxItems === n;
    const full = meta.minItems === n;
    if (!closed || !full || (meta.maxItems !== undefined && meta.maxItems !== n)) {
      return err(
        ctx,
        ImportCodes.UNSUPPORTED_KEYWORD,
        `${ptr}/${prefixKey}`,
        `a tuple whose items may be missing or extra (minItems ${meta.minItems ?? 'absent'}, maxItems ${meta.maxItems ?? 'absent'}, ${n} prefix items) has no equivalent: gram tuples \`(T1, T2)\` have exactly their items`,
      );
    }
    const types: Type[] = [];
    let failed = false;
    prefix.forEach((p, i) => {
      const t = convert(p, `${ptr}/${prefixKey}/${i}`, ctx);
      if (t === undefined) failed = true;
      else types.push(t);
    });
    if (failed) return undefined;
    const m: Record<string, JsonValue> = { ...(meta as Record<string, JsonValue>) };
    delete m['minItems'];
    delete m['maxItems'];
    return tupleType(types, m as Keywords);
  }
  if (s['additionalItems'] !== undefined) {
    warn(ctx, ImportCodes.KEYWORD_IGNORED, `${ptr}/additionalItems`, '`additionalItems` without an `items` array has no effect and was not imported');
  }
  if (items === false) {
    return err(ctx, ImportCodes.UNSUPPORTED_KEYWORD, `${ptr}/items`, '`items: false` (only the empty array) has no equivalent; write `maxItems: 0`');
  }
  let element: Type | undefined = anyType();
  if (items !== undefined && items !== true) element = convert(items, `${ptr}/items`, ctx);
  if (element === undefined) return undefined;
  return arrayType(element, meta);
};
