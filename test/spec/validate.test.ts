import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileSchema, validateValue } from '../../src/schema/validate.js';
import { displayPath } from '../../src/types/describe-value.js';

const schema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    age: { type: 'integer', minimum: 0 },
    unit: { type: 'string', enum: ['c', 'f'], default: 'c' },
    opts: { type: 'object', properties: { deep: { type: 'boolean', default: true } } },
    when: { type: 'string', format: 'date' },
    odd: { type: 'string', format: 'no-such-format' },
  },
  required: ['name', 'age'],
  additionalProperties: false,
} as const;

describe('validate', () => {
  it('accepts valid values', () => {
    expect(validateValue(schema, { name: 'a', age: 3 })._tag).toBe('Right');
  });
  it('maps errors to messages a model can act on', () => {
    const r = validateValue(schema, { age: 'ten', unit: 'k', extra: 1, when: 'yesterday' });
    expect(r._tag).toBe('Left');
    if (r._tag !== 'Left') return;
    const byPath = Object.fromEntries(r.left.map((i) => [i.path, i]));
    expect(byPath['name']?.code).toBe('SPEC_ARG_REQUIRED');
    expect(byPath['age']?.message).toBe('argument "age" must be an integer, got "ten"');
    expect(byPath['unit']?.message).toBe('argument "unit" must be one of "c", "f", got "k"');
    expect(byPath['extra']?.code).toBe('SPEC_ARG_UNKNOWN');
    expect(byPath['when']?.code).toBe('SPEC_ARG_FORMAT');
  });
  it('applies defaults to a copy, never to the caller value', () => {
    const c = compileSchema(schema);
    if (c._tag !== 'Right') throw new Error('compile');
    const input = { name: 'a', age: 1, opts: {} };
    const out = c.right.applyDefaults(input) as Record<string, unknown>;
    expect(out).toEqual({ name: 'a', age: 1, unit: 'c', opts: { deep: true } });
    expect(input).toEqual({ name: 'a', age: 1, opts: {} });
    expect(c.right.hasDefaults).toBe(true);
  });
  it('caches compiled schemas by identity and content', () => {
    expect(compileSchema(schema)).toBe(compileSchema(schema));
    expect(compileSchema(JSON.parse(JSON.stringify(schema)))).toBe(compileSchema(schema));
  });
  it('refuses $async schemas, whose validation result is a promise', () => {
    const r = validateValue({ $async: true, type: 'object', properties: { a: { type: 'integer' } } }, { a: 'not an integer' });
    expect(r._tag).toBe('Left');
    if (r._tag === 'Left') expect(r.left[0]?.message).toContain('$async');
  });
  it('reports schemas ajv cannot compile', () => {
    const r = compileSchema({ type: 'nonsense' });
    expect(r._tag).toBe('Left');
  });
  it('renders paths for people', () => {
    expect(displayPath('/user/tags/2')).toBe('user.tags[2]');
    expect(displayPath('/a b')).toBe('["a b"]');
  });
});

describe('values ajv cannot compare', () => {
  // ajv's deep equality (enum, const, uniqueItems) calls a value's own valueOf/toString: a model's
  // `{"valueOf": ""}` made validation throw instead of failing
  it('fail with an issue that says why, and never throw', () => {
    const c = compileSchema({ enum: [{ a: 1 }] });
    if (c._tag === 'Left') throw new Error(c.left.message);
    expect(c.right.check({ valueOf: '' })).toBe(false);
    expect(c.right.issues({ valueOf: '' })[0]?.message).toMatch(/"valueOf" or "toString"/);
    expect(validateValue({ const: { b: 2 } }, { toString: 3 })._tag).toBe('Left');
    const u = compileSchema({ type: 'array', uniqueItems: true });
    if (u._tag === 'Left') throw new Error(u.left.message);
    expect(u.right.check([{ toString: 1 }, { toString: 1 }])).toBe(false);
    expect(u.right.check([{ a: 1 }, { a: 2 }])).toBe(true);
  });
});

describe('unknown properties', () => {
  // ajv names the schema of an error by a URI fragment (`#/properties/my%20field/...`): whatever
  // the name of the enclosing property, the suggestion reads the properties declared there
  it('suggest the declared property nearest to the unknown one, at any depth and under any property name', () => {
    const name = fc.oneof(fc.string({ minLength: 1, maxLength: 8 }), fc.constantFrom('my field', 'a/b', '~0', '%41', 'é t', '#', '$defs'));
    fc.assert(
      fc.property(name, (key) => {
        fc.pre(key !== '__proto__');
        const inner = { type: 'object', properties: { alpha: { type: 'string' }, beta: { type: 'string' } }, additionalProperties: false };
        const r = validateValue({ type: 'object', properties: { [key]: inner } }, { [key]: { alpah: 'x' } });
        expect(r._tag).toBe('Left');
        if (r._tag !== 'Left') return;
        expect(r.left).toHaveLength(1);
        expect(r.left[0]?.code).toBe('SPEC_ARG_UNKNOWN');
        expect(r.left[0]?.message).toContain('did you mean `alpha`?');
      }),
      { numRuns: 200 },
    );
  });
});
