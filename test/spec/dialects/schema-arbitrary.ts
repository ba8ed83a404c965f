/**
 * fast-check generators of canonical argument schemas (the shapes gram compiles to, plus a few
 * imported ones: nullable type arrays, anyOf, closed objects) together with generators of values
 * that validate against them, and mutations of those values (wrong types, missing required
 * properties, nulls, out-of-range numbers) to test rejection too.
 */
import fc from 'fast-check';
import type { JsonObject, JsonValue } from '../../../src/core/json-schema.js';

export interface Generated {
  readonly schema: JsonObject;
  readonly value: fc.Arbitrary<JsonValue>;
}

const EMAILS = ['ana@example.com', 'bo.b+x@mail.example.org'];
const DATES = ['2024-02-29', '1999-12-31'];

const leafArbitraries: ReadonlyArray<fc.Arbitrary<Generated>> = [
  fc.record({ minLength: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }), extra: fc.integer({ min: 0, max: 5 }) }).map(({ minLength, extra }) => {
    const schema: Record<string, JsonValue> = { type: 'string' };
    if (minLength !== undefined) {
      schema['minLength'] = minLength;
      schema['maxLength'] = minLength + extra;
    }
    return { schema, value: fc.string({ minLength: minLength ?? 0, maxLength: minLength !== undefined ? minLength + extra : 8 }) };
  }),
  fc.constant<Generated>({ schema: { type: 'string', pattern: '^[a-z]+$' }, value: fc.stringMatching(/^[a-z]{1,6}$/) }),
  fc.constant<Generated>({ schema: { type: 'string', format: 'email' }, value: fc.constantFrom(...EMAILS) }),
  fc.constant<Generated>({ schema: { type: 'string', format: 'date' }, value: fc.constantFrom(...DATES) }),
  fc
    .uniqueArray(fc.constantFrom('red', 'green', 'blue', 'c', 'f'), { minLength: 1, maxLength: 3 })
    .map((vs) => ({ schema: { type: 'string', enum: vs }, value: fc.constantFrom(...vs) })),
  fc.uniqueArray(fc.integer({ min: -3, max: 9 }), { minLength: 1, maxLength: 3 }).map((vs) => ({ schema: { enum: vs }, value: fc.constantFrom(...vs) })),
  fc.constantFrom<JsonValue>('fixed', 7, true).map((c) => ({ schema: { const: c }, value: fc.constant(c) })),
  fc.record({ min: fc.integer({ min: -5, max: 5 }), span: fc.integer({ min: 0, max: 20 }), exclusive: fc.boolean() }).map(
    ({ min, span, exclusive }): Generated => ({
      schema: exclusive
        ? { type: 'integer', exclusiveMinimum: min - 1, exclusiveMaximum: min + span + 1 }
        : { type: 'integer', minimum: min, maximum: min + span },
      value: fc.integer({ min, max: min + span }),
    }),
  ),
  fc.constant<Generated>({
    schema: { type: 'number', minimum: 0, maximum: 100 },
    value: fc.double({ min: 0, max: 100, noNaN: true, noDefaultInfinity: true }).map((x) => (Object.is(x, -0) ? 0 : x)),
  }),
  fc.constant<Generated>({ schema: { type: 'integer', multipleOf: 5 }, value: fc.integer({ min: -4, max: 4 }).map((x) => x * 5) }),
  fc.constant<Generated>({ schema: { type: 'boolean' }, value: fc.boolean() }),
  fc.constant<Generated>({ schema: { type: ['string', 'null'] }, value: fc.option(fc.string({ maxLength: 4 }), { nil: null }) }),
  fc.constant<Generated>({ schema: { anyOf: [{ type: 'string' }, { type: 'integer' }] }, value: fc.oneof(fc.string({ maxLength: 4 }), fc.integer()) }),
];

const leaf: fc.Arbitrary<Generated> = fc.oneof(...leafArbitraries);

const anySchema: fc.Arbitrary<Generated> = fc.constant({ schema: {}, value: fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<JsonValue> });

const NAMES = ['a', 'b', 'name', 'user_id', 'x.y', 'a b', 'n2', 'Ünï'];

const withDescription = (g: Generated, d: string | null): Generated => (d === null ? g : { schema: { ...g.schema, description: d }, value: g.value });

