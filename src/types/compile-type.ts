/**
 * The properties of a signature's node (or of a field, or a type map) → a type: the type label or
 * the `type` expression, the structure keys (`fields`, `elementType`, `anyOf`, ...), the JSON
 * Schema keywords (with `range`), and the values (`enum`, `default`, `examples`) checked against the
 * type. Every problem is reported into the compile environment with a code of codes.ts and a span.
 */
import { checkedDiagnostics, checkedValue } from '../core/either.js';
import type { Label, Property, StringValue, Value } from '../gram/ast.js';
import { keySpan } from '../gram/subject.js';
import { type Diagnostic, error, warning } from '../core/diagnostic.js';
import { type Span, spanOf } from '../core/span.js';
import { SpecCodes } from './codes.js';
import { gramToJson, stringOffsets, stringText } from './gram-values.js';
import type { JsonValue } from '../core/json-schema.js';
import { KEYWORD_INFO, NUMBER_FORMATS, RANGE_KEYWORDS, STRING_FORMATS, checkKeywordValue, keywordApplies, keywordKinds, normalizeMeta } from './keywords.js';
import { ARGUMENTS_LABEL } from './print-signature.js';
import { didYouMean } from '../core/suggest.js';
import { IO_HINT, checkTypeExpression } from './type-expr.js';
import { type Field, type KeywordName, type Keywords, type Type, arrayType, field, objectType, tupleType, typeEquals, unionType } from './types.js';
import { checkValue, explainProblems } from './value-check.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export type Where = 'parameter' | 'return' | 'arguments' | 'field' | 'type';

const STRUCTURE_KEYS = ['type', 'fields', 'elementType', 'elementTypes', 'anyOf', 'additionalProperties'] as const;

const allowedKeys = (where: Where): ReadonlyArray<string> => {
  const kws = [...KEYWORD_INFO.keys(), 'range'];
  switch (where) {
    case 'parameter':
      return ['paramName', 'optional', ...STRUCTURE_KEYS, ...kws];
    case 'return':
      return [...STRUCTURE_KEYS, ...kws];
    case 'arguments':
      return ['additionalProperties', 'title', 'description', 'minProperties', 'maxProperties', 'range', 'deprecated', 'examples'];
    case 'field':
      return ['name', 'optional', ...STRUCTURE_KEYS, ...kws];
    case 'type':
      return [...STRUCTURE_KEYS, ...kws];
  }
};

/** A record or map as a key → property map, reporting keys given twice. */
export type Props = ReadonlyMap<string, Property>;

/** Where diagnostics go while one path is compiled. */
export interface Env {
  readonly source: string;
  readonly file?: string;
  readonly out: Diagnostic[];
}

// -------------------------------------------------------------------------------------------------
// diagnostics
// -------------------------------------------------------------------------------------------------

export const fileOf = (env: Env) => (env.file !== undefined ? { file: env.file } : {});

export const report = (env: Env, code: string, message: string, sp: Span | undefined, hint?: string, related?: Diagnostic['related']): void => {
  env.out.push(
    error(code, message, {
      ...(sp !== undefined ? { span: sp } : {}),
      ...fileOf(env),
      ...(hint !== undefined ? { hint } : {}),
      ...(related !== undefined ? { related } : {}),
    }),
  );
};

export const hasErrors = (ds: ReadonlyArray<Diagnostic>, from = 0): boolean => {
  for (let i = from; i < ds.length; i++) if ((ds[i] as Diagnostic).severity === 'error') return true;
  return false;
};

// -------------------------------------------------------------------------------------------------
// properties
// -------------------------------------------------------------------------------------------------

/** A record or map as a key → property map; a key given twice keeps its last value (the parser warns). */
export const propsOf = (entries: ReadonlyArray<Property>): Props => {
  const m = new Map<string, Property>();
  for (const p of entries) m.set(p.key, p);
  return m;
};

