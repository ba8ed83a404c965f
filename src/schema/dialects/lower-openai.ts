/**
 * Lowering of canonical schemas for OpenAI function calling.
 *
 * - `lowerOpenAI` (non-strict `parameters`): the API takes broad JSON Schema, but rejects arrays
 *   without `items` and `additionalProperties: {}`; both are rewritten without changing what is
 *   accepted.
 * - `lowerOpenAIStrict` (`strict: true`, Structured Outputs rules): every object closed with
 *   `additionalProperties: false` and every property required, optional ones made nullable (the
 *   model sends `null` for "not given"; `normalizeArguments` removes it and validation applies the
 *   default); keywords the decoder does not take are moved into the description (gramkit still
 *   validates them); tuples become `items: {anyOf}`. What strict mode cannot express at all (a
 *   value of any type, maps with free keys, a root union) is returned as a blocker: the exporter
 *   then sends the tool with `strict: false` and says why.
 */
import { SCHEMA_KEYWORD_INFO } from '../schema-keywords.js';
import { stableStringify } from '../../core/stable-json.js';
import type { JsonObject, JsonSchema, JsonValue } from '../../core/json-schema.js';
import { DialectCodes, noteInfo, noteWarning, type Notes } from './dialect.js';
import { describePhrase, isSchema, joinDescription, mapValues, mergeAllOf, noteLowering, type Phrases, uniqueAnyOf } from './lower-common.js';
import {
  ARRAY_SUBSCHEMAS,
  MAP_SUBSCHEMAS,
  SINGLE_SUBSCHEMA,
  acceptsNull,
  brief,
  describeSchema,
  isAnySchema,
  isObj,
  jsonTypeOf,
  seg,
  showPath,
  typesOf,
} from './schema-walk.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** Formats the strict decoder accepts (OpenAI "Supported schemas"). */
export const OPENAI_STRICT_FORMATS: ReadonlySet<string> = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);

/** Documented limits of strict schemas. */
export const OPENAI_STRICT_LIMITS = {
  properties: 5000,
  nesting: 10,
  enumValues: 1000,
  stringChars: 120_000,
} as const;

export interface StrictLowering {
  readonly schema: JsonObject;
  /** Why the schema cannot be strict (empty when it can). */
  readonly blockers: ReadonlyArray<string>;
}

// -------------------------------------------------------------------------------------------------
// non-strict
// -------------------------------------------------------------------------------------------------

const loose = (s: JsonSchema, path: ReadonlyArray<string>, notes: Notes): JsonSchema => {
  if (typeof s === 'boolean') return s;
  const out: Record<string, JsonValue> = {};
  for (const [k, v] of Object.entries(s)) {
    if ((MAP_SUBSCHEMAS as ReadonlyArray<string>).includes(k) && isObj(v)) {
      out[k] = mapValues(v, (sub, name) => (isSchema(sub) ? loose(sub, [...path, k === 'properties' ? seg.prop(name) : `${k}.${name}`], notes) : sub));
    } else if ((ARRAY_SUBSCHEMAS as ReadonlyArray<string>).includes(k) && Array.isArray(v)) {
      out[k] = v.map((sub, i) => (isSchema(sub) ? loose(sub, [...path, k === 'prefixItems' ? seg.index(i) : seg.keyword(k, i)], notes) : sub));
    } else if (k === 'items' && Array.isArray(v)) {
      out[k] = v.map((sub, i) => (isSchema(sub) ? loose(sub, [...path, seg.index(i)], notes) : sub));
    } else if ((SINGLE_SUBSCHEMA as ReadonlyArray<string>).includes(k) && isSchema(v)) {
      out[k] = loose(v, [...path, k === 'items' ? seg.items : k], notes);
    } else {
      out[k] = v;
    }
  }
  const ap = out['additionalProperties'];
  if (isObj(ap) && Object.keys(ap).length === 0) {
    out['additionalProperties'] = true;
    noteInfo(notes, DialectCodes.LOWERED, path, 'additionalProperties {} written as true (OpenAI rejects an empty schema there)');
  }
  const t = typesOf(s);
  const isArray = (t !== undefined && t.includes('array')) || Array.isArray(s['prefixItems']);
  if (isArray && out['items'] === undefined) {
    const prefix = out['prefixItems'];
    const max = s['maxItems'];
    if (Array.isArray(prefix) && prefix.length > 0 && typeof max === 'number' && max <= prefix.length) {
      out['items'] = uniqueAnyOf(prefix as JsonSchema[]) as JsonValue;
      noteInfo(notes, DialectCodes.LOWERED, path, 'tuple: "items" added as the union of its positions (OpenAI requires items; prefixItems kept)');
    } else {
      out['items'] = {};
      noteInfo(notes, DialectCodes.LOWERED, path, 'array without "items": items {} added (OpenAI requires items)');
    }
  } else if (isArray && out['items'] === false && Array.isArray(out['prefixItems'])) {
    const prefix = out['prefixItems'] as JsonSchema[];
    out['items'] = uniqueAnyOf(prefix) as JsonValue;
    if (typeof out['maxItems'] !== 'number') out['maxItems'] = prefix.length;
    noteInfo(notes, DialectCodes.LOWERED, path, 'closed tuple: items false written as maxItems and the union of its positions');
  }
  return out;
};

