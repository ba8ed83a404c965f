/**
 * Type ADT → fast-check arbitrary: values of a type, honouring its keywords (bounds, lengths,
 * patterns, the formats gramkit checks, enum, const, uniqueness). For property tests of tool
 * implementations and of gramkit itself ("a value generated from a type validates against its
 * schema").
 *
 * Not part of the main entry point (fast-check is a development dependency): import it from
 * `gramkit/testing` in tests. Where keywords combine in ways no generator follows
 * directly (a pattern with length bounds, a union of constrained members) values are filtered
 * with the ADT's own checker, so every value produced is valid.
 */
import fc from 'fast-check';
import type { JsonValue } from '../core/json-schema.js';
import type { Field, Keywords, Type } from '../types/types.js';
import { isValueOf } from '../types/value-check.js';
import { stableStringify } from '../core/stable-json.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface ValueArbitraryOptions {
  /** Largest number of array items and map entries generated (default 4). */
  readonly maxItems?: number;
  /** Whether optional fields are sometimes left out (default true). */
  readonly omitOptional?: boolean;
}

// -------------------------------------------------------------------------------------------------
// leaves
// -------------------------------------------------------------------------------------------------

const json: fc.Arbitrary<JsonValue> = fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<JsonValue>;

const pad2 = (n: number): string => String(n).padStart(2, '0');

const FORMATS: Readonly<Record<string, fc.Arbitrary<string>>> = {
  date: fc
    .record({ y: fc.integer({ min: 1970, max: 2100 }), m: fc.integer({ min: 1, max: 12 }), d: fc.integer({ min: 1, max: 28 }) })
    .map(({ y, m, d }) => `${y}-${pad2(m)}-${pad2(d)}`),
  'date-time': fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString()),
  time: fc
    .record({ h: fc.integer({ min: 0, max: 23 }), m: fc.integer({ min: 0, max: 59 }), s: fc.integer({ min: 0, max: 59 }) })
    .map(({ h, m, s }) => `${pad2(h)}:${pad2(m)}:${pad2(s)}Z`),
  email: fc.tuple(fc.stringMatching(/^[a-z][a-z0-9]{0,8}$/), fc.constantFrom('example.com', 'mail.example.org', 'x.io')).map(([l, d]) => `${l}@${d}`),
  uuid: fc.uuid(),
  ipv4: fc.ipV4(),
  ipv6: fc.constantFrom('::1', '2001:db8::1', 'fe80::a:b:c:d'),
  hostname: fc.domain(),
  uri: fc.constantFrom('https://example.com/', 'http://a.b/c?d=e', 'urn:isbn:0451450523'),
  url: fc.constantFrom('https://example.com/', 'http://a.b/c?d=e'),
  'uri-reference': fc.constantFrom('/a/b', 'https://example.com/x', '#frag'),
};

const stringArb = (m: Keywords): fc.Arbitrary<string> => {
  const minLength = m.minLength ?? 0;
  const maxLength = m.maxLength ?? Math.max(minLength + 8, 8);
  let arb: fc.Arbitrary<string>;
  if (m.format !== undefined && FORMATS[m.format] !== undefined) arb = FORMATS[m.format] as fc.Arbitrary<string>;
  else if (m.pattern !== undefined) arb = fc.stringMatching(new RegExp(m.pattern, 'u'));
  else arb = fc.string({ minLength, maxLength, unit: 'binary' });
  return arb;
};

const integerArb = (m: Keywords): fc.Arbitrary<number> => {
  let min = m.minimum ?? -1000;
  let max = m.maximum ?? Math.max(min, 0) + 1000;
  if (m.exclusiveMinimum !== undefined) min = Math.max(min, Math.floor(m.exclusiveMinimum) + 1);
  if (m.exclusiveMaximum !== undefined) max = Math.min(max, Math.ceil(m.exclusiveMaximum) - 1);
  min = Math.ceil(min);
  max = Math.floor(max);
  if (m.multipleOf !== undefined && Number.isInteger(m.multipleOf)) {
    const k = m.multipleOf;
    const lo = Math.ceil(min / k);
    const hi = Math.floor(max / k);
    if (lo <= hi) return fc.integer({ min: lo, max: hi }).map((x) => x * k + 0);
  }
  return fc.integer({ min: Math.min(min, max), max: Math.max(min, max) });
};