export const stringOf = (p: Property, env: Env, code: string = SpecCodes.INVALID_PARAM_PROPERTY): string | undefined => {
  const v = p.value;
  if (v.kind === 'String') return stringText(v);
  if (v.kind === 'Symbol') return v.name;
  report(env, code, `\`${p.key}\` must be a string`, spanOf(v));
  return undefined;
};

export const booleanOf = (p: Property, env: Env): boolean | undefined => {
  if (p.value.kind === 'Boolean') return p.value.value;
  report(env, SpecCodes.INVALID_PARAM_PROPERTY, `\`${p.key}\` must be true or false`, spanOf(p.value));
  return undefined;
};

export const jsonOf = (p: Property, env: Env, what: string): JsonValue | undefined => gramToJson(p.value, { mode: 'strict', what, ...fileOf(env) }, env.out);

/** Whether a key is the user's own (`x-owner`): kept out of the schema, never reported. */
export const isExtensionKey = (k: string): boolean => k.startsWith('x-') && k.length > 2;

/**
 * Unknown keys: `paramName` or `optional` on the last node is a forgotten return type (an error);
 * any other key is a warning with a suggestion (it is left out of the schema), and `x-` keys are
 * the user's own.
 */
export const checkUnknownKeys = (props: Props, where: Where, env: Env, context: string): void => {
  const allowed = allowedKeys(where);
  for (const [k, p] of props) {
    if (allowed.includes(k) || isExtensionKey(k)) continue;
    if (where === 'return' && (k === 'paramName' || k === 'optional')) {
      report(
        env,
        SpecCodes.MISSING_RETURN,
        `unknown property \`${k}\` on ${context}`,
        keySpan(p),
        'the last node of a signature is its return type: did you forget `==>(::String)` at the end?',
      );
      continue;
    }
    let hint = didYouMean(k, allowed);
    if (hint === undefined && (k === 'required' || k === 'nullable'))
      hint = k === 'required' ? 'parameters are required unless `optional: true`, `Maybe T` or a `default` says otherwise' : 'write the type as `T | Null`';
    if (hint === undefined && where === 'arguments')
      hint = `the \`${ARGUMENTS_LABEL}\` node takes the keywords of the arguments object: ${allowedKeys('arguments').join(', ')}`;
    hint ??= `known properties: ${allowed.filter((a) => !KEYWORD_INFO.has(a)).join(', ')} and the JSON Schema keywords (description, enum, minimum, ...); a property of your own starts with \`x-\``;
    env.out.push(
      warning(SpecCodes.UNKNOWN_PROPERTY, `unknown property \`${k}\` on ${context}: it is not part of the schema`, { span: keySpan(p), ...fileOf(env), hint }),
    );
  }
};

// -------------------------------------------------------------------------------------------------
// types from labels, `type` and structure keys
// -------------------------------------------------------------------------------------------------

export interface Base {
  readonly type: Type;
  readonly maybe: boolean;
  readonly span: Span;
}

/** A label's text as a type expression (a symbol label is a type name; a backtick label may be any expression). */
export const labelType = (label: Label, env: Env, allowMaybe: boolean): Base | undefined => {
  if (label.name === 'IO' || /^IO\s/.test(label.name)) {
    report(env, SpecCodes.IO_TYPE, `\`${label.name}\` is an effect type, not a JSON type`, spanOf(label), IO_HINT);
    return undefined;
  }
  const offset = label.start + label.separator.length + (label.style === 'backtick' ? 1 : 0);
  const r = checkTypeExpression(label.name, { offset: (i) => offset + i, ...fileOf(env), allowMaybe });
  env.out.push(...checkedDiagnostics(r));
  const e = checkedValue(r);
  return e === undefined ? undefined : { type: e.type, maybe: e.optional, span: spanOf(label) };
};

export const exprType = (v: StringValue, env: Env, allowMaybe: boolean): Base | undefined => {
  const r = checkTypeExpression(v.value, { offset: stringOffsets(env.source, v), ...fileOf(env), allowMaybe });
  env.out.push(...checkedDiagnostics(r));
  const e = checkedValue(r);
  return e === undefined ? undefined : { type: e.type, maybe: e.optional, span: spanOf(v) };
};