/** Lowering for OpenAI non-strict function `parameters`. */
export const lowerOpenAI = (schema: JsonObject, notes: Notes): JsonObject => loose(schema, [], notes) as JsonObject;

// -------------------------------------------------------------------------------------------------
// strict
// -------------------------------------------------------------------------------------------------

interface StrictCtx {
  readonly notes: Notes;
  readonly root: JsonObject;
  readonly blockers: string[];
  closedNoted: boolean;
}

const block = (ctx: StrictCtx, path: ReadonlyArray<string>, why: string): void => {
  ctx.blockers.push(`${showPath(path)}: ${why}`);
};

/** `type` inferred from enum/const values: `[1, 2.5]` → number, `["a", null]` → string, null. */
const typesOfValues = (values: ReadonlyArray<unknown>): string[] => {
  const ts = new Set(values.map(jsonTypeOf));
  if (ts.has('number')) ts.delete('integer');
  return [...ts];
};

/** `1 character`, `3 characters`. */
const count = (n: JsonValue, one: string, many = `${one}s`): string => `${String(n)} ${n === 1 ? one : many}`;

/** The keywords of the shape (types, object and array structure), lowered around the keyword loop of `strictNode`. */
const STRICT_SHAPE: ReadonlySet<string> = new Set([
  'type',
  'nullable',
  'properties',
  'required',
  'additionalProperties',
  'unevaluatedProperties',
  'patternProperties',
  'items',
  'prefixItems',
  'additionalItems',
]);

/** How the keywords strict mode does not enforce read in the description (the others: `keyword: value`). */
const STRICT_PHRASES: Phrases = {
  minLength: (v) => `at least ${count(v, 'character')}`,
  maxLength: (v) => `at most ${count(v, 'character')}`,
  minProperties: (v) => `at least ${count(v, 'property', 'properties')}`,
  maxProperties: (v) => `at most ${count(v, 'property', 'properties')}`,
  minContains: (v) => `minContains: ${String(v)}`,
  maxContains: (v) => `maxContains: ${String(v)}`,
};

/** The annotations strict schemas do not take, as the description says them (a default is applied locally when null comes back). */
const strictAnnotation = (k: string, v: JsonValue, optional: boolean): string | undefined => {
  if (k === 'default') return optional ? `default: ${brief(v, 60)}, used when null` : `default: ${brief(v, 60)}`;
  if (k === 'examples')
    return Array.isArray(v) && v.length > 0
      ? `examples: ${v
          .slice(0, 3)
          .map((x) => brief(x, 40))
          .join(', ')}`
      : undefined;
  if (k === 'deprecated') return v === true ? 'deprecated' : undefined;
  return `${k}: ${brief(v, 60)}`;
};

