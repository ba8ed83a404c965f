/**
 * gram path → type signature: the compiler of signatures, and the seed's functional API over it
 * (`parseTypeSignature`, `typeSignatureToJSONSchema`).
 *
 * A signature is a path of nodes joined by right arrows; the last node is the return type, every
 * earlier node a parameter in order. A leading `(::Arguments {...})` node carries keywords of the
 * arguments object itself (`additionalProperties: false`, a description). See
 * `docs/type-signatures.md` for the whole language; every error has a code of `codes.ts` and a span.
 */
import type { Either } from 'fp-ts/lib/Either.js';
import type { Label, NodePattern, PathPattern, Property, StringValue, Value } from '../gram/ast.js';
import { type Diagnostic, error, warning } from '../core/diagnostic.js';
import { parseGram } from '../gram/parse.js';
import { type Span, span as mkSpan } from '../core/span.js';
import { SigCodes } from './codes.js';
import type { Checked } from './from-json-schema.js';
import { gramToJson, stringOffsets, stringText } from './gram-values.js';
import type { JsonObject, JsonValue } from '../core/json-schema.js';
import {
  KEYWORD_INFO,
  NUMBER_FORMATS,
  RANGE_KEYWORDS,
  STRING_FORMATS,
  checkKeywordValue,
  keywordApplies,
  keywordKinds,
  normalizeMeta,
} from './keywords.js';
import { ARGUMENTS_LABEL } from './print-signature.js';
import { didYouMean } from '../core/suggest.js';
import { argumentsSchema } from './to-json-schema.js';
import { IO_HINT, TYPE_NAMES, checkTypeExpression } from './type-expr.js';
import {
  type Field,
  type KeywordName,
  type Keywords,
  type ReturnType,
  type Type,
  type TypeSignature,
  arrayType,
  field,
  objectType,
  returnType,
  tupleType,
  typeEquals,
  typeSignature,
  unionType,
} from './types.js';
import { checkValue, explainProblems } from './value-check.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface SignatureOptions {
  readonly filename?: string;
  /** Strict gram conformance (nested values inside records are reported by the parser). */
  readonly strict?: boolean;
}

/** What the compiler needs besides the path. */
export interface CompileContext {
  /** The whole source text the path's spans point into. */
  readonly source: string;
  readonly file?: string;
  /**
   * Resolves a bare `(name)` node to the parameter that another signature of the same file
   * defines with that identifier (gram identity: the node is a reference).
   */
  readonly resolve?: (name: string) => Field | undefined;
  /** Whether a name has a definition in the file (that may have failed to compile, already reported). */
  readonly isDefined?: (name: string) => boolean;
}

/** A node of a signature that defines an identifier (for the file-level consistency check). */
export interface NamedNode {
  readonly name: string;
  readonly role: 'parameter' | 'return';
  readonly field: Field;
  readonly node: NodePattern;
}

/** A compiled signature with the nodes that define or reference identifiers. */
export interface CompiledSignature {
  readonly signature: TypeSignature;
  readonly definitions: ReadonlyArray<NamedNode>;
  readonly references: ReadonlyArray<{ readonly name: string; readonly node: NodePattern }>;
}

type Where = 'parameter' | 'return' | 'arguments' | 'field' | 'type';

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
type Props = ReadonlyMap<string, Property>;

interface Env {
  readonly source: string;
  readonly file?: string;
  readonly out: Diagnostic[];
}

// -------------------------------------------------------------------------------------------------
// diagnostics
// -------------------------------------------------------------------------------------------------

const fileOf = (env: Env) => (env.file !== undefined ? { file: env.file } : {});

const report = (env: Env, code: string, message: string, sp: Span | undefined, hint?: string, related?: Diagnostic['related']): void => {
  env.out.push(
    error(code, message, {
      ...(sp !== undefined ? { span: sp } : {}),
      ...fileOf(env),
      ...(hint !== undefined ? { hint } : {}),
      ...(related !== undefined ? { related } : {}),
    }),
  );
};

const hasErrors = (ds: ReadonlyArray<Diagnostic>, from = 0): boolean => {
  for (let i = from; i < ds.length; i++) if ((ds[i] as Diagnostic).severity === 'error') return true;
  return false;
};

// -------------------------------------------------------------------------------------------------
// properties
// -------------------------------------------------------------------------------------------------

/** A record or map as a key → property map; a key given twice keeps its last value (the parser warns). */
const propsOf = (entries: ReadonlyArray<Property>): Props => {
  const m = new Map<string, Property>();
  for (const p of entries) m.set(p.key.name, p);
  return m;
};

const stringOf = (p: Property, env: Env, code: string = SigCodes.INVALID_PROPERTY): string | undefined => {
  const v = p.value;
  if (v.kind === 'String') return stringText(v);
  if (v.kind === 'Symbol') return v.name;
  report(env, code, `\`${p.key.name}\` must be a string`, v.span);
  return undefined;
};