/** Schemas up to `depth` levels of objects and arrays; `allowAny` adds `{}` (Any) leaves. */
export const generatedSchema = (
  options: { readonly depth?: number; readonly allowAny?: boolean; readonly allowClosed?: boolean } = {},
): fc.Arbitrary<Generated> => {
  const { depth = 2, allowAny = false, allowClosed = false } = options;
  const node = (d: number): fc.Arbitrary<Generated> => {
    const leaves = allowAny ? fc.oneof({ weight: 6, arbitrary: leaf }, { weight: 1, arbitrary: anySchema }) : leaf;
    if (d <= 0) return leaves;
    return fc.oneof(
      { weight: 4, arbitrary: leaves },
      { weight: 1, arbitrary: arrayOf(d) },
      { weight: 1, arbitrary: tupleOf() },
      { weight: 2, arbitrary: objectOf(d - 1) },
    );
  };
  const arrayOf = (d: number): fc.Arbitrary<Generated> =>
    fc
      .record({ item: node(d - 1), minItems: fc.integer({ min: 0, max: 2 }), extra: fc.integer({ min: 0, max: 2 }), unique: fc.boolean() })
      .map(({ item, minItems, extra, unique }) => {
        // unique items may have a single possible value (a const): at most one is then required
        const min = unique ? Math.min(minItems, 1) : minItems;
        const schema: Record<string, JsonValue> = { type: 'array', items: item.schema, minItems: min, maxItems: min + extra };
        if (unique) schema['uniqueItems'] = true;
        return {
          schema,
          value: unique
            ? (fc.uniqueArray(item.value, { minLength: min, maxLength: min + extra, selector: (v) => JSON.stringify(v) }) as fc.Arbitrary<JsonValue>)
            : (fc.array(item.value, { minLength: min, maxLength: min + extra }) as fc.Arbitrary<JsonValue>),
        };
      });
  const tupleOf = (): fc.Arbitrary<Generated> =>
    fc.array(leaf, { minLength: 2, maxLength: 3 }).map((items) => ({
      schema: { type: 'array', prefixItems: items.map((i) => i.schema), minItems: items.length, maxItems: items.length },
      value: fc.tuple(...items.map((i) => i.value)) as fc.Arbitrary<JsonValue>,
    }));
  const objectOf = (d: number): fc.Arbitrary<Generated> =>
    fc
      .uniqueArray(fc.constantFrom(...NAMES), { minLength: d === depth - 1 ? 0 : 1, maxLength: 4 })
      .chain((names) =>
        fc.tuple(
          fc.constant(names),
          fc.tuple(...names.map(() => node(d))),
          fc.tuple(...names.map(() => fc.boolean())),
          fc.tuple(...names.map(() => fc.boolean())),
          fc.tuple(...names.map(() => fc.option(fc.constantFrom('A described value.', 'Who to greet'), { nil: null }))),
          allowClosed ? fc.boolean() : fc.constant(false),
        ),
      )
      .chain(([names, subs, required, withDefault, descriptions, closed]) => {
        // defaults are sampled from the property's own values, so they are valid
        const defaults = names.map((_, i) =>
          !required[i] && withDefault[i] ? (subs[i] as Generated).value.map((v) => v as JsonValue | undefined) : fc.constant<JsonValue | undefined>(undefined),
        );
        return fc.tuple(fc.constant({ names, subs, required, descriptions, closed }), fc.tuple(...defaults));
      })
      .map(([{ names, subs, required, descriptions, closed }, defaults]) => {
        const properties: Record<string, JsonValue> = {};
        const req: string[] = [];
        const values: Record<string, fc.Arbitrary<JsonValue | undefined>> = {};
        names.forEach((n, i) => {
          const sub = withDescription(subs[i] as Generated, descriptions[i] ?? null);
          const def = defaults[i];
          properties[n] = def !== undefined ? { ...sub.schema, default: def } : sub.schema;
          if (required[i]) {
            req.push(n);
            values[n] = sub.value;
          } else values[n] = fc.option(sub.value, { nil: undefined });
        });
        const schema: Record<string, JsonValue> = { type: 'object', properties };
        if (req.length > 0) schema['required'] = req;
        if (closed) schema['additionalProperties'] = false;
        const value = fc.record(values).map((o) => {
          const out: Record<string, JsonValue> = {};
          for (const n of names) if (o[n] !== undefined) out[n] = o[n] as JsonValue;
          return out;
        });
        return { schema, value };
      });
  return objectOf(depth);
};

/** Changes a valid value somewhere: a leaf of another type, a required key removed, a null, a number out of range. */
export const mutate = (v: JsonValue, schema: JsonObject): fc.Arbitrary<JsonValue> => {
  const leaves: fc.Arbitrary<JsonValue> = fc.constantFrom<JsonValue>(null, 'x', -1000, 3.5, true, [], {});
  const go = (x: JsonValue, s: JsonObject | undefined, depth: number): fc.Arbitrary<JsonValue> => {
    if (x !== null && typeof x === 'object' && !Array.isArray(x) && depth < 4) {
      const o = x as Readonly<Record<string, JsonValue>>;
      const keys = Object.keys(o);
      const props = (s?.['properties'] ?? {}) as Record<string, JsonObject>;
      const options: fc.Arbitrary<JsonValue>[] = [leaves];
      if (keys.length > 0) {
        options.push(
          fc.constantFrom(...keys).chain((k) => go(o[k] as JsonValue, props[k], depth + 1).map((nv) => ({ ...o, [k]: nv }))),
          fc.constantFrom(...keys).map((k) => {
            const { [k]: _dropped, ...rest } = o;
            return rest;
          }),
        );
      }
      const absent = Object.keys(props).filter((k) => !(k in o));
      if (absent.length > 0) options.push(fc.constantFrom(...absent).map((k) => ({ ...o, [k]: null })));
      return fc.oneof(...options);
    }
    if (Array.isArray(x) && x.length > 0 && depth < 4) {
      const items = s?.['items'] as JsonObject | undefined;
      return fc.oneof(
        leaves,
        fc.nat({ max: x.length - 1 }).chain((i) => go(x[i] as JsonValue, items, depth + 1).map((nv) => x.map((e, j) => (j === i ? nv : e)))),
        fc.constant(x.slice(1)),
      );
    }
    return leaves;
  };
  return go(v, schema, 0);
};