const oneOrMany = (ts: ReadonlyArray<string>): JsonValue => (ts.length === 1 ? (ts[0] as string) : [...ts]);

/** Makes a lowered schema accept null too (it does not yet). */
const makeNullable = (s: JsonObject): JsonObject => {
  const { description, title } = s;
  const outer = (inner: JsonObject): JsonObject => {
    const o: Record<string, JsonValue> = {};
    if (title !== undefined) o['title'] = title;
    if (description !== undefined) o['description'] = description;
    o['anyOf'] = [inner, { type: 'null' }];
    return o;
  };
  const stripDoc = (x: JsonObject): JsonObject => {
    const o: Record<string, JsonValue> = {};
    for (const [k, v] of Object.entries(x)) if (k !== 'description' && k !== 'title') o[k] = v;
    return o;
  };
  if (typeof s['$ref'] === 'string' || 'const' in s) return outer(stripDoc(s));
  const t = typesOf(s);
  if (t === undefined) {
    const any = s['anyOf'];
    if (Array.isArray(any)) return { ...s, anyOf: [...any, { type: 'null' }] };
    return outer(stripDoc(s));
  }
  const out: Record<string, JsonValue> = { ...s, type: oneOrMany([...t, 'null']) };
  const e = s['enum'];
  if (Array.isArray(e)) out['enum'] = [...e, null];
  return out;
};