const booleanOf = (p: Property, env: Env): boolean | undefined => {
  if (p.value.kind === 'Boolean') return p.value.value;
  report(env, SigCodes.INVALID_PROPERTY, `\`${p.key.name}\` must be true or false`, p.value.span);
  return undefined;
};

const jsonOf = (p: Property, env: Env, what: string): JsonValue | undefined =>
  gramToJson(p.value, { mode: 'strict', what, ...fileOf(env) }, env.out);

/** Whether a key is the user's own (`x-owner`): kept out of the schema, never reported. */
export const isExtensionKey = (k: string): boolean => k.startsWith('x-') && k.length > 2;

/**
 * Unknown keys: `paramName` or `optional` on the last node is a forgotten return type (an error);
 * any other key is a warning with a suggestion (it is left out of the schema), and `x-` keys are
 * the user's own.
 */
const checkUnknownKeys = (props: Props, where: Where, env: Env, context: string): void => {
  const allowed = allowedKeys(where);
  for (const [k, p] of props) {
    if (allowed.includes(k) || isExtensionKey(k)) continue;
    if (where === 'return' && (k === 'paramName' || k === 'optional')) {
      report(env, SigCodes.MISSING_RETURN, `unknown property \`${k}\` on ${context}`, p.key.span, 'the last node of a signature is its return type: did you forget `==>(::String)` at the end?');
      continue;
    }
    let hint = didYouMean(k, allowed);
    if (hint === undefined && (k === 'required' || k === 'nullable')) hint = k === 'required' ? 'parameters are required unless `optional: true`, `Maybe T` or a `default` says otherwise' : 'write the type as `T | Null`';
    if (hint === undefined && where === 'arguments') hint = `the \`${ARGUMENTS_LABEL}\` node takes the keywords of the arguments object: ${allowedKeys('arguments').join(', ')}`;
    hint ??= `known properties: ${allowed.filter((a) => !KEYWORD_INFO.has(a)).join(', ')} and the JSON Schema keywords (description, enum, minimum, ...); a property of your own starts with \`x-\``;
    env.out.push(warning(SigCodes.UNKNOWN_PROPERTY, `unknown property \`${k}\` on ${context}: it is not part of the schema`, { span: p.key.span, ...fileOf(env), hint }));
  }
};

// -------------------------------------------------------------------------------------------------
// types from labels, `type` and structure keys
// -------------------------------------------------------------------------------------------------

interface Base {
  readonly type: Type;
  readonly maybe: boolean;
  readonly span: Span;
}

/** A label's text as a type expression (a symbol label is a type name; a backtick label may be any expression). */
const labelType = (label: Label, env: Env, allowMaybe: boolean): Base | undefined => {
  if (label.name === 'IO' || /^IO\s/.test(label.name)) {
    report(env, SigCodes.IO_TYPE, `\`${label.name}\` is an effect type, not a JSON type`, label.span, IO_HINT);
    return undefined;
  }
  const offset = label.span.start + label.separator.length + (label.style === 'backtick' ? 1 : 0);
  const r = checkTypeExpression(label.name, { offset: (i) => offset + i, ...fileOf(env), allowMaybe });
  env.out.push(...r.diagnostics);
  if (r.value === undefined) return undefined;
  return { type: r.value.type, maybe: r.value.optional, span: label.span };
};

