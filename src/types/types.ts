/**
 * The type ADT: one readonly tagged union that every interpreter reads (JSON Schema emitter and
 * importer, gram printer, TypeScript generator, value checker, fast-check arbitrary).
 *
 * A type is a `kind` plus its `meta`: the JSON Schema keywords that document or constrain it
 * (`description`, `enum`, `minimum`, `default`, ...; see `keywords.ts`). Structure lives in the
 * kinds: arrays have an element type, tuples their element types, objects their fields and what
 * they allow beyond them, unions their members. A `Field` says whether it is optional; a default
 * is part of the field type's meta, as in JSON Schema.
 *
 * Spans are optional and never take part in equality: a type built by the compiler points at the
 * source it came from, a type built by the importer has none.
 */
import type { Span } from '../core/span.js';
import { jsonEqual } from '../core/json-equal.js';
import type { JsonValue } from '../core/json-schema.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** The JSON Schema keywords a type may carry besides its structure (see `keywords.ts` for where each applies). */
export interface Keywords {
  readonly title?: string;
  readonly description?: string;
  readonly default?: JsonValue;
  readonly examples?: ReadonlyArray<JsonValue>;
  readonly deprecated?: boolean;
  readonly readOnly?: boolean;
  readonly writeOnly?: boolean;
  readonly enum?: ReadonlyArray<JsonValue>;
  readonly const?: JsonValue;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number;
  readonly exclusiveMaximum?: number;
  readonly multipleOf?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  readonly format?: string;
  readonly contentMediaType?: string;
  readonly contentEncoding?: string;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly uniqueItems?: boolean;
  readonly minProperties?: number;
  readonly maxProperties?: number;
}

export type KeywordName = keyof Keywords;

interface TypeBase {
  readonly meta: Keywords;
  /** Where the type was written, when it comes from a source text. */
  readonly span?: Span;
}

export interface StringType extends TypeBase {
  readonly kind: 'String';
}
export interface IntegerType extends TypeBase {
  readonly kind: 'Integer';
}
export interface NumberType extends TypeBase {
  readonly kind: 'Number';
}
export interface BooleanType extends TypeBase {
  readonly kind: 'Boolean';
}
/** The JSON value `null` (`T | Null` is a value that may be null; `Maybe T` is a field that may be absent). */
export interface NullType extends TypeBase {
  readonly kind: 'Null';
}
/** Any JSON value: the schema `{}`. */
export interface AnyType extends TypeBase {
  readonly kind: 'Any';
}
/** `[T]`: an array of any length whose elements are all `T`. */
export interface ArrayType extends TypeBase {
  readonly kind: 'Array';
  readonly items: Type;
}
/** `(T1, T2)`: an array of exactly these elements, in this order. */
export interface TupleType extends TypeBase {
  readonly kind: 'Tuple';
  readonly items: ReadonlyArray<Type>;
}

/** One property of an object (or one parameter of a signature). */
export interface Field {
  readonly name: string;
  readonly type: Type;
  /** Whether the property may be absent (not listed in `required`). */
  readonly optional: boolean;
  readonly span?: Span;
}

/**
 * `{a: T, b: U}`, `Map T`, or both. `additional` is what the object allows beyond its fields:
 * absent means anything (JSON Schema's default), `false` nothing (a closed object), a type means
 * values of that type (a map).
 */
export interface ObjectType extends TypeBase {
  readonly kind: 'Object';
  readonly fields: ReadonlyArray<Field>;
  readonly additional?: false | Type;
}

/** `A | B`: a value of any of the members (`anyOf`); always two members or more. */
export interface UnionType extends TypeBase {
  readonly kind: 'Union';
  readonly members: ReadonlyArray<Type>;
}

export type Type = StringType | IntegerType | NumberType | BooleanType | NullType | AnyType | ArrayType | TupleType | ObjectType | UnionType;

export type TypeKind = Type['kind'];

export type PrimitiveKind = 'String' | 'Integer' | 'Number' | 'Boolean' | 'Null' | 'Any';

/** The return type of a signature: its last node, optionally named (the name is documentation). */
export interface ReturnType {
  readonly name?: string;
  readonly type: Type;
  readonly span?: Span;
}

/**
 * A parsed type signature: the arguments object (its fields are the parameters, in order; its meta
 * and `additional` come from an optional leading `(::Arguments {...})` node; the compiler closes it
 * unless that node says `additionalProperties: true`) and the return type.
 */
export interface TypeSignature {
  readonly kind: 'TypeSignature';
  readonly args: ObjectType;
  readonly returns: ReturnType;
  readonly span?: Span;
}

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

const EMPTY: Keywords = Object.freeze({});