const strictNode = (input: JsonSchema, path: ReadonlyArray<string>, ctx: StrictCtx, optional = false): JsonObject => {
  if (input === false) {
    block(ctx, path, 'a schema that accepts nothing (false) has no strict form');
    return {};
  }
  if (input === true || isAnySchema(input)) {
    block(ctx, path, 'a value of any type (Any) has no strict form: strict mode needs a type for every value');
    return input === true ? {} : { ...input };
  }
  const merged = Array.isArray(input['allOf']) ? mergeAllOf(input) : undefined;
  if (Array.isArray(input['allOf'])) {
    if (merged === undefined) {
      block(ctx, path, 'allOf of schemas that are not plain objects has no strict form');
      return { ...input };
    }
    noteInfo(ctx.notes, DialectCodes.LOWERED, path, 'allOf merged into one object schema');
  }
  const s = merged ?? input;
  const notes = ctx.notes;
  const phrases: string[] = [];
  /** Annotations written into the description (nothing is lost: a default is applied locally when null comes back). */
  const annotations: string[] = [];
  const dropped: string[] = [];
  const unknown: string[] = [];
  let types = typesOf(s);
  const hasUnion = Array.isArray(s['anyOf']) || Array.isArray(s['oneOf']) || typeof s['$ref'] === 'string';
  if (s['nullable'] === true && types !== undefined && !types.includes('null')) types = [...types, 'null'];
  if (types === undefined && !hasUnion) {
    const e = s['enum'];
    if (Array.isArray(e)) types = typesOfValues(e);
    else if ('const' in s) types = typesOfValues([s['const']]);
    else if (isObj(s['properties']) || Array.isArray(s['required'])) types = ['object'];
    else if (s['items'] !== undefined || Array.isArray(s['prefixItems'])) types = ['array'];
    if (types !== undefined) noteInfo(notes, DialectCodes.LOWERED, path, `"type": ${brief(oneOrMany(types))} added (strict mode needs a type)`);
    else {
      block(ctx, path, 'a schema without a type (constraints only) has no strict form');
      return { ...s };
    }
  }

  const out: Record<string, JsonValue> = {};
  if (types !== undefined) out['type'] = oneOrMany(types);
  const isObject = types?.includes('object') ?? false;
  const isArray = types?.includes('array') ?? false;

  // what happens to each keyword is the table's (schema-keywords.ts, `openaiStrict`); the switch
  // below says only how a keyword the table lowers is lowered
  for (const [k, v] of Object.entries(s)) {
    if (STRICT_SHAPE.has(k)) continue;
    const info = SCHEMA_KEYWORD_INFO.get(k);
    switch (info?.openaiStrict) {
      case 'keep':
        out[k] = v;
        break;
      case 'describe': {
        const words = info.annotation ? strictAnnotation(k, v, optional) : describePhrase(k, v, STRICT_PHRASES);
        if (words !== undefined) (info.annotation ? annotations : phrases).push(words);
        break;
      }
      case 'lower':
        if (k === 'format') {
          if (typeof v === 'string' && OPENAI_STRICT_FORMATS.has(v)) out[k] = v;
          else phrases.push(`format: ${String(v)}`);
        } else if (k === 'anyOf' || k === 'oneOf') {
          if (Array.isArray(v)) {
            if (path.length === 0) block(ctx, path, 'a union (anyOf/oneOf) at the root has no strict form');
            const branches = v.map((b, i) => strictNode(b as JsonSchema, [...path, seg.keyword(k, i)], ctx));
            out['anyOf'] = [...(Array.isArray(out['anyOf']) ? out['anyOf'] : []), ...branches];
            if (k === 'oneOf') {
              const kinds = v.map((b) => (isObj(b) ? stableStringify(typesOf(b) ?? null) : 'x'));
              const disjoint = v.every((b) => isObj(b) && typesOf(b)?.length === 1) && new Set(kinds).size === kinds.length;
              if (disjoint) noteInfo(notes, DialectCodes.LOWERED, path, 'oneOf written as anyOf (its branches have distinct types)');
              else
                noteWarning(
                  notes,
                  DialectCodes.LOWERED,
                  path,
                  'oneOf written as anyOf: a value matching several branches is accepted by OpenAI and rejected by local validation',
                );
            }
          }
        } else if (k === '$defs' || k === 'definitions') {
          if (isObj(v)) out[k] = mapValues(v, (sub, name) => strictNode(sub as JsonSchema, [...path, `${k}.${name}`], ctx));
        } else unknown.push(k); // allOf: merged above, or the schema has no strict form
        break;
      default:
        // `drop`: an annotation left out with a note; a keyword that validates, or one the table
        // does not know, with a warning (gramkit still validates it)
        if ((info?.openaiStrict === 'drop' && info.annotation) || k.startsWith('x-')) dropped.push(k);
        else unknown.push(k);
    }
  }

  if (isObject) strictObject(s, out, path, ctx);
  if (isArray) strictArray(s, out, path, ctx, phrases);

  const description = joinDescription(s['description'], [...annotations, ...phrases]);
  if (description !== undefined) out['description'] = description;
  noteLowering(
    notes,
    path,
    { annotations, phrases, dropped, unknown },
    {
      annotations: 'written into the description (strict schemas do not take these keywords)',
      phrases: 'not enforced by the strict decoder, moved into the description',
      dropped: 'annotations strict schemas do not take',
    },
  );
  return out;
};