const isBare = (t: Type, kind: 'Object' | 'Array' | 'Any'): boolean => {
  if (Object.keys(t.meta).length > 0) return false;
  if (kind === 'Object') return t.kind === 'Object' && t.fields.length === 0 && t.additional === undefined;
  if (kind === 'Array') return t.kind === 'Array' && t.items.kind === 'Any' && Object.keys(t.items.meta).length === 0;
  return t.kind === 'Any';
};

/** Whether `type: expr` may refine a label: the label is the bare kind of the expression, or the same type. */
const compatible = (label: Type, expr: Type): boolean => {
  if (isBare(label, 'Any')) return true;
  if (isBare(label, 'Object')) return expr.kind === 'Object';
  if (isBare(label, 'Array')) return expr.kind === 'Array' || expr.kind === 'Tuple';
  return typeEquals(label, expr);
};

/** A type written as a string (type expression) or a type map, inside `elementType`, `anyOf`, ... */
export const typeFromValue = (v: Value, env: Env, code: string, what: string, allowMaybe = false): Base | undefined => {
  if (v.kind === 'String') return exprType(v, env, allowMaybe);
  if (v.kind === 'Symbol') {
    const r = checkTypeExpression(v.name, { offset: (i) => v.start + i, ...fileOf(env), allowMaybe });
    env.out.push(...checkedDiagnostics(r));
    const e = checkedValue(r);
    return e === undefined ? undefined : { type: e.type, maybe: e.optional, span: spanOf(v) };
  }
  if (v.kind === 'Map') {
    const props = propsOf(v.entries);
    checkUnknownKeys(props, 'type', env, what);
    const t = buildType(undefined, props, spanOf(v), env, 'type', what, code);
    return t === undefined ? undefined : { type: t.type, maybe: t.maybe, span: spanOf(v) };
  }
  report(env, code, `${what} must be a type: a type expression in a string ("[String]") or a map ({type: "String", ...})`, spanOf(v));
  return undefined;
};

const fieldFromMap = (v: Value, env: Env, index: number): Field | undefined => {
  if (v.kind !== 'Map') {
    report(env, SpecCodes.MALFORMED_FIELDS, `field ${index + 1} must be a map such as {name: "city", type: "String"}`, spanOf(v));
    return undefined;
  }
  const props = propsOf(v.entries);
  const nameProp = props.get('name');
  const name = nameProp === undefined ? undefined : stringOf(nameProp, env, SpecCodes.MALFORMED_FIELDS);
  if (nameProp === undefined) {
    report(env, SpecCodes.MALFORMED_FIELDS, `field ${index + 1} has no \`name\``, spanOf(v), 'write {name: "city", type: "String"}');
  } else if (name === '') {
    report(env, SpecCodes.MALFORMED_FIELDS, `field ${index + 1} has an empty name`, spanOf(nameProp.value));
  }
  const what = name === undefined ? `field ${index + 1}` : `field "${name}"`;
  checkUnknownKeys(props, 'field', env, what);
  const t = buildType(undefined, props, spanOf(v), env, 'field', what, SpecCodes.MALFORMED_FIELDS);
  if (t === undefined || name === undefined || name === '') return undefined;
  const optional = optionality(props, t, env);
  if (optional === undefined) return undefined;
  return field(name, t.type, optional, spanOf(v));
};

export const optionality = (props: Props, t: { readonly type: Type; readonly maybe: boolean }, env: Env): boolean | undefined => {
  const p = props.get('optional');
  if (p === undefined) return t.maybe || t.type.meta.default !== undefined;
  const o = booleanOf(p, env);
  if (o === undefined) return undefined;
  if (o === false && t.maybe) {
    report(env, SpecCodes.INVALID_PARAM_PROPERTY, '`optional: false` contradicts `Maybe`', spanOf(p.value), 'remove one of them');
    return undefined;
  }
  return o;
};