// literals, not `{ ...a, span }`: V8 makes a spread copy that gains a new key slow (about 1 µs)
export const stringType = (meta: Keywords = EMPTY, span?: Span): StringType => (span === undefined ? { kind: 'String', meta } : { kind: 'String', meta, span });
export const integerType = (meta: Keywords = EMPTY, span?: Span): IntegerType =>
  span === undefined ? { kind: 'Integer', meta } : { kind: 'Integer', meta, span };
export const numberType = (meta: Keywords = EMPTY, span?: Span): NumberType => (span === undefined ? { kind: 'Number', meta } : { kind: 'Number', meta, span });
export const booleanType = (meta: Keywords = EMPTY, span?: Span): BooleanType =>
  span === undefined ? { kind: 'Boolean', meta } : { kind: 'Boolean', meta, span };
export const nullType = (meta: Keywords = EMPTY, span?: Span): NullType => (span === undefined ? { kind: 'Null', meta } : { kind: 'Null', meta, span });
export const anyType = (meta: Keywords = EMPTY, span?: Span): AnyType => (span === undefined ? { kind: 'Any', meta } : { kind: 'Any', meta, span });
export const arrayType = (items: Type, meta: Keywords = EMPTY, span?: Span): ArrayType =>
  span === undefined ? { kind: 'Array', items, meta } : { kind: 'Array', items, meta, span };
export const tupleType = (items: ReadonlyArray<Type>, meta: Keywords = EMPTY, span?: Span): TupleType =>
  span === undefined ? { kind: 'Tuple', items, meta } : { kind: 'Tuple', items, meta, span };
export const objectType = (fields: ReadonlyArray<Field>, meta: Keywords = EMPTY, additional?: false | Type, span?: Span): ObjectType => {
  if (additional === undefined) return span === undefined ? { kind: 'Object', fields, meta } : { kind: 'Object', fields, meta, span };
  return span === undefined ? { kind: 'Object', fields, meta, additional } : { kind: 'Object', fields, meta, additional, span };
};
export const unionType = (members: ReadonlyArray<Type>, meta: Keywords = EMPTY, span?: Span): UnionType =>
  span === undefined ? { kind: 'Union', members, meta } : { kind: 'Union', members, meta, span };

export const field = (name: string, type: Type, optional = false, span?: Span): Field =>
  span === undefined ? { name, type, optional } : { name, type, optional, span };

/** A primitive type of the given kind. */
export const primitiveType = (kind: PrimitiveKind, meta: Keywords = EMPTY, span?: Span): Type =>
  (span === undefined ? { kind, meta } : { kind, meta, span }) as Type;

export const typeSignature = (
  params: ReadonlyArray<Field>,
  returns: ReturnType,
  argsMeta: Keywords = EMPTY,
  additional?: false | Type,
  span?: Span,
): TypeSignature => {
  const args = objectType(params, argsMeta, additional);
  return span === undefined ? { kind: 'TypeSignature', args, returns } : { kind: 'TypeSignature', args, returns, span };
};

export const returnType = (type: Type, name?: string, span?: Span): ReturnType => {
  if (name === undefined) return span === undefined ? { type } : { type, span };
  return span === undefined ? { name, type } : { name, type, span };
};

// -------------------------------------------------------------------------------------------------
// combinators
// -------------------------------------------------------------------------------------------------

/** One level of pattern matching on the kind. */
export const matchType =
  <R>(cases: { readonly [K in TypeKind]: (t: Extract<Type, { kind: K }>) => R }) =>
  (t: Type): R =>
    (cases[t.kind] as (t: Type) => R)(t);

/** What a fold receives for each kind: the node and its children already folded. */
export interface TypeAlgebra<R> {
  readonly String: (t: StringType) => R;
  readonly Integer: (t: IntegerType) => R;
  readonly Number: (t: NumberType) => R;
  readonly Boolean: (t: BooleanType) => R;
  readonly Null: (t: NullType) => R;
  readonly Any: (t: AnyType) => R;
  readonly Array: (t: ArrayType, items: R) => R;
  readonly Tuple: (t: TupleType, items: ReadonlyArray<R>) => R;
  readonly Object: (t: ObjectType, fields: ReadonlyArray<{ readonly field: Field; readonly value: R }>, additional: false | R | undefined) => R;
  readonly Union: (t: UnionType, members: ReadonlyArray<R>) => R;
}

