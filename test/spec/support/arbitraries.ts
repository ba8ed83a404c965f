/**
 * fast-check arbitraries of types, signatures and specifications in canonical form (what the
 * compiler and the importer produce): unions of two members or more, no bare `Any` as
 * `additionalProperties`, values (defaults, enum, const, examples) that validate.
 */
import fc from 'fast-check';
import { valueArbitrary } from '../../../src/testing/arbitrary.js';
import type { JsonObject, JsonValue } from '../../../src/core/json-schema.js';
import {
  type Field,
  type Keywords,
  type Type,
  type TypeSignature,
  anyType,
  arrayType,
  booleanType,
  field,
  integerType,
  nullType,
  numberType,
  objectType,
  returnType,
  stringType,
  tupleType,
  typeSignature,
  unionType,
} from '../../../src/types/types.js';

// -------------------------------------------------------------------------------------------------
// names and text
// -------------------------------------------------------------------------------------------------

/** Not an array index (JSON objects reorder those), not `__proto__`. */
const okName = (s: string): boolean => s !== '' && !/^(0|[1-9][0-9]*)$/.test(s) && s !== '__proto__';

export const nameArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('city', 'age', 'tags', 'user', 'name', 'units', 'query', 'limit', 'a_b', 'x.y', 'has-dash') },
  { weight: 3, arbitrary: fc.stringMatching(/^[a-z][a-zA-Z0-9_]{0,7}$/) },
  { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 6, unit: 'binary' }).filter(okName) },
);

export const textArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12, unit: 'binary' }) },
  { weight: 1, arbitrary: fc.constantFrom('Line one\nline two', 'quote " and \\ backslash', 'tab\there', '`tick` ```fence```', 'ünïcödé ✓ 😀') },
);

// -------------------------------------------------------------------------------------------------
// meta
// -------------------------------------------------------------------------------------------------

const docs: fc.Arbitrary<Keywords> = fc.record({ description: textArb, title: textArb, deprecated: fc.boolean() }, { requiredKeys: [] });

const stringMeta: fc.Arbitrary<Keywords> = fc.oneof(
  fc.constant({}),
  fc.record({ minLength: fc.integer({ min: 0, max: 3 }), maxLength: fc.integer({ min: 3, max: 12 }) }, { requiredKeys: [] }),
  fc.record({ pattern: fc.constantFrom('^[a-z]+$', '^[A-Z][a-z]*$', '^[0-9]{2,4}$', 'x') }),
  fc.record({ format: fc.constantFrom('date', 'email', 'uuid', 'ipv4', 'date-time') }),
);

const integerMeta: fc.Arbitrary<Keywords> = fc.oneof(
  fc.constant({}),
  fc.record({ minimum: fc.integer({ min: -50, max: 0 }), maximum: fc.integer({ min: 1, max: 100 }) }, { requiredKeys: [] }),
  fc.record({ multipleOf: fc.constantFrom(2, 3, 5), minimum: fc.constant(0) }, { requiredKeys: ['multipleOf'] }),
  fc.record({ exclusiveMinimum: fc.integer({ min: -10, max: 10 }) }),
);

const numberMeta: fc.Arbitrary<Keywords> = fc.oneof(
  fc.constant({}),
  fc.record({ minimum: fc.double({ min: -100, max: 0, noNaN: true }), maximum: fc.double({ min: 0.5, max: 1e6, noNaN: true }) }, { requiredKeys: [] }),
  fc.record({ exclusiveMaximum: fc.constantFrom(1, 0.5, 1e-7, 1e21) }),
);

const arrayMeta: fc.Arbitrary<Keywords> = fc.oneof(
  fc.constant({}),
  fc.record({ minItems: fc.integer({ min: 0, max: 2 }), maxItems: fc.integer({ min: 2, max: 5 }) }, { requiredKeys: [] }),
);

const merge = (a: Keywords, b: Keywords): Keywords => ({ ...a, ...b });

// -------------------------------------------------------------------------------------------------
// types
// -------------------------------------------------------------------------------------------------

const leaf: fc.Arbitrary<Type> = fc.oneof(
  fc.tuple(stringMeta, docs).map(([m, d]) => stringType(merge(m, d))),
  fc.tuple(integerMeta, docs).map(([m, d]) => integerType(merge(m, d))),
  fc.tuple(numberMeta, docs).map(([m, d]) => numberType(merge(m, d))),
  docs.map((d) => booleanType(d)),
  fc.constant(nullType()),
  fc.constant(stringType()),
  fc.constant(integerType()),
  docs.map((d) => anyType(d)),
);