/** A structure key (`fields`, `elementType`, ...) when the base type allows it (reported otherwise). */
export const structureKey = (props: Props, key: string, kind: 'Object' | 'Array' | 'Any', base: Base | undefined, env: Env): Property | undefined => {
  const p = props.get(key);
  if (p === undefined) return undefined;
  if (base !== undefined && !isBare(base.type, kind)) {
    report(
      env,
      SpecCodes.TYPE_CONFLICT,
      `\`${key}\` describes ${kind === 'Any' ? 'a union' : `an ${kind}`}, but the type is ${describe(base.type)}`,
      keySpan(p),
      kind === 'Any' ? 'use the label `Any` with `anyOf`' : `use the label \`${kind}\` with \`${key}\``,
    );
    return undefined;
  }
  return p;
};

/**
 * Builds a type from a base (a label) and the properties of a node or map: `type`, the structure
 * keys, the keywords, and checks of values against the type.
 */
export const buildType = (
  label: Base | undefined,
  props: Props,
  where: Span,
  env: Env,
  role: Where,
  what: string,
  missingCode: string,
): { readonly type: Type; readonly maybe: boolean } | undefined => {
  const start = env.out.length;
  const allowMaybe = role === 'parameter' || role === 'field';
  let base: Base | undefined = label;

  // `type`
  const typeProp = props.get('type');
  if (typeProp !== undefined) {
    const v = typeProp.value;
    if (v.kind !== 'String' && v.kind !== 'Symbol') {
      report(env, SpecCodes.MALFORMED_TYPE, '`type` must be a type expression in a string, e.g. "[String]" or "{name: String}"', spanOf(v));
    } else {
      const t = typeFromValue(v, env, SpecCodes.MALFORMED_TYPE, '`type`', allowMaybe);
      if (t !== undefined) {
        if (base !== undefined && !compatible(base.type, t.type)) {
          report(
            env,
            SpecCodes.TYPE_CONFLICT,
            `the label says ${describe(base.type)} but \`type\` says ${describe(t.type)}`,
            spanOf(v),
            'use `Object`, `Array` or `Any` as the label when `type` gives the details',
            [{ message: 'label', span: base.span }],
          );
        } else {
          base = { type: t.type, maybe: (base?.maybe ?? false) || t.maybe, span: t.span };
        }
      }
    }
  }

  // structure
  let built: Type | undefined = base?.type;
  const fieldsP = structureKey(props, 'fields', 'Object', base, env);
  const elemP = structureKey(props, 'elementType', 'Array', base, env);
  const elemsP = structureKey(props, 'elementTypes', 'Array', base, env);
  const anyOfP = structureKey(props, 'anyOf', 'Any', base, env);
  const addP = props.get('additionalProperties');
  const shapes = [fieldsP, elemP, elemsP, anyOfP].filter((p) => p !== undefined);
  if (shapes.length > 1) {
    const second = shapes[1] as Property;
    report(env, SpecCodes.TYPE_CONFLICT, `\`${(shapes[0] as Property).key}\` and \`${second.key}\` cannot describe one type`, keySpan(second));
    return undefined;
  }
  if (fieldsP !== undefined) {
    const v = fieldsP.value;
    if (v.kind !== 'Array') {
      report(env, SpecCodes.MALFORMED_FIELDS, '`fields` must be a list of field maps, e.g. [{name: "city", type: "String"}]', spanOf(v));
    } else {
      const fields: Field[] = [];
      const seen = new Map<string, Span>();
      let ok = true;
      v.items.forEach((item, i) => {
        const f = fieldFromMap(item, env, i);
        if (f === undefined) {
          ok = false;
          return;
        }
        const prev = seen.get(f.name);
        if (prev !== undefined) {
          report(env, SpecCodes.DUPLICATE_FIELD, `field "${f.name}" is defined twice`, spanOf(item), undefined, [
            { message: 'first defined here', span: prev },
          ]);
          ok = false;
        }
        seen.set(f.name, spanOf(item));
        fields.push(f);
      });
      if (ok) built = objectType(fields, {}, undefined, spanOf(fieldsP.value));
    }
  } else if (elemP !== undefined) {
    const e = typeFromValue(elemP.value, env, SpecCodes.MALFORMED_ELEMENT_TYPE, '`elementType`');
    if (e !== undefined) built = arrayType(e.type, {}, spanOf(elemP.value));
  } else if (elemsP !== undefined) {
    const v = elemsP.value;
    if (v.kind !== 'Array' || v.items.length < 2) {
      report(env, SpecCodes.MALFORMED_ELEMENT_TYPE, '`elementTypes` must list the types of a tuple, at least two: ["Number", "Number"]', spanOf(v));
    } else {
      const items = v.items.map((i, n) => typeFromValue(i, env, SpecCodes.MALFORMED_ELEMENT_TYPE, `element type ${n + 1}`));
      if (items.every((i) => i !== undefined))
        built = tupleType(
          items.map((i) => (i as Base).type),
          {},
          spanOf(v),
        );
    }
  } else if (anyOfP !== undefined) {
    const v = anyOfP.value;
    if (v.kind !== 'Array' || v.items.length < 2) {
      report(env, SpecCodes.MALFORMED_TYPE, '`anyOf` must list at least two types: ["String", "Null"]', spanOf(v));
    } else {
      const members = v.items.map((i, n) => typeFromValue(i, env, SpecCodes.MALFORMED_TYPE, `union member ${n + 1}`));
      if (members.every((m) => m !== undefined))
        built = unionType(
          members.map((m) => (m as Base).type),
          {},
          spanOf(v),
        );
    }
  }
  if (addP !== undefined) {
    const current: Type | undefined = built ?? (base === undefined ? objectType([]) : undefined);
    if (current === undefined || current.kind !== 'Object' || current.additional !== undefined) {
      report(
        env,
        SpecCodes.TYPE_CONFLICT,
        `\`additionalProperties\` applies to objects, but the type is ${current === undefined ? 'not an object' : describe(current)}`,
        keySpan(addP),
      );
    } else {
      const v = addP.value;
      let additional: false | Type | undefined;
      let ok = true;
      if (v.kind === 'Boolean') additional = v.value ? undefined : false;
      else {
        const t = typeFromValue(v, env, SpecCodes.MALFORMED_TYPE, '`additionalProperties`');
        if (t === undefined) ok = false;
        else additional = t.type;
      }
      if (ok) built = objectType(current.fields, current.meta, additional, current.span);
    }
  }
  if (hasErrors(env.out, start)) return undefined;
  if (built === undefined) {
    const text = role === 'field' ? `${what} has no type` : `${what} has no type`;
    report(env, missingCode, text, where, role === 'field' ? 'add `type: "String"` (or another type)' : 'add a type, e.g. `type: "String"`');
    return undefined;
  }

  // keywords
  const meta = keywords(built, props, env, what);
  if (meta === undefined) return undefined;
  const typed = { ...built, meta } as Type;
  checkValues(typed, props, env, what);
  if (hasErrors(env.out, start)) return undefined;
  return { type: typed, maybe: base?.maybe ?? false };
};