const exprType = (v: StringValue, env: Env, allowMaybe: boolean): Base | undefined => {
  const r = checkTypeExpression(v.value, { offset: stringOffsets(env.source, v), ...fileOf(env), allowMaybe });
  env.out.push(...r.diagnostics);
  if (r.value === undefined) return undefined;
  return { type: r.value.type, maybe: r.value.optional, span: v.span };
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
const typeFromValue = (v: Value, env: Env, code: string, what: string, allowMaybe = false): Base | undefined => {
  if (v.kind === 'String') return exprType(v, env, allowMaybe);
  if (v.kind === 'Symbol') {
    const r = checkTypeExpression(v.name, { offset: (i) => v.span.start + i, ...fileOf(env), allowMaybe });
    env.out.push(...r.diagnostics);
    return r.value === undefined ? undefined : { type: r.value.type, maybe: r.value.optional, span: v.span };
  }
  if (v.kind === 'Map') {
    const props = propsOf(v.entries);
    checkUnknownKeys(props, 'type', env, what);
    const t = buildType(undefined, props, v.span, env, 'type', what, code);
    return t === undefined ? undefined : { type: t.type, maybe: t.maybe, span: v.span };
  }
  report(env, code, `${what} must be a type: a type expression in a string ("[String]") or a map ({type: "String", ...})`, v.span);
  return undefined;
};

const fieldFromMap = (v: Value, env: Env, index: number): Field | undefined => {
  if (v.kind !== 'Map') {
    report(env, SigCodes.MALFORMED_FIELDS, `field ${index + 1} must be a map such as {name: "city", type: "String"}`, v.span);
    return undefined;
  }
  const props = propsOf(v.entries);
  const nameProp = props.get('name');
  const name = nameProp === undefined ? undefined : stringOf(nameProp, env, SigCodes.MALFORMED_FIELDS);
  if (nameProp === undefined) {
    report(env, SigCodes.MALFORMED_FIELDS, `field ${index + 1} has no \`name\``, v.span, 'write {name: "city", type: "String"}');
  } else if (name === '') {
    report(env, SigCodes.MALFORMED_FIELDS, `field ${index + 1} has an empty name`, nameProp.value.span);
  }
  const what = name === undefined ? `field ${index + 1}` : `field "${name}"`;
  checkUnknownKeys(props, 'field', env, what);
  const t = buildType(undefined, props, v.span, env, 'field', what, SigCodes.MALFORMED_FIELDS);
  if (t === undefined || name === undefined || name === '') return undefined;
  const optional = optionality(props, t, env);
  if (optional === undefined) return undefined;
  return field(name, t.type, optional, v.span);
};

const optionality = (props: Props, t: { readonly type: Type; readonly maybe: boolean }, env: Env): boolean | undefined => {
  const p = props.get('optional');
  if (p === undefined) return t.maybe || t.type.meta.default !== undefined;
  const o = booleanOf(p, env);
  if (o === undefined) return undefined;
  if (o === false && t.maybe) {
    report(env, SigCodes.INVALID_PROPERTY, '`optional: false` contradicts `Maybe`', p.value.span, 'remove one of them');
    return undefined;
  }
  return o;
};

/** A structure key (`fields`, `elementType`, ...) when the base type allows it (reported otherwise). */
const structureKey = (props: Props, key: string, kind: 'Object' | 'Array' | 'Any', base: Base | undefined, env: Env): Property | undefined => {
  const p = props.get(key);
  if (p === undefined) return undefined;
  if (base !== undefined && !isBare(base.type, kind)) {
    report(env, SigCodes.TYPE_CONFLICT, `\`${key}\` describes ${kind === 'Any' ? 'a union' : `an ${kind}`}, but the type is ${describe(base.type)}`, p.key.span, kind === 'Any' ? 'use the label `Any` with `anyOf`' : `use the label \`${kind}\` with \`${key}\``);
    return undefined;
  }
  return p;
};

/**
 * Builds a type from a base (a label) and the properties of a node or map: `type`, the structure
 * keys, the keywords, and checks of values against the type.
 */
const buildType = (
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
      report(env, SigCodes.MALFORMED_TYPE, '`type` must be a type expression in a string, e.g. "[String]" or "{name: String}"', v.span);
    } else {
      const t = typeFromValue(v, env, SigCodes.MALFORMED_TYPE, '`type`', allowMaybe);
      if (t !== undefined) {
        if (base !== undefined && !compatible(base.type, t.type)) {
          report(env, SigCodes.TYPE_CONFLICT, `the label says ${describe(base.type)} but \`type\` says ${describe(t.type)}`, v.span, 'use `Object`, `Array` or `Any` as the label when `type` gives the details', [{ message: 'label', span: base.span }]);
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
    report(env, SigCodes.TYPE_CONFLICT, `\`${(shapes[0] as Property).key.name}\` and \`${second.key.name}\` cannot describe one type`, second.key.span);
    return undefined;
  }
  if (fieldsP !== undefined) {
    const v = fieldsP.value;
    if (v.kind !== 'Array') {
      report(env, SigCodes.MALFORMED_FIELDS, '`fields` must be a list of field maps, e.g. [{name: "city", type: "String"}]', v.span);
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
          report(env, SigCodes.DUPLICATE_FIELD, `field "${f.name}" is defined twice`, item.span, undefined, [{ message: 'first defined here', span: prev }]);
          ok = false;
        }
        seen.set(f.name, item.span);
        fields.push(f);
      });
      if (ok) built = objectType(fields, {}, undefined, fieldsP.value.span);
    }
  } else if (elemP !== undefined) {
    const e = typeFromValue(elemP.value, env, SigCodes.MALFORMED_ELEMENT_TYPE, '`elementType`');
    if (e !== undefined) built = arrayType(e.type, {}, elemP.value.span);
  } else if (elemsP !== undefined) {
    const v = elemsP.value;
    if (v.kind !== 'Array' || v.items.length < 2) {
      report(env, SigCodes.MALFORMED_ELEMENT_TYPE, '`elementTypes` must list the types of a tuple, at least two: ["Number", "Number"]', v.span);
    } else {
      const items = v.items.map((i, n) => typeFromValue(i, env, SigCodes.MALFORMED_ELEMENT_TYPE, `element type ${n + 1}`));
      if (items.every((i) => i !== undefined)) built = tupleType(items.map((i) => (i as Base).type), {}, v.span);
    }
  } else if (anyOfP !== undefined) {
    const v = anyOfP.value;
    if (v.kind !== 'Array' || v.items.length < 2) {
      report(env, SigCodes.MALFORMED_TYPE, '`anyOf` must list at least two types: ["String", "Null"]', v.span);
    } else {
      const members = v.items.map((i, n) => typeFromValue(i, env, SigCodes.MALFORMED_TYPE, `union member ${n + 1}`));
      if (members.every((m) => m !== undefined)) built = unionType(members.map((m) => (m as Base).type), {}, v.span);
    }
  }
  if (addP !== undefined) {
    const current: Type | undefined = built ?? (base === undefined ? objectType([]) : undefined);
    if (current === undefined || current.kind !== 'Object' || current.additional !== undefined) {
      report(env, SigCodes.TYPE_CONFLICT, `\`additionalProperties\` applies to objects, but the type is ${current === undefined ? 'not an object' : describe(current)}`, addP.key.span);
    } else {
      const v = addP.value;
      let additional: false | Type | undefined;
      let ok = true;
      if (v.kind === 'Boolean') additional = v.value ? undefined : false;
      else {
        const t = typeFromValue(v, env, SigCodes.MALFORMED_TYPE, '`additionalProperties`');
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

const describe = (t: Type): string => {
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
const keywords = (t: Type, props: Props, env: Env, what: string): Keywords | undefined => {
  const start = env.out.length;
  const out: Record<string, JsonValue> = {};
  const spans = new Map<string, Span>();
  for (const [k, p] of props) {
    if (k === 'range') continue;
    const info = KEYWORD_INFO.get(k);
    if (info === undefined) continue;
    if (!keywordApplies(k as KeywordName, t.kind)) {
      report(env, SigCodes.CONSTRAINT_TYPE, `\`${k}\` does not apply to ${describe(t)} (it applies to ${keywordKinds(k as KeywordName)})`, p.key.span, constraintHint(k as KeywordName, t));
      continue;
    }
    const v = jsonOf(p, env, `\`${k}\` of ${what}`);
    if (v === undefined) continue;
    const problem = checkKeywordValue(k as KeywordName, v);
    if (problem !== undefined) {
      report(env, SigCodes.INVALID_CONSTRAINT, problem, p.value.span);
      continue;
    }
    if (k === 'format') {
      const f = v as string;
      const known = STRING_FORMATS.has(f) || NUMBER_FORMATS.has(f);
      if (!known) {
        env.out.push(warning(SigCodes.UNKNOWN_FORMAT, `format "${f}" is not one gramkit checks: values are not validated against it`, { span: p.value.span, ...fileOf(env), hint: didYouMean(f, [...STRING_FORMATS, ...NUMBER_FORMATS]) ?? `known formats: ${[...STRING_FORMATS].join(', ')}` }));
      } else if (STRING_FORMATS.has(f) ? t.kind !== 'String' : t.kind === 'String') {
        report(env, SigCodes.CONSTRAINT_TYPE, `format "${f}" applies to ${STRING_FORMATS.has(f) ? 'strings' : 'numbers'}, not to ${describe(t)}`, p.value.span);
        continue;
      }
    }
    out[k] = v;
    spans.set(k, p.value.span);
  }
  const rangeP = props.get('range');
  if (rangeP !== undefined) {
    const pair = RANGE_KEYWORDS[t.kind];
    const v = rangeP.value;
    if (pair === undefined) {
      report(env, SigCodes.CONSTRAINT_TYPE, `\`range\` does not apply to ${describe(t)} (it bounds numbers, string lengths, array lengths and property counts)`, rangeP.key.span);
    } else if (v.kind !== 'Range') {
      report(env, SigCodes.INVALID_CONSTRAINT, '`range` must be a gram range: `1..10`, `1...` or `...10`', v.span);
    } else {
      const bounds: Array<[KeywordName, Value | undefined]> = [
        [pair[0], v.lower],
        [pair[1], v.upper],
      ];
      for (const [k, b] of bounds) {
        if (b === undefined) continue;
        if (!NUMERIC_KINDS.has(b.kind)) {
          report(env, SigCodes.INVALID_CONSTRAINT, `a range bound must be a number, got ${b.kind === 'Measurement' ? `the measurement ${b.raw}` : b.kind}`, b.span);
          continue;
        }
        const n = (b as { value: number }).value;
        const problem = checkKeywordValue(k, n);
        if (problem !== undefined) {
          report(env, SigCodes.INVALID_CONSTRAINT, `range bound: ${problem}`, b.span);
          continue;
        }
        if (out[k] !== undefined) {
          report(env, SigCodes.INVALID_CONSTRAINT, `\`range\` and \`${k}\` both bound ${what}`, rangeP.key.span, 'keep one of them', [{ message: `\`${k}\` given here`, span: spans.get(k) as Span }]);
          continue;
        }
        out[k] = n;
        spans.set(k, b.span);
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
      report(env, SigCodes.INVALID_CONSTRAINT, `\`${lo}\` ${a} is above \`${hi}\` ${b}: no value fits`, spans.get(lo), undefined, [{ message: `\`${hi}\` here`, span: spans.get(hi) as Span }]);
    }
  }
  if (hasErrors(env.out, start)) return undefined;
  return normalizeMeta(out as Keywords);
};

const constraintHint = (k: KeywordName, t: Type): string | undefined => {
  if ((k === 'minLength' || k === 'maxLength') && (t.kind === 'Array' || t.kind === 'Tuple')) return `write \`${k === 'minLength' ? 'minItems' : 'maxItems'}\` for arrays`;
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
  return p.value.kind === 'Array' ? (p.value.items[i]?.span ?? p.value.span) : p.value.span;
};

/** enum, const, default and examples must be values of the type. */
const checkValues = (t: Type, props: Props, env: Env, what: string): void => {
  const m = t.meta;
  if (m.enum === undefined && m.const === undefined && m.default === undefined && m.examples === undefined) return;
  if (m.enum !== undefined) {
    const base = withoutValues(t, []);
    m.enum.forEach((v, i) => {
      const problems = checkValue(base, v);
      if (problems.length > 0) report(env, SigCodes.INVALID_CONSTRAINT, `enum value ${JSON.stringify(v)} is not a value of ${what}: ${explainProblems(problems)}`, itemSpan(props, 'enum', i));
    });
    if (m.enum.length === 0) report(env, SigCodes.INVALID_CONSTRAINT, '`enum` is empty: no value fits', props.get('enum')?.value.span);
  }
  if (m.const !== undefined) {
    const problems = checkValue(withoutValues(t, ['enum']), m.const);
    if (problems.length > 0) report(env, SigCodes.INVALID_CONSTRAINT, `const ${JSON.stringify(m.const)} is not a value of ${what}: ${explainProblems(problems)}`, props.get('const')?.value.span);
  }
  if (m.default !== undefined) {
    const problems = checkValue(withoutValues(t, ['enum', 'const']), m.default);
    if (problems.length > 0) {
      report(env, SigCodes.INVALID_DEFAULT, `the default ${JSON.stringify(m.default)} of ${what} is not valid: ${explainProblems(problems)}`, props.get('default')?.value.span, 'a default must be a value the parameter accepts');
    }
  }
  if (m.examples !== undefined) {
    const base = withoutValues(t, ['enum', 'const']);
    m.examples.forEach((v, i) => {
      const problems = checkValue(base, v);
      if (problems.length > 0) report(env, SigCodes.INVALID_EXAMPLE, `example ${JSON.stringify(v)} is not a valid value of ${what}: ${explainProblems(problems)}`, itemSpan(props, 'examples', i));
    });
  }
};

// -------------------------------------------------------------------------------------------------
// nodes
// -------------------------------------------------------------------------------------------------

const isEmptyNode = (n: NodePattern): boolean => n.subject === undefined;

const isArgumentsNode = (n: NodePattern): boolean => n.subject?.labels.length === 1 && n.subject.labels[0]?.name === ARGUMENTS_LABEL;

/** A node with only an identifier: a reference to a definition elsewhere in the file. */
const referenceName = (n: NodePattern): string | undefined =>
  n.subject !== undefined && n.subject.identifier !== undefined && n.subject.labels.length === 0 && n.subject.record === undefined ? n.subject.identifier.value : undefined;

/** The type of a parameter or return node from its label and record. */
const nodeType = (n: NodePattern, env: Env, role: 'parameter' | 'return', what: string): { readonly type: Type; readonly maybe: boolean; readonly props: Props } | undefined => {
  const subject = n.subject;
  const props = propsOf(subject?.record?.properties ?? []);
  checkUnknownKeys(props, role, env, what);
  const labels = subject?.labels ?? [];
  if (labels.length > 1) {
    const extra = labels[1] as Label;
    report(env, SigCodes.MULTIPLE_TYPES, `${what} has ${labels.length} labels; a node takes exactly one type`, mkSpan(extra.span.start, (labels[labels.length - 1] as Label).span.end), 'keep one type label, e.g. `::String`');
    return undefined;
  }
  let base: Base | undefined;
  if (labels.length === 1) {
    const l = labels[0] as Label;
    if (l.name === ARGUMENTS_LABEL) {
      report(env, SigCodes.ARGUMENTS_POSITION, `\`${ARGUMENTS_LABEL}\` describes the arguments object and must be the first node`, l.span);
      return undefined;
    }
    base = labelType(l, env, role === 'parameter');
    if (base === undefined) return undefined;
  } else {
    report(env, SigCodes.MISSING_TYPE, `${what} has no type label`, subject?.span ?? n.span, `write the type after the name, e.g. \`(${subject?.identifier?.value ?? ''}::String)\`; known types: ${Object.keys(TYPE_NAMES).join(', ')}`);
    return undefined;
  }
  if (role === 'return' && base.maybe) {
    report(env, SigCodes.MAYBE_POSITION, 'a return type cannot be `Maybe`', base.span, 'for a result that may be null write `T | Null`');
    return undefined;
  }
  const t = buildType(base, props, n.span, env, role, what, SigCodes.MISSING_TYPE);
  if (t === undefined) return undefined;
  if (role === 'return' && t.maybe) {
    report(env, SigCodes.MAYBE_POSITION, 'a return type cannot be `Maybe`', props.get('type')?.value.span ?? n.span, 'for a result that may be null write `T | Null`');
    return undefined;
  }
  return { ...t, props };
};

/**
 * The name of an anonymous parameter, `(::String)`: `arg` and its position among the parameters,
 * from 1 (`(::Text)==>(::String)` takes `{"arg1": "..."}`).
 */
export const anonymousParamName = (index: number): string => `arg${index + 1}`;

const isAnonymous = (n: NodePattern): boolean => n.subject?.identifier === undefined && !(n.subject?.record?.properties ?? []).some((p) => p.key.name === 'paramName');

/** The name a parameter node declares (its identifier, else a string `paramName`, else its position), if any. */
const declaredName = (n: NodePattern, index: number): string | undefined => {
  const id = n.subject?.identifier?.value;
  if (id !== undefined) return id;
  const pn = n.subject?.record?.properties.find((p) => p.key.name === 'paramName');
  if (pn === undefined) return anonymousParamName(index);
  return pn.value.kind === 'String' && pn.value.value !== '' ? pn.value.value : undefined;
};

/** A parameter node → field (name from the identifier or `paramName`). */
const parameter = (n: NodePattern, env: Env, index: number, resolve: CompileContext['resolve'], isDefined?: CompileContext['isDefined']): { field: Field; defines: boolean } | undefined => {
  const ref = referenceName(n);
  if (ref !== undefined) {
    const def = resolve?.(ref);
    if (def !== undefined) return { field: field(def.name, def.type, def.optional, n.span), defines: false };
    if (isDefined?.(ref) === true) return undefined;
    report(env, SigCodes.MISSING_TYPE, `parameter \`${ref}\` has no type${resolve !== undefined ? ', and no other signature in this file defines it' : ''}`, n.span, `write its type: \`(${ref}::String)\``);
    return undefined;
  }
  const subject = n.subject;
  const id = subject?.identifier?.value;
  const props = subject?.record?.properties ?? [];
  const pn = props.find((p) => p.key.name === 'paramName');
  const pnValue = pn === undefined ? undefined : stringOf(pn, env);
  if (pn !== undefined && pnValue === undefined) return undefined;
  const name = id ?? pnValue ?? (pn === undefined ? anonymousParamName(index) : undefined);
  const what = name === undefined ? `parameter ${index + 1}` : `parameter \`${name}\``;
  if (id !== undefined && pnValue !== undefined && id !== pnValue) {
    report(env, SigCodes.PARAM_NAME_MISMATCH, `parameter is named \`${id}\` by its identifier but "${pnValue}" by \`paramName\``, pn?.value.span, 'keep one of the two names', [{ message: 'identifier', span: subject?.identifier?.span as Span }]);
  }
  if (name === undefined || name === '') {
    report(env, SigCodes.MISSING_PARAM_NAME, `${what} has no name`, n.span, 'name it with an identifier, `(city::String)`, or with `paramName`, `(::String {paramName: "city"})`');
  }
  const t = nodeType(n, env, 'parameter', what);
  if (t === undefined || name === undefined || name === '') return undefined;
  const optional = optionality(t.props, t, env);
  if (optional === undefined) return undefined;
  return { field: field(name, t.type, optional, n.span), defines: id !== undefined };
};

const argumentsNode = (n: NodePattern, env: Env): { readonly meta: Keywords; readonly additional?: false | Type } | undefined => {
  const subject = n.subject;
  if (subject?.identifier !== undefined) {
    report(env, SigCodes.INVALID_PROPERTY, `the \`${ARGUMENTS_LABEL}\` node takes no name`, subject.identifier.span);
    return undefined;
  }
  const start = env.out.length;
  const props = propsOf(subject?.record?.properties ?? []);
  checkUnknownKeys(props, 'arguments', env, `the \`${ARGUMENTS_LABEL}\` node`);
  // closed unless `additionalProperties` says otherwise (`true`: open; a type: a map beyond the parameters)
  let additional: false | Type | undefined = false;
  const addP = props.get('additionalProperties');
  if (addP !== undefined) {
    const v = addP.value;
    if (v.kind === 'Boolean') additional = v.value ? undefined : false;
    else additional = typeFromValue(v, env, SigCodes.MALFORMED_TYPE, '`additionalProperties`')?.type;
  }
  const meta = keywords(objectType([]), props, env, 'the arguments');
  if (meta === undefined || hasErrors(env.out, start)) return undefined;
  checkValues(objectType([], meta, additional), props, env, 'the arguments');
  if (hasErrors(env.out, start)) return undefined;
  return additional === undefined ? { meta } : { meta, additional };
};

// -------------------------------------------------------------------------------------------------
// signatures
// -------------------------------------------------------------------------------------------------

/** Compiles a path (from a parsed document) to a signature, with every diagnostic. */
export const compileSignature = (path: PathPattern, ctx: CompileContext): Checked<CompiledSignature> => {
  const env: Env = { source: ctx.source, out: [], ...(ctx.file !== undefined ? { file: ctx.file } : {}) };
  const nodes = path.kind === 'Node' ? [path] : path.nodes;
  if (path.kind === 'Path') {
    for (const a of path.arrows) {
      if (a.direction !== 'right') {
        const written = a.direction === 'left' ? 'a left arrow' : a.direction === 'undirected' ? 'an undirected arrow' : 'a bidirectional arrow';
        report(env, SigCodes.ARROW_DIRECTION, `${written} in a signature: parameters flow left to right, into the return type`, a.span, `write \`${a.family}${a.family}>\` instead`);
      }
      if (a.bracketed || a.subject !== undefined) {
        report(env, SigCodes.ARROW_SUBJECT, 'arrows in a signature carry no labels or properties', a.span, 'write a plain arrow, `==>`');
      }
    }
  }
  const last = nodes[nodes.length - 1] as NodePattern;
  let params = nodes.slice(0, -1);
  let argsNode: NodePattern | undefined;
  if (params.length > 0 && isArgumentsNode(params[0] as NodePattern)) {
    argsNode = params[0] as NodePattern;
    params = params.slice(1);
  }
  if (params.length === 1 && isEmptyNode(params[0] as NodePattern) && argsNode === undefined) params = [];

  const definitions: NamedNode[] = [];
  const references: Array<{ name: string; node: NodePattern }> = [];
  const fields: Field[] = [];
  const seen = new Map<string, Span>();
  params.forEach((n, i) => {
    if (isEmptyNode(n)) {
      report(env, SigCodes.MISSING_PARAM_NAME, `parameter ${i + 1} is an empty node \`()\``, n.span, '`()` means "no parameters" only as the single node before the return type');
      return;
    }
    if (isArgumentsNode(n)) {
      report(env, SigCodes.ARGUMENTS_POSITION, `\`${ARGUMENTS_LABEL}\` describes the arguments object and must be the first node`, n.span);
      return;
    }
    const ref = referenceName(n);
    const name = declaredName(n, i);
    const prev = name === undefined ? undefined : seen.get(name);
    if (name !== undefined && prev !== undefined) {
      const anonymous = isAnonymous(n) ? ` (parameter ${i + 1} has no name, so it is named \`${name}\`)` : '';
      report(env, SigCodes.DUPLICATE_PARAM, `parameter \`${name}\` is declared twice${anonymous}`, n.span, 'parameter names are unique within a signature: name the parameters', [{ message: 'first declared here', span: prev }]);
    } else if (name !== undefined) {
      seen.set(name, n.span);
    }
    const p = parameter(n, env, i, ctx.resolve, ctx.isDefined);
    if (p === undefined || prev !== undefined) return;
    if (ref !== undefined) references.push({ name: ref, node: n });
    fields.push(p.field);
    if (p.defines) definitions.push({ name: p.field.name, role: 'parameter', field: p.field, node: n });
  });

  // the arguments object is closed by default: an undeclared argument is an error
  let args: { readonly meta: Keywords; readonly additional?: false | Type } | undefined = { meta: {}, additional: false };
  if (argsNode !== undefined) args = argumentsNode(argsNode, env);

  let ret: ReturnType | undefined;
  if (isEmptyNode(last)) {
    report(env, SigCodes.MISSING_RETURN, nodes.length === 1 ? 'an empty signature `()` has no return type' : 'the signature has no return type: its last node `()` is empty', last.span, 'end the signature with the type of the result, e.g. `==>(::String)`');
  } else if (isArgumentsNode(last)) {
    report(env, SigCodes.MISSING_RETURN, `the signature ends with the \`${ARGUMENTS_LABEL}\` node, not a return type`, last.span, 'end the signature with the type of the result, e.g. `==>(::String)`');
  } else {
    const ref = referenceName(last);
    if (ref !== undefined) {
      const def = ctx.resolve?.(ref);
      if (def !== undefined) {
        ret = returnType(def.type, ref, last.span);
        references.push({ name: ref, node: last });
      } else if (ctx.isDefined?.(ref) === true) {
        // its definition failed to compile and was reported there
      } else {
        report(env, SigCodes.MISSING_RETURN, `the last node \`(${ref})\` has no type, so the signature has no return type`, last.span, `the last node of a signature is the type of the result: write \`(${ref}::String)\` or add \`==>(::String)\``);
      }
    } else {
      const t = nodeType(last, env, 'return', 'the return type');
      const id = last.subject?.identifier?.value;
      if (t !== undefined) {
        ret = returnType(t.type, id, last.span);
        if (id !== undefined) definitions.push({ name: id, role: 'return', field: field(id, t.type, false, last.span), node: last });
      }
    }
  }
  if (ret === undefined || args === undefined || hasErrors(env.out)) return { diagnostics: env.out };
  const sig = typeSignature(fields, ret, args.meta, args.additional, path.span);
  return { value: { signature: sig, definitions, references }, diagnostics: env.out };
};

/** Whether a node defines an identifier (it has an identifier and a label or a record). */
export const definesIdentifier = (n: NodePattern): boolean =>
  n.subject?.identifier !== undefined && (n.subject.labels.length > 0 || n.subject.record !== undefined) && !isArgumentsNode(n);

/**
 * What a named node defines, compiled on its own (its diagnostics are discarded: the signature it
 * belongs to reports them). The file loader compares the definitions of one identifier.
 */
export const compileDefinition = (n: NodePattern, role: 'parameter' | 'return', ctx: CompileContext): Field | undefined => {
  const env: Env = { source: ctx.source, out: [] };
  if (role === 'parameter') {
    const p = parameter(n, env, 0, undefined);
    return p === undefined || hasErrors(env.out) ? undefined : p.field;
  }
  const id = n.subject?.identifier?.value;
  const t = nodeType(n, env, 'return', 'the return type');
  return t === undefined || id === undefined || hasErrors(env.out) ? undefined : field(id, t.type, false, n.span);
};

/** Parses signature text (a gram path) and compiles it, with every diagnostic (warnings too). */
export const checkTypeSignature = (text: string, options: SignatureOptions = {}): Checked<TypeSignature> => {
  const fileOpt = options.filename !== undefined ? { file: options.filename } : {};
  if (text.trim() === '') return { diagnostics: [error(SigCodes.EMPTY, 'the type signature is empty', { span: mkSpan(0, text.length), ...fileOpt, hint: 'write a path of nodes, e.g. `(name::String)==>(::String)`' })] };
  const parsed = parseGram(text, { ...(options.strict !== undefined ? { strict: options.strict } : {}), ...(options.filename !== undefined ? { filename: options.filename } : {}) });
  if (parsed._tag === 'Left') return { diagnostics: [...parsed.left, ...ioTypeHints(text, options.filename)] };
  const doc = parsed.right;
  const warnings = doc.warnings ?? [];
  const patterns = doc.patterns;
  if (patterns.length !== 1 || doc.header !== undefined) {
    const sp = patterns.length > 1 ? mkSpan((patterns[1] as PathPattern).span.start, doc.span.end) : doc.span;
    return { diagnostics: [...warnings, error(SigCodes.NOT_A_PATH, patterns.length === 0 ? 'the type signature has no nodes' : 'a type signature is one path of nodes', { span: sp, ...fileOpt, hint: 'join the nodes with arrows: `(a::String)==>(b::Integer)==>(::String)`' })] };
  }
  const p = patterns[0] as PathPattern | { kind: string; span: Span };
  if (p.kind !== 'Node' && p.kind !== 'Path') {
    return { diagnostics: [...warnings, error(SigCodes.NOT_A_PATH, 'a type signature is a path of nodes, not a subject pattern or annotation', { span: p.span, ...fileOpt, hint: 'write `(a::String)==>(::String)`' })] };
  }
  const r = compileSignature(p as PathPattern, { source: text, ...fileOpt });
  return r.value === undefined ? { diagnostics: [...warnings, ...r.diagnostics] } : { value: r.value.signature, diagnostics: [...warnings, ...r.diagnostics] };
};

/**
 * When gram rejects a signature, a Haskell effect type written as a label (`(::IO Text)`) is the
 * likely reason: say so, with the type-signature code, next to the syntax error.
 */
export const ioTypeHints = (text: string, file?: string): ReadonlyArray<Diagnostic> => {
  const out: Diagnostic[] = [];
  const re = /::?IO\s+([A-Za-z_[({][^)]*)/g;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const start = m.index + (m[0].startsWith('::') ? 2 : 1);
    const written = m[0].slice(m[0].startsWith('::') ? 2 : 1).trim();
    out.push(error(SigCodes.IO_TYPE, `\`${written}\` is an effect type, not a JSON type`, { span: mkSpan(start, start + written.length), hint: IO_HINT, ...(file !== undefined ? { file } : {}) }));
  }
  return out;
};

const toEither = <A>(r: Checked<A>): Either<ReadonlyArray<Diagnostic>, A> =>
  r.value === undefined ? { _tag: 'Left', left: r.diagnostics.filter((d) => d.severity === 'error') } : { _tag: 'Right', right: r.value };

/** Parses a type signature (gram path notation) to its structured form. */
export const parseTypeSignature = (text: string, options: SignatureOptions = {}): Either<ReadonlyArray<Diagnostic>, TypeSignature> =>
  toEither(checkTypeSignature(text, options));

/** The JSON Schema of a signature's arguments (`"type":"object"` at the root). */
export const typeSignatureToJSONSchema = (text: string, options: SignatureOptions = {}): Either<ReadonlyArray<Diagnostic>, JsonObject> => {
  const r = parseTypeSignature(text, options);
  return r._tag === 'Left' ? r : { _tag: 'Right', right: argumentsSchema(r.right) };
};