const uniqueFields = (fields: ReadonlyArray<Field>): Field[] => {
  const seen = new Set<string>();
  return fields.filter((f) => (seen.has(f.name) ? false : (seen.add(f.name), true)));
};

const isBareAny = (t: Type): boolean => t.kind === 'Any' && Object.keys(t.meta).length === 0;

/** Adds values to a type's meta, drawn from the type itself so that they validate. */
const withValues = (t: Type): fc.Arbitrary<Type> =>
  fc.oneof(
    { weight: 5, arbitrary: fc.constant(t) },
    { weight: 1, arbitrary: valueArbitrary(t, { maxItems: 2 }).map((v) => ({ ...t, meta: { ...t.meta, default: v } }) as Type) },
    {
      weight: 1,
      arbitrary: fc
        .uniqueArray(valueArbitrary(t, { maxItems: 2 }), { minLength: 1, maxLength: 3, selector: (v) => JSON.stringify(v) })
        .map((vs) => ({ ...t, meta: { ...t.meta, enum: vs } }) as Type),
    },
    { weight: 1, arbitrary: valueArbitrary(t, { maxItems: 2 }).map((v) => ({ ...t, meta: { ...t.meta, examples: [v] } }) as Type) },
  );

export const typeArb: fc.Arbitrary<Type> = fc
  .letrec<{ type: Type; array: Type; tuple: Type; object: Type; union: Type }>((tie) => ({
    type: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('array'), tie('tuple'), tie('object'), tie('union')),
    array: fc
      .tuple(tie('type'), arrayMeta, docs, fc.boolean())
      .map(([items, m, d, unique]) =>
        arrayType(items, merge(merge(m, d), unique && (items.kind === 'String' || items.kind === 'Integer') ? { uniqueItems: true } : {})),
      ),
    tuple: fc.tuple(fc.array(tie('type'), { minLength: 2, maxLength: 3 }), docs).map(([items, d]) => tupleType(items, d)),
    object: fc
      .tuple(
        fc.array(
          fc.tuple(nameArb, tie('type'), fc.boolean()).map(([n, t, o]) => field(n, t, o)),
          { maxLength: 4 },
        ),
        fc.oneof(
          fc.constant<false | Type | undefined>(undefined),
          fc.constant<false | Type | undefined>(false),
          tie('type').filter((t) => !isBareAny(t)),
        ),
        docs,
      )
      .map(([fields, additional, d]) => objectType(uniqueFields(fields), d, additional)),
    union: fc.tuple(fc.array(tie('type'), { minLength: 2, maxLength: 3 }), docs).map(([members, d]) => unionType(members, d)),
  }))
  .type.chain(withValues);

export const fieldsArb: fc.Arbitrary<Field[]> = fc
  .array(
    fc.tuple(nameArb, typeArb, fc.boolean()).map(([n, t, o]) => field(n, t, o)),
    { maxLength: 5 },
  )
  .map(uniqueFields);

export const signatureArb: fc.Arbitrary<TypeSignature> = fc
  .tuple(
    fieldsArb,
    typeArb,
    fc.option(fc.stringMatching(/^[a-z][a-zA-Z0-9]{0,6}$/), { nil: undefined }),
    fc.record({ description: textArb }, { requiredKeys: [] }),
    fc.constantFrom<false | undefined>(false, undefined, undefined),
  )
  .map(([params, ret, rname, meta, additional]) => typeSignature(params, returnType(ret, rname), meta, additional));

/** Metadata of a specification: any JSON object (without `description`). */
export const metadataArb: fc.Arbitrary<JsonObject | undefined> = fc.option(
  fc.dictionary(
    fc.oneof(fc.constantFrom('http', 'command', 'safety', 'timeoutMs', 'my key'), fc.stringMatching(/^[a-z][a-zA-Z]{0,6}$/)).filter((k) => k !== 'description'),
    fc.oneof(
      fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<JsonValue>,
      fc.constantFrom<JsonValue>(
        { type: 'tagged', tag: 'url', content: 'https://example.com/x' },
        { type: 'range', lower: 1, upper: 10 },
        { type: 'measurement', unit: 'cm', value: 168 },
      ),
    ),
    { minKeys: 1, maxKeys: 3 },
  ) as fc.Arbitrary<JsonObject>,
  { nil: undefined },
);