const strictObject = (s: JsonObject, out: Record<string, JsonValue>, path: ReadonlyArray<string>, ctx: StrictCtx): void => {
  const props = isObj(s['properties']) ? s['properties'] : {};
  const required = new Set(Array.isArray(s['required']) ? s['required'].filter((x): x is string => typeof x === 'string') : []);
  const lowered: Record<string, JsonValue> = {};
  const madeNullable: string[] = [];
  const keptNull: string[] = [];
  for (const [name, sub] of Object.entries(props)) {
    const subPath = [...path, seg.prop(name)];
    const isOptional = !required.has(name);
    let l = strictNode(sub as JsonSchema, subPath, ctx, isOptional);
    if (isOptional) {
      if (acceptsNull(sub as JsonSchema, ctx.root)) keptNull.push(name);
      else {
        l = makeNullable(l);
        madeNullable.push(name);
      }
    }
    lowered[name] = l;
  }
  for (const r of required) if (!(r in props)) block(ctx, [...path, seg.prop(r)], 'a required property without a schema in "properties" has no strict form');
  out['properties'] = lowered;
  out['required'] = Object.keys(lowered);
  if (madeNullable.length > 0) {
    noteInfo(
      ctx.notes,
      DialectCodes.LOWERED,
      path,
      `optional ${madeNullable.length === 1 ? 'property' : 'properties'} ${madeNullable.map((n) => `"${n}"`).join(', ')} made required and nullable (null means "not given"; normalizeArguments removes it)`,
    );
  }
  if (keptNull.length > 0) {
    noteWarning(
      ctx.notes,
      DialectCodes.LOWERED,
      path,
      `optional ${keptNull.length === 1 ? 'property' : 'properties'} ${keptNull.map((n) => `"${n}"`).join(', ')} already ${keptNull.length === 1 ? 'accepts' : 'accept'} null: strict mode makes ${keptNull.length === 1 ? 'it' : 'them'} required, so the model cannot leave ${keptNull.length === 1 ? 'it' : 'them'} out (null stays null)`,
    );
  }
  const ap = s['additionalProperties'];
  const uneval = s['unevaluatedProperties'];
  const pattern = s['patternProperties'];
  if (isObj(pattern) && Object.keys(pattern).length > 0) block(ctx, path, 'patternProperties (keys chosen by the model) has no strict form');
  if (ap === false || (ap === undefined && uneval === false)) {
    // already closed
  } else if (ap === true || (isObj(ap) && isAnySchema(ap))) {
    block(ctx, path, 'an object that allows any extra property has no strict form');
  } else if (isObj(ap)) {
    block(ctx, path, `a map (additionalProperties: ${brief(ap, 40)}) has no strict form`);
  } else if (Object.keys(props).length === 0 && path.length > 0) {
    block(ctx, path, 'an object without declared properties (any keys) has no strict form');
  } else if (Object.keys(props).length === 0) {
    noteInfo(ctx.notes, DialectCodes.LOWERED, path, 'no parameters: the arguments object is closed with additionalProperties: false');
  } else if (isObj(uneval)) {
    block(ctx, path, 'unevaluatedProperties with a schema has no strict form');
  } else if (!ctx.closedNoted) {
    ctx.closedNoted = true;
    noteInfo(ctx.notes, DialectCodes.LOWERED, path, 'objects closed with additionalProperties: false (only declared properties can be sent)');
  }
  out['additionalProperties'] = false;
};

const strictArray = (s: JsonObject, out: Record<string, JsonValue>, path: ReadonlyArray<string>, ctx: StrictCtx, phrases: string[]): void => {
  const draft07Tuple = Array.isArray(s['items']);
  const prefix = draft07Tuple ? (s['items'] as JsonValue[]) : Array.isArray(s['prefixItems']) ? s['prefixItems'] : undefined;
  const rest = draft07Tuple ? s['additionalItems'] : s['items'];
  if (prefix !== undefined && prefix.length > 0) {
    const positions = prefix.map((p, i) => strictNode(p as JsonSchema, [...path, seg.index(i)], ctx));
    const max = s['maxItems'];
    const closed = rest === false || (typeof max === 'number' && max <= prefix.length);
    const branches: JsonSchema[] = [...positions];
    if (!closed) {
      if (rest === undefined || rest === true || (isObj(rest) && isAnySchema(rest))) {
        block(ctx, path, 'a tuple that allows further items of any type has no strict form');
      } else {
        branches.push(strictNode(rest as JsonSchema, [...path, seg.items], ctx));
      }
    }
    out['items'] = uniqueAnyOf(branches) as JsonValue;
    if (rest === false && typeof max !== 'number') out['maxItems'] = prefix.length;
    const same = new Set(positions.map(stableStringify)).size === 1;
    if (!same) phrases.push(`items in this order: ${prefix.map((p, i) => `${i + 1}) ${describeSchema(p as JsonSchema)}`).join(', ')}`);
    else noteInfo(ctx.notes, DialectCodes.LOWERED, path, 'tuple of one item type written as an array of that type');
  } else if (rest !== undefined && rest !== true && !(isObj(rest) && isAnySchema(rest)) && rest !== false) {
    out['items'] = strictNode(rest as JsonSchema, [...path, seg.items], ctx);
  } else if (rest === false) {
    out['maxItems'] = 0;
    out['items'] = { type: 'string' };
    noteInfo(ctx.notes, DialectCodes.LOWERED, path, 'array that must be empty written as maxItems 0');
  } else {
    block(ctx, path, 'an array whose items may be of any type has no strict form');
  }
};

