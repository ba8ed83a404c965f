/**
 * Lowering of canonical schemas for Gemini `functionDeclarations[].parameters`: the OpenAPI 3.0
 * subset the API accepts, where any other key is an HTTP 400. Type arrays and null branches
 * become `nullable`, `const` and numeric enums become string enums (converted back by
 * `normalizeArguments`), `$ref` is inlined, exclusive bounds on integers become inclusive ones,
 * and what cannot be said in the subset is moved into the description (gramkit still validates
 * it). An object with no properties at the root means "no parameters": `parameters` is omitted.
 */
import { SCHEMA_KEYWORD_INFO } from '../schema-keywords.js';
import { stableStringify } from '../../core/stable-json.js';
import type { JsonObject, JsonSchema, JsonValue } from '../../core/json-schema.js';
import { DialectCodes, noteInfo, noteWarning, type Notes } from './dialect.js';
import { describePhrase, joinDescription, mergeAllOf, noteLowering, type Phrases, uniqueAnyOf } from './lower-common.js';
import { brief, describeSchema, isAnySchema, isObj, resolveRef, seg, typesOf } from './schema-walk.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** The keys of Gemini's `Schema` (js-genai `types.ts`); anything else is rejected. */
export const GEMINI_SCHEMA_KEYS: ReadonlySet<string> = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'items',
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'minProperties',
  'maxProperties',
  'minimum',
  'maximum',
  'pattern',
  'properties',
  'required',
  'propertyOrdering',
  'anyOf',
  'default',
  'example',
]);

export const GEMINI_TYPES: ReadonlySet<string> = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object', 'null']);

/** Formats Gemini accepts, per type. */
const GEMINI_FORMATS: Readonly<Record<string, ReadonlySet<string>>> = {
  string: new Set(['date-time', 'enum']),
  number: new Set(['float', 'double']),
  integer: new Set(['int32', 'int64']),
};

interface Ctx {
  readonly notes: Notes;
  readonly root: JsonObject;
  /** `$ref`s being inlined, to stop at recursion. */
  readonly expanding: ReadonlyArray<string>;
  flags: { closedNoted: boolean };
}

// -------------------------------------------------------------------------------------------------
// lowering
// -------------------------------------------------------------------------------------------------

/** The keywords of the shape (types, values, bounds, unions, object and array structure), lowered around the keyword loop of `gem`. */
const GEMINI_SHAPE: ReadonlySet<string> = new Set([
  'type',
  'nullable',
  'enum',
  'const',
  'properties',
  'required',
  'items',
  'prefixItems',
  'additionalItems',
  'additionalProperties',
  'anyOf',
  'oneOf',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minimum',
  'maximum',
]);

/** How the keywords Gemini does not enforce read in the description (the others: `keyword: value`). */
const GEMINI_PHRASES: Phrases = {
  multipleOf: (v) => `a multiple of ${String(v)}`,
};

