import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTypeExpression, printTypeExpression, toJsonSchema, typeEquals } from '../../src/entries/types.js';
import { typeArb } from './support/arbitraries.js';
import { type Type } from '../../src/index.js';
import { foldType, anyType, arrayType, tupleType, objectType, unionType, field, primitiveType, stripSpans } from '../../src/entries/types.js';
import { isExpressible } from '../../src/types/type-expr.js';

/** The same type without keywords and with open objects: what a type expression can write. */
const bare: (t: Type) => Type = foldType<Type>({
  String: () => primitiveType('String'),
  Integer: () => primitiveType('Integer'),
  Number: () => primitiveType('Number'),
  Boolean: () => primitiveType('Boolean'),
  Null: () => primitiveType('Null'),
  Any: () => anyType(),
  Array: (_t, items) => arrayType(items),
  Tuple: (_t, items) => tupleType(items),
  Object: (_t, fields, additional) =>
    fields.length === 0 && additional !== undefined && additional !== false && !(additional.kind === 'Any')
      ? objectType([], {}, additional)
      : objectType(fields.map((f) => field(f.field.name, f.value, f.field.optional))),
  Union: (_t, members) => unionType(members),
});

const schema = (text: string) => {
  const r = parseTypeExpression(text);
  if (r._tag === 'Left') throw new Error(JSON.stringify(r.left));
  return { schema: toJsonSchema(r.right.type), optional: r.right.optional };
};

describe('type expressions', () => {
  it('reads names, lists, records, tuples, Maybe, Map and unions', () => {
    expect(schema('[Text]')).toEqual({ schema: { type: 'array', items: { type: 'string' } }, optional: false });
    expect(schema('Maybe Int')).toEqual({ schema: { type: 'integer' }, optional: true });
    expect(schema('{name: Text, age: Maybe Int, "a b": Bool}').schema).toEqual({
      type: 'object',
      properties: { name: { type: 'string' }, age: { type: 'integer' }, 'a b': { type: 'boolean' } },
      required: ['name', 'a b'],
    });
    expect(schema('(Double, Double)').schema).toEqual({ type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }], minItems: 2, maxItems: 2 });
    expect(schema('Map [Int]').schema).toEqual({ type: 'object', additionalProperties: { type: 'array', items: { type: 'integer' } } });
    expect(schema('Text | Int | Null').schema).toEqual({ type: ['string', 'integer', 'null'] });
    expect(schema('(Text)').schema).toEqual({ type: 'string' });
    expect(schema('{}').schema).toEqual({ type: 'object' });
    expect(schema('  [ { a : [Any] } ]  ').schema).toEqual({ type: 'array', items: { type: 'object', properties: { a: { type: 'array' } }, required: ['a'] } });
  });

  it('reports errors with codes and offsets', () => {
    const codes = (t: string) => {
      const r = parseTypeExpression(t);
      return r._tag === 'Left' ? r.left.map((d) => [d.code, d.span?.start]) : [];
    };
    expect(codes('[Txt]')).toEqual([['SPEC_UNKNOWN_TYPE', 1]]);
    expect(codes('IO Text')).toEqual([['SPEC_IO_TYPE', 0]]);
    expect(codes('[Maybe Int]')).toEqual([['SPEC_MAYBE_POSITION', 1]]);
    expect(codes('Maybe Int | Text')).toEqual([['SPEC_MAYBE_POSITION', 0]]);
    expect(codes('{a: Int, a: Text}')).toEqual([['SPEC_DUPLICATE_FIELD', 9]]);
    expect(codes('[Int')).toEqual([['SPEC_TYPE_EXPR', 4]]);
    expect(codes('Int Text')).toEqual([['SPEC_TYPE_EXPR', 4]]);
    expect(codes('')).toEqual([['SPEC_TYPE_EXPR', 0]]);
    expect(codes('()')).toEqual([['SPEC_TYPE_EXPR', 0]]);
    expect(codes('List Int')).toEqual([
      ['SPEC_UNKNOWN_TYPE', 0],
      ['SPEC_TYPE_EXPR', 5],
    ]);
  });

  it('prints what it reads (print ∘ parse is the identity on expressible types)', () => {
    fc.assert(
      fc.property(typeArb.map(bare), fc.boolean(), (t, optional) => {
        expect(isExpressible(t)).toBe(true);
        const text = printTypeExpression(t, optional);
        const back = parseTypeExpression(text);
        expect(back._tag, text).toBe('Right');
        if (back._tag === 'Right') {
          expect(typeEquals(stripSpans(back.right.type), t), text).toBe(true);
          expect(back.right.optional).toBe(optional);
        }
      }),
      { numRuns: 200 },
    );
  });
});