/** Lowering for OpenAI `strict: true`; `blockers` lists what strict mode cannot express. */
export const lowerOpenAIStrict = (schema: JsonObject, notes: Notes): StrictLowering => {
  const ctx: StrictCtx = { notes, root: schema, blockers: [], closedNoted: false };
  const t = typesOf(schema);
  if (t !== undefined && !(t.length === 1 && t[0] === 'object')) {
    block(ctx, [], 'the root must be a single "object" type');
  }
  const rootInput: JsonObject = t === undefined ? { type: 'object', ...schema } : schema;
  const root = strictNode(isAnySchema(schema) ? { type: 'object', properties: {}, ...schema } : rootInput, [], ctx);
  checkLimits(root, [], notes);
  return { schema: root, blockers: ctx.blockers };
};

// -------------------------------------------------------------------------------------------------
// utilities: documented limits
// -------------------------------------------------------------------------------------------------

const checkLimits = (schema: JsonObject, path: ReadonlyArray<string>, notes: Notes): void => {
  let properties = 0;
  let maxDepth = 0;
  let chars = 0;
  const bigEnums: string[] = [];
  const walk = (s: JsonValue, depth: number, p: ReadonlyArray<string>): void => {
    if (!isObj(s)) return;
    const props = s['properties'];
    if (isObj(props)) {
      maxDepth = Math.max(maxDepth, depth + 1);
      for (const [k, v] of Object.entries(props)) {
        properties++;
        chars += k.length;
        walk(v, depth + 1, [...p, seg.prop(k)]);
      }
    }
    const e = s['enum'];
    if (Array.isArray(e)) {
      if (e.length > OPENAI_STRICT_LIMITS.enumValues) bigEnums.push(showPath(p));
      for (const x of e) if (typeof x === 'string') chars += x.length;
    }
    if (typeof s['const'] === 'string') chars += (s['const'] as string).length;
    if (isObj(s['items'])) walk(s['items'], depth, [...p, seg.items]);
    for (const k of ['anyOf', '$defs', 'definitions'] as const) {
      const v = s[k];
      if (Array.isArray(v)) v.forEach((b, i) => walk(b, depth, [...p, seg.keyword(k, i)]));
      else if (isObj(v)) for (const [name, b] of Object.entries(v)) walk(b, depth, [...p, `${k}.${name}`]);
    }
  };
  walk(schema, 0, path);
  const over: string[] = [];
  if (properties > OPENAI_STRICT_LIMITS.properties) over.push(`${properties} properties (limit ${OPENAI_STRICT_LIMITS.properties})`);
  if (maxDepth > OPENAI_STRICT_LIMITS.nesting) over.push(`${maxDepth} levels of nesting (limit ${OPENAI_STRICT_LIMITS.nesting})`);
  if (chars > OPENAI_STRICT_LIMITS.stringChars) over.push(`${chars} characters of names and enum values (limit ${OPENAI_STRICT_LIMITS.stringChars})`);
  if (bigEnums.length > 0) over.push(`enums with more than ${OPENAI_STRICT_LIMITS.enumValues} values at ${bigEnums.join(', ')}`);
  if (over.length > 0) noteWarning(notes, DialectCodes.LIMIT_EXCEEDED, path, `exceeds OpenAI strict-mode limits: ${over.join('; ')}`);
};