const numberArb = (m: Keywords): fc.Arbitrary<number> => {
  const min = m.minimum ?? m.exclusiveMinimum ?? -1e6;
  const max = m.maximum ?? m.exclusiveMaximum ?? Math.max(min, 0) + 1e6;
  return fc.oneof(
    fc.double({
      min,
      max,
      noNaN: true,
      noDefaultInfinity: true,
      minExcluded: m.exclusiveMinimum !== undefined && m.minimum === undefined,
      maxExcluded: m.exclusiveMaximum !== undefined && m.maximum === undefined,
    }),
    integerArb(m),
  );
};

// -------------------------------------------------------------------------------------------------
// interpreter
// -------------------------------------------------------------------------------------------------

/** Plain JSON data (fast-check may build objects without a prototype; JSON.parse never does). */
const plain = (v: JsonValue): JsonValue => JSON.parse(JSON.stringify(v)) as JsonValue;

/** Values of a type (every value validates against the type's JSON Schema), as plain JSON data. */
export const valueArbitrary = (t: Type, options: ValueArbitraryOptions = {}): fc.Arbitrary<JsonValue> => {
  const maxItems = options.maxItems ?? 4;
  const omit = options.omitOptional ?? true;
  const go = (u: Type): fc.Arbitrary<JsonValue> => {
    const m = u.meta;
    const valid = (v: JsonValue): boolean => isValueOf(u, v);
    if (m.const !== undefined) return fc.constant(m.const);
    if (m.enum !== undefined) {
      const ok = m.enum.filter(valid);
      return ok.length > 0 ? fc.constantFrom(...ok) : fc.constant(null).filter(() => false);
    }
    let arb: fc.Arbitrary<JsonValue>;
    switch (u.kind) {
      case 'String':
        arb = stringArb(m);
        break;
      case 'Integer':
        arb = integerArb(m);
        break;
      case 'Number':
        arb = numberArb(m);
        break;
      case 'Boolean':
        arb = fc.boolean();
        break;
      case 'Null':
        arb = fc.constant(null);
        break;
      case 'Any':
        arb = json;
        break;
      case 'Array': {
        const minLength = m.minItems ?? 0;
        const maxLength = Math.max(minLength, m.maxItems ?? Math.max(minLength, maxItems));
        const items = go(u.items);
        arb =
          m.uniqueItems === true
            ? fc.uniqueArray(items, { minLength, maxLength, selector: (v) => stableStringify(v) })
            : fc.array(items, { minLength, maxLength });
        break;
      }
      case 'Tuple':
        arb = fc.tuple(...u.items.map(go));
        break;
      case 'Object':
        arb = objectArb(u.fields, u.additional, go, omit, maxItems);
        break;
      case 'Union':
        arb = fc.oneof(...u.members.map(go));
        break;
    }
    return arb.filter(valid);
  };
  return go(t).map(plain);
};

const objectArb = (
  fields: ReadonlyArray<Field>,
  additional: false | Type | undefined,
  go: (t: Type) => fc.Arbitrary<JsonValue>,
  omit: boolean,
  maxItems: number,
): fc.Arbitrary<JsonValue> => {
  const model: Record<string, fc.Arbitrary<JsonValue>> = {};
  const required: string[] = [];
  for (const f of fields) {
    Object.defineProperty(model, f.name, { value: go(f.type), enumerable: true, writable: true, configurable: true });
    if (!f.optional || !omit) required.push(f.name);
  }
  const base = fc.record(model, { requiredKeys: required }) as fc.Arbitrary<Record<string, JsonValue>>;
  const known = new Set(fields.map((f) => f.name));
  const extraValues: fc.Arbitrary<JsonValue> | undefined = additional === false ? undefined : additional === undefined ? json : go(additional);
  if (extraValues === undefined) return base;
  const extras = fc.dictionary(
    fc.string({ minLength: 1, maxLength: 6 }).filter((k) => !known.has(k) && k !== '__proto__'),
    extraValues,
    { maxKeys: Math.min(2, maxItems) },
  );
  return fc.tuple(base, extras).map(([b, e]) => ({ ...e, ...b }));
};