/** The catamorphism: folds a type bottom-up. */
export const foldType =
  <R>(alg: TypeAlgebra<R>) =>
  (t: Type): R => {
    const go = (u: Type): R => {
      switch (u.kind) {
        case 'String':
          return alg.String(u);
        case 'Integer':
          return alg.Integer(u);
        case 'Number':
          return alg.Number(u);
        case 'Boolean':
          return alg.Boolean(u);
        case 'Null':
          return alg.Null(u);
        case 'Any':
          return alg.Any(u);
        case 'Array':
          return alg.Array(u, go(u.items));
        case 'Tuple':
          return alg.Tuple(u, u.items.map(go));
        case 'Object':
          return alg.Object(
            u,
            u.fields.map((f) => ({ field: f, value: go(f.type) })),
            u.additional === undefined || u.additional === false ? u.additional : go(u.additional),
          );
        case 'Union':
          return alg.Union(u, u.members.map(go));
      }
    };
    return go(t);
  };

/** The same type with new meta. */
export const withMeta = <T extends Type>(t: T, meta: Keywords): T => ({ ...t, meta });

/** Removes spans everywhere (for comparisons and serialization of types). */
export const stripSpans: (t: Type) => Type = foldType<Type>({
  String: (t) => stringType(t.meta),
  Integer: (t) => integerType(t.meta),
  Number: (t) => numberType(t.meta),
  Boolean: (t) => booleanType(t.meta),
  Null: (t) => nullType(t.meta),
  Any: (t) => anyType(t.meta),
  Array: (t, items) => arrayType(items, t.meta),
  Tuple: (t, items) => tupleType(items, t.meta),
  Object: (t, fields, additional) =>
    objectType(
      fields.map(({ field: f, value }) => field(f.name, value, f.optional)),
      t.meta,
      additional,
    ),
  Union: (t, members) => unionType(members, t.meta),
});

export const stripSignatureSpans = (s: TypeSignature): TypeSignature =>
  typeSignature(
    s.args.fields.map((f) => field(f.name, stripSpans(f.type), f.optional)),
    returnType(stripSpans(s.returns.type), s.returns.name),
    s.args.meta,
    s.args.additional === undefined || s.args.additional === false ? s.args.additional : stripSpans(s.args.additional),
  );

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

const metaEquals = (a: Keywords, b: Keywords): boolean => jsonEqual(a, b);

/** Structural equality, ignoring spans (and the order of keys inside JSON values). */
export const typeEquals = (a: Type, b: Type): boolean => {
  if (a.kind !== b.kind || !metaEquals(a.meta, b.meta)) return false;
  switch (a.kind) {
    case 'Array':
      return typeEquals(a.items, (b as ArrayType).items);
    case 'Tuple': {
      const bi = (b as TupleType).items;
      return a.items.length === bi.length && a.items.every((x, i) => typeEquals(x, bi[i] as Type));
    }
    case 'Union': {
      const bm = (b as UnionType).members;
      return a.members.length === bm.length && a.members.every((x, i) => typeEquals(x, bm[i] as Type));
    }
    case 'Object': {
      const bo = b as ObjectType;
      return objectEquals(a, bo);
    }
    default:
      return true;
  }
};

const objectEquals = (a: ObjectType, b: ObjectType): boolean => {
  if (a.fields.length !== b.fields.length) return false;
  for (let i = 0; i < a.fields.length; i++) {
    const fa = a.fields[i] as Field;
    const fb = b.fields[i] as Field;
    if (fa.name !== fb.name || fa.optional !== fb.optional || !typeEquals(fa.type, fb.type)) return false;
  }
  if (a.additional === undefined || a.additional === false || b.additional === undefined || b.additional === false) {
    return a.additional === b.additional;
  }
  return typeEquals(a.additional, b.additional);
};

export const fieldEquals = (a: Field, b: Field): boolean => a.name === b.name && a.optional === b.optional && typeEquals(a.type, b.type);

/** Structural equality of signatures (parameters, arguments meta, return type and its name). */
export const signatureEquals = (a: TypeSignature, b: TypeSignature): boolean =>
  typeEquals(a.args, b.args) && a.returns.name === b.returns.name && typeEquals(a.returns.type, b.returns.type);

/** Whether a type has any meta or non-default structure below its top level (used by printers). */
export const hasNestedMeta = (t: Type): boolean => {
  switch (t.kind) {
    case 'Array':
      return hasAnyMeta(t.items);
    case 'Tuple':
      return t.items.some(hasAnyMeta);
    case 'Union':
      return t.members.some(hasAnyMeta);
    case 'Object':
      return t.fields.some((f) => hasAnyMeta(f.type)) || (t.additional !== undefined && t.additional !== false && hasAnyMeta(t.additional));
    default:
      return false;
  }
};

/** Whether a type or anything inside it carries meta. */
export const hasAnyMeta = (t: Type): boolean => Object.keys(t.meta).length > 0 || hasNestedMeta(t);