export const describe = (t: Type): string => {
  switch (t.kind) {
    case 'Object':
      return t.fields.length > 0 ? 'a record' : t.additional !== undefined && t.additional !== false ? 'a map' : 'an Object';
    case 'Array':
      return 'an Array';
    case 'Tuple':
      return 'a tuple';
    case 'Union':
      return 'a union';
    default:
      return t.kind;
  }
};

const NUMERIC_KINDS = new Set(['Integer', 'Decimal', 'Hexadecimal', 'Octal']);

/** The keywords of a node or map, checked against the type's kind. */
export const keywords = (t: Type, props: Props, env: Env, what: string): Keywords | undefined => {
  const start = env.out.length;
  const out: Record<string, JsonValue> = {};
  const spans = new Map<string, Span>();
  for (const [k, p] of props) {
    if (k === 'range') continue;
    const info = KEYWORD_INFO.get(k);
    if (info === undefined) continue;
    if (!keywordApplies(k as KeywordName, t.kind)) {
      report(
        env,
        SpecCodes.CONSTRAINT_TYPE,
        `\`${k}\` does not apply to ${describe(t)} (it applies to ${keywordKinds(k as KeywordName)})`,
        keySpan(p),
        constraintHint(k as KeywordName, t),
      );
      continue;
    }
    const v = jsonOf(p, env, `\`${k}\` of ${what}`);
    if (v === undefined) continue;
    const problem = checkKeywordValue(k as KeywordName, v);
    if (problem !== undefined) {
      report(env, SpecCodes.INVALID_CONSTRAINT, problem, spanOf(p.value));
      continue;
    }
    if (k === 'format') {
      const f = v as string;
      const known = STRING_FORMATS.has(f) || NUMBER_FORMATS.has(f);
      if (!known) {
        env.out.push(
          warning(SpecCodes.UNKNOWN_FORMAT, `format "${f}" is not one gramkit checks: values are not validated against it`, {
            span: spanOf(p.value),
            ...fileOf(env),
            hint: didYouMean(f, [...STRING_FORMATS, ...NUMBER_FORMATS]) ?? `known formats: ${[...STRING_FORMATS].join(', ')}`,
          }),
        );
      } else if (STRING_FORMATS.has(f) ? t.kind !== 'String' : t.kind === 'String') {
        report(
          env,
          SpecCodes.CONSTRAINT_TYPE,
          `format "${f}" applies to ${STRING_FORMATS.has(f) ? 'strings' : 'numbers'}, not to ${describe(t)}`,
          spanOf(p.value),
        );
        continue;
      }
    }
    out[k] = v;
    spans.set(k, spanOf(p.value));
  }
  const rangeP = props.get('range');
  if (rangeP !== undefined) {
    const pair = RANGE_KEYWORDS[t.kind];
    const v = rangeP.value;
    if (pair === undefined) {
      report(
        env,
        SpecCodes.CONSTRAINT_TYPE,
        `\`range\` does not apply to ${describe(t)} (it bounds numbers, string lengths, array lengths and property counts)`,
        keySpan(rangeP),
      );
    } else if (v.kind !== 'Range') {
      report(env, SpecCodes.INVALID_CONSTRAINT, '`range` must be a gram range: `1..10`, `1...` or `...10`', spanOf(v));
    } else {
      const bounds: Array<[KeywordName, Value | undefined]> = [
        [pair[0], v.lower],
        [pair[1], v.upper],
      ];
      for (const [k, b] of bounds) {
        if (b === undefined) continue;
        if (!NUMERIC_KINDS.has(b.kind)) {
          report(
            env,
            SpecCodes.INVALID_CONSTRAINT,
            `a range bound must be a number, got ${b.kind === 'Measurement' ? `the measurement ${b.raw}` : b.kind}`,
            spanOf(b),
          );
          continue;
        }
        const n = (b as { value: number }).value;
        const problem = checkKeywordValue(k, n);
        if (problem !== undefined) {
          report(env, SpecCodes.INVALID_CONSTRAINT, `range bound: ${problem}`, spanOf(b));
          continue;
        }
        if (out[k] !== undefined) {
          report(env, SpecCodes.INVALID_CONSTRAINT, `\`range\` and \`${k}\` both bound ${what}`, keySpan(rangeP), 'keep one of them', [
            { message: `\`${k}\` given here`, span: spans.get(k) as Span },
          ]);
          continue;
        }
        out[k] = n;
        spans.set(k, spanOf(b));
      }
    }
  }
  for (const [lo, hi] of [
    ['minimum', 'maximum'],
    ['minLength', 'maxLength'],
    ['minItems', 'maxItems'],
    ['minProperties', 'maxProperties'],
    ['exclusiveMinimum', 'exclusiveMaximum'],
  ] as const) {
    const a = out[lo];
    const b = out[hi];
    if (typeof a === 'number' && typeof b === 'number' && a > b) {
      report(env, SpecCodes.INVALID_CONSTRAINT, `\`${lo}\` ${a} is above \`${hi}\` ${b}: no value fits`, spans.get(lo), undefined, [
        { message: `\`${hi}\` here`, span: spans.get(hi) as Span },
      ]);
    }
  }
  if (hasErrors(env.out, start)) return undefined;
  return normalizeMeta(out as Keywords);
};