const gem = (input: JsonSchema, path: ReadonlyArray<string>, ctx: Ctx): JsonObject => {
  const notes = ctx.notes;
  if (input === true) return {};
  if (input === false) {
    noteWarning(notes, DialectCodes.DROPPED, path, 'a schema that accepts nothing (false) has no Gemini form; no constraint sent');
    return { description: '(no value is accepted here)' };
  }
  // $ref: inline (recursion is not supported by Gemini)
  const ref = input['$ref'];
  if (typeof ref === 'string') {
    const name = ref.split('/').pop() ?? ref;
    const target = resolveRef(ctx.root, ref);
    const siblings: Record<string, JsonValue> = {};
    for (const [k, v] of Object.entries(input)) if (k !== '$ref') siblings[k] = v;
    if (target === undefined) {
      noteWarning(notes, DialectCodes.DROPPED, path, `unresolvable $ref ${brief(ref)} dropped`);
      return gem(siblings, path, ctx);
    }
    if (ctx.expanding.includes(ref)) {
      noteWarning(notes, DialectCodes.MOVED_TO_DESCRIPTION, path, `recursive $ref ${brief(ref)} cut: Gemini has no recursive schemas`);
      const d = joinDescription(siblings['description'] ?? (isObj(target) ? target['description'] : undefined), [`same structure as ${name}, nested`]);
      return { type: 'object', ...(d !== undefined ? { description: d } : {}) };
    }
    noteInfo(notes, DialectCodes.LOWERED, path, `$ref ${brief(ref)} inlined`);
    const inlined = gem(target, path, { ...ctx, expanding: [...ctx.expanding, ref] });
    if (Object.keys(siblings).length === 0) return inlined;
    const rest = gem(siblings, path, ctx);
    return { ...inlined, ...rest };
  }
  if (isAnySchema(input)) {
    const out: Record<string, JsonValue> = {};
    for (const k of ['title', 'description', 'default'] as const) if (input[k] !== undefined) out[k] = input[k] as JsonValue;
    const ex = input['examples'];
    if (Array.isArray(ex) && ex.length > 0) out['example'] = ex[0] as JsonValue;
    return out;
  }
  let s = input;
  if (Array.isArray(s['allOf'])) {
    const merged = mergeAllOf(s);
    if (merged !== undefined) {
      noteInfo(notes, DialectCodes.LOWERED, path, 'allOf merged into one object schema');
      s = merged;
    }
  }

  const out: Record<string, JsonValue> = {};
  const phrases: string[] = [];
  /** Annotations written into the description (Gemini has no keyword for them). */
  const annotations: string[] = [];
  const dropped: string[] = [];
  const unknown: string[] = [];
  let nullable = s['nullable'] === true;

  // type
  const types = typesOf(s);
  let type: string | undefined;
  if (types !== undefined) {
    const nonNull = types.filter((t) => t !== 'null');
    if (nonNull.length < types.length) nullable = true;
    if (nonNull.length === 0) type = 'null';
    else if (nonNull.length === 1) type = nonNull[0];
    else {
      out['anyOf'] = nonNull.map((t) => ({ type: t }));
      noteInfo(notes, DialectCodes.LOWERED, path, `type ${brief(types)} written as anyOf (Gemini takes one type per schema)`);
    }
    if (nullable && nonNull.length > 0 && nonNull.length < types.length) {
      noteInfo(notes, DialectCodes.LOWERED, path, `type ${brief(types)} written as nullable`);
    }
  }

  // enum and const
  const e = s['enum'];
  const c = 'const' in s ? [s['const']] : undefined;
  const values = Array.isArray(e) ? e : c;
  let enumOut: JsonValue[] | undefined;
  let enumFormat = false;
  if (values !== undefined) {
    const kw = Array.isArray(e) ? 'enum' : 'const';
    if (values.includes(null)) nullable = true;
    const nonNull = values.filter((v) => v !== null);
    if (nonNull.length === 0) type = 'null';
    else if (nonNull.every((v) => typeof v === 'string')) {
      enumOut = nonNull;
      type ??= 'string';
      if (kw === 'const') noteInfo(notes, DialectCodes.LOWERED, path, 'const written as a one-value enum');
    } else if (nonNull.every((v) => typeof v === 'string' || typeof v === 'number')) {
      const asText = nonNull.map((v) => String(v));
      if (new Set(asText).size < asText.length) {
        noteWarning(
          notes,
          DialectCodes.LOWERED,
          path,
          `${kw} values ${brief(nonNull)} collide once written as strings; the number form cannot be chosen by the model`,
        );
      }
      enumOut = [...new Set(asText)];
      enumFormat = true;
      type = 'string';
      noteInfo(
        notes,
        DialectCodes.LOWERED,
        path,
        `${kw} with numbers written as a string enum (Gemini enums are strings; normalizeArguments converts them back)`,
      );
    } else if (nonNull.every((v) => typeof v === 'boolean')) {
      type = 'boolean';
      if (new Set(nonNull).size < 2) phrases.push(`must be ${String(nonNull[0])}`);
    } else {
      phrases.push(`${kw}: ${brief(nonNull, 80)}`);
    }
  }
  if (type !== undefined) out['type'] = type;
  if (enumOut !== undefined) out['enum'] = enumOut;
  if (enumFormat) out['format'] = 'enum';

  // what happens to each keyword is the table's (schema-keywords.ts, `gemini`); the switch below
  // says only how a keyword the table lowers is lowered
  for (const [k, v] of Object.entries(s)) {
    if (GEMINI_SHAPE.has(k)) continue;
    const info = SCHEMA_KEYWORD_INFO.get(k);
    switch (info?.gemini) {
      case 'keep':
        out[k] = v;
        break;
      case 'describe': {
        const words = k === 'deprecated' ? (v === true ? 'deprecated' : undefined) : describePhrase(k, v, GEMINI_PHRASES);
        if (words !== undefined) (info.annotation ? annotations : phrases).push(words);
        break;
      }
      case 'lower':
        if (k === 'format') {
          if (enumFormat) break;
          const allowed = type !== undefined ? GEMINI_FORMATS[type] : undefined;
          if (typeof v === 'string' && allowed?.has(v)) out[k] = v;
          else phrases.push(`format: ${String(v)}`);
        } else if (k === 'examples') {
          if (Array.isArray(v) && v.length > 0) {
            out['example'] = v[0] as JsonValue;
            if (v.length > 1) noteInfo(notes, DialectCodes.DROPPED, path, `examples after the first dropped (Gemini takes one "example")`);
          }
        } else if (k === 'allOf') phrases.push(`must also match all of: ${brief(v, 80)}`);
        else unknown.push(k); // $ref: resolved before
        break;
      default:
        // `drop`: an annotation left out with a note; a keyword that validates, or one the table
        // does not know, with a warning (gramkit still validates it)
        if ((info?.gemini === 'drop' && info.annotation) || k.startsWith('x-')) dropped.push(k);
        else unknown.push(k);
    }
  }

  // numeric bounds: exclusive bounds on integers become inclusive ones
  const isInteger = type === 'integer';
  const bound = (incKey: 'minimum' | 'maximum', excKey: 'exclusiveMinimum' | 'exclusiveMaximum', dir: 1 | -1): void => {
    const inc = typeof s[incKey] === 'number' ? (s[incKey] as number) : undefined;
    const exc = typeof s[excKey] === 'number' ? (s[excKey] as number) : undefined;
    if (exc === undefined) {
      if (inc !== undefined) out[incKey] = inc;
      return;
    }
    if (isInteger) {
      const asInc = dir === 1 ? Math.floor(exc) + 1 : Math.ceil(exc) - 1;
      out[incKey] = inc === undefined ? asInc : dir === 1 ? Math.max(inc, asInc) : Math.min(inc, asInc);
      noteInfo(notes, DialectCodes.LOWERED, path, `${excKey} ${exc} written as ${incKey} ${asInc} (integers)`);
    } else {
      if (inc !== undefined && (dir === 1 ? inc > exc : inc < exc)) {
        out[incKey] = inc;
        return;
      }
      out[incKey] = exc;
      phrases.push(`${dir === 1 ? 'greater' : 'less'} than ${exc}`);
    }
  };
  bound('minimum', 'exclusiveMinimum', 1);
  bound('maximum', 'exclusiveMaximum', -1);

  // unions
  for (const k of ['anyOf', 'oneOf'] as const) {
    const branches = s[k];
    if (!Array.isArray(branches)) continue;
    const lowered: JsonObject[] = [];
    branches.forEach((b, i) => {
      const l = gem(b as JsonSchema, [...path, seg.keyword(k, i)], ctx);
      if (l['type'] === 'null' && Object.keys(l).length === 1) nullable = true;
      else lowered.push(l);
    });
    if (k === 'oneOf') noteInfo(notes, DialectCodes.LOWERED, path, 'oneOf written as anyOf');
    if (lowered.length === 1 && out['anyOf'] === undefined && out['type'] === undefined) {
      const only = lowered[0] as JsonObject;
      for (const [kk, vv] of Object.entries(only)) if (!(kk in out)) out[kk] = vv;
      noteInfo(notes, DialectCodes.LOWERED, path, `${k} with a null branch written as nullable`);
    } else if (lowered.length > 0) {
      out['anyOf'] = [...(Array.isArray(out['anyOf']) ? out['anyOf'] : []), ...lowered];
    }
  }

  // objects
  const props = s['properties'];
  if (isObj(props)) {
    const loweredProps: Record<string, JsonValue> = {};
    for (const [name, sub] of Object.entries(props)) loweredProps[name] = gem(sub as JsonSchema, [...path, seg.prop(name)], ctx);
    out['properties'] = loweredProps;
    const names = Object.keys(loweredProps);
    const req = Array.isArray(s['required']) ? s['required'].filter((r): r is string => typeof r === 'string') : [];
    const known = req.filter((r) => names.includes(r));
    if (known.length < req.length) {
      phrases.push(`required: ${req.filter((r) => !names.includes(r)).join(', ')}`);
    }
    if (known.length > 0) out['required'] = known;
    if (names.length > 1) out['propertyOrdering'] = names;
  } else if (Array.isArray(s['required']) && s['required'].length > 0) {
    phrases.push(`required: ${s['required'].join(', ')}`);
  }
  const ap = s['additionalProperties'];
  if (ap === false) {
    if (!ctx.flags.closedNoted) {
      ctx.flags.closedNoted = true;
      // a note, not a warning: gramkit's arguments objects are closed by default, and the local
      // validation of every call still rejects an undeclared argument
      noteInfo(
        notes,
        DialectCodes.DROPPED,
        path,
        'additionalProperties: false dropped (Gemini has no closed objects); unknown properties are rejected by local validation',
      );
    }
  } else if (isObj(ap) && !isAnySchema(ap)) {
    phrases.push(`other keys allowed, each ${describeSchema(ap)}`);
  }

  // arrays
  const isArray = type === 'array' || s['items'] !== undefined || Array.isArray(s['prefixItems']);
  if (isArray) {
    const draft07Tuple = Array.isArray(s['items']);
    const prefix = draft07Tuple ? (s['items'] as JsonValue[]) : Array.isArray(s['prefixItems']) ? s['prefixItems'] : undefined;
    const rest = draft07Tuple ? s['additionalItems'] : s['items'];
    if (prefix !== undefined && prefix.length > 0) {
      const positions = prefix.map((p, i) => gem(p as JsonSchema, [...path, seg.index(i)], ctx));
      const max = s['maxItems'];
      const closed = rest === false || (typeof max === 'number' && max <= prefix.length);
      const branches: JsonSchema[] = [...positions];
      if (!closed && rest !== undefined && rest !== true) branches.push(gem(rest as JsonSchema, [...path, seg.items], ctx));
      const anyRest = !closed && (rest === undefined || rest === true);
      out['items'] = (anyRest ? {} : uniqueAnyOf(branches)) as JsonValue;
      if (rest === false && typeof max !== 'number') out['maxItems'] = prefix.length;
      if (new Set(positions.map(stableStringify)).size > 1 || anyRest) {
        phrases.push(`items in this order: ${prefix.map((p, i) => `${i + 1}) ${describeSchema(p as JsonSchema)}`).join(', ')}`);
      }
    } else if (isObj(rest) || rest === true) {
      out['items'] = gem(rest as JsonSchema, [...path, seg.items], ctx);
    } else if (rest === false) {
      out['maxItems'] = 0;
      out['items'] = {};
    } else {
      out['items'] = {};
      noteInfo(notes, DialectCodes.LOWERED, path, 'array without "items": items {} added (Gemini requires items)');
    }
    if (type === undefined && out['anyOf'] === undefined) out['type'] = 'array';
  }

  if (nullable) out['nullable'] = true;
  const description = joinDescription(s['description'], [...annotations, ...phrases]);
  if (description !== undefined) out['description'] = description;
  noteLowering(
    notes,
    path,
    { annotations, phrases, dropped, unknown },
    {
      annotations: 'written into the description (Gemini schemas do not take these keywords)',
      phrases: "not expressible in Gemini's schema subset, moved into the description",
      dropped: 'annotations Gemini does not take',
    },
  );
  return out;
};

/**
 * Lowering for Gemini function `parameters`; undefined when the tool takes no parameters (Gemini
 * wants `parameters` omitted then).
 */
export const lowerGemini = (schema: JsonObject, notes: Notes): JsonObject | undefined => {
  const props = schema['properties'];
  const ap = schema['additionalProperties'];
  const noParams = (props === undefined || (isObj(props) && Object.keys(props).length === 0)) && (ap === undefined || ap === false);
  if (noParams && !Array.isArray(schema['anyOf']) && !Array.isArray(schema['oneOf']) && !Array.isArray(schema['allOf']) && typeof schema['$ref'] !== 'string') {
    noteInfo(notes, DialectCodes.LOWERED, [], 'no parameters: "parameters" omitted');
    return undefined;
  }
  return gem(schema, [], { notes, root: schema, expanding: [], flags: { closedNoted: false } });
};