const constraintHint = (k: KeywordName, t: Type): string | undefined => {
  if ((k === 'minLength' || k === 'maxLength') && (t.kind === 'Array' || t.kind === 'Tuple'))
    return `write \`${k === 'minLength' ? 'minItems' : 'maxItems'}\` for arrays`;
  if ((k === 'minItems' || k === 'maxItems') && t.kind === 'String') return `write \`${k === 'minItems' ? 'minLength' : 'maxLength'}\` for strings`;
  if ((k === 'minimum' || k === 'maximum') && t.kind === 'String') return `write \`${k === 'minimum' ? 'minLength' : 'maxLength'}\` for string lengths`;
  if (t.kind === 'Union') return 'put the constraint on the union member it is meant for (in `anyOf`)';
  return undefined;
};

/** enum, const, default and examples must be values of the type. */
/** The type without some of its value keywords (enum, const, default, examples). */
const withoutValues = (t: Type, keep: ReadonlyArray<string>): Type => {
  const m: Record<string, unknown> = { ...t.meta };
  for (const k of ['enum', 'const', 'default', 'examples']) if (!keep.includes(k)) delete m[k];
  return { ...t, meta: m as Keywords } as Type;
};

/** The span of item `i` of an array property (or of the property's value). */
const itemSpan = (props: Props, key: string, i: number): Span | undefined => {
  const p = props.get(key);
  if (p === undefined) return undefined;
  return p.value.kind === 'Array' ? spanOf(p.value.items[i] ?? p.value) : spanOf(p.value);
};

/** enum, const, default and examples must be values of the type. */
export const checkValues = (t: Type, props: Props, env: Env, what: string): void => {
  const m = t.meta;
  if (m.enum === undefined && m.const === undefined && m.default === undefined && m.examples === undefined) return;
  if (m.enum !== undefined) {
    const base = withoutValues(t, []);
    m.enum.forEach((v, i) => {
      const problems = checkValue(base, v);
      if (problems.length > 0)
        report(
          env,
          SpecCodes.INVALID_CONSTRAINT,
          `enum value ${JSON.stringify(v)} is not a value of ${what}: ${explainProblems(problems)}`,
          itemSpan(props, 'enum', i),
        );
    });
    if (m.enum.length === 0) report(env, SpecCodes.INVALID_CONSTRAINT, '`enum` is empty: no value fits', spanOf(props.get('enum')?.value));
  }
  if (m.const !== undefined) {
    const problems = checkValue(withoutValues(t, ['enum']), m.const);
    if (problems.length > 0)
      report(
        env,
        SpecCodes.INVALID_CONSTRAINT,
        `const ${JSON.stringify(m.const)} is not a value of ${what}: ${explainProblems(problems)}`,
        spanOf(props.get('const')?.value),
      );
  }
  if (m.default !== undefined) {
    const problems = checkValue(withoutValues(t, ['enum', 'const']), m.default);
    if (problems.length > 0) {
      report(
        env,
        SpecCodes.INVALID_DEFAULT,
        `the default ${JSON.stringify(m.default)} of ${what} is not valid: ${explainProblems(problems)}`,
        spanOf(props.get('default')?.value),
        'a default must be a value the parameter accepts',
      );
    }
  }
  if (m.examples !== undefined) {
    const base = withoutValues(t, ['enum', 'const']);
    m.examples.forEach((v, i) => {
      const problems = checkValue(base, v);
      if (problems.length > 0)
        report(
          env,
          SpecCodes.INVALID_EXAMPLE,
          `example ${JSON.stringify(v)} is not a valid value of ${what}: ${explainProblems(problems)}`,
          itemSpan(props, 'examples', i),
        );
    });
  }
};
