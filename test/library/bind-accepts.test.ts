/**
 * `bindTool(spec, library, {match: 'accepts'})`: an alternate specification of a tool binds when
 * the tool accepts every argument the specification allows, whatever its descriptions say; the
 * default still demands the same description and schema. The law: whenever it binds, every value
 * the specification's schema allows is valid for the tool's schema (checked with the validator on
 * random schemas and values).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bindTool, createTool, type JsonObject, type JsonSchema, toolLibrary, type ToolSpecification, ToolCodes } from '../../src/index.js';
import { compileSchema } from '../../src/schema/validate.js';

const spec = (schema: JsonObject, description = 'Another description'): ToolSpecification => ({
  name: 'capital_of',
  description,
  typeSignature: '',
  schema,
  outputSchema: { type: 'string' },
});
const obj = (properties: Record<string, JsonSchema>, required: string[] = [], extra: Record<string, unknown> = {}): JsonObject =>
  ({ type: 'object', properties, required, ...extra }) as JsonObject;
const library = (schema: JsonObject) => toolLibrary([createTool('capital_of', 'The capital city of a country', schema, () => 'Paris')]);
const TOOL = obj({ country: { type: 'string' }, year: { type: 'integer', minimum: 1900 } }, ['country']);

const binds = (s: ToolSpecification, toolSchema: JsonObject = TOOL): boolean => bindTool(s, library(toolSchema), { match: 'accepts' })._tag === 'Right';
const pointers = (s: ToolSpecification, toolSchema: JsonObject = TOOL): string[] => {
  const r = bindTool(s, library(toolSchema), { match: 'accepts' });
  return r._tag === 'Left' ? r.left.flatMap((e) => e.mismatches.flatMap((m) => m.differences.map((d) => `${m.code} ${d.pointer}`))) : [];
};

describe("bindTool with match: 'accepts'", () => {
  it('binds other descriptions, a parameter left out, a tighter type, an enum, a required optional parameter', () => {
    const same = spec(obj({ country: { type: 'string', description: 'Any country' }, year: { type: 'integer', minimum: 1900 } }, ['country']));
    expect(bindTool(same, library(TOOL))._tag).toBe('Left'); // the default still wants the same description
    expect(binds(same)).toBe(true);
    expect(binds(spec(obj({ country: { type: 'string' } }, ['country'], { additionalProperties: false })))).toBe(true);
    expect(
      binds(
        spec(obj({ country: { type: 'string', enum: ['France', 'Japan'] }, year: { type: 'integer', minimum: 1950, maximum: 2000 } }, ['country', 'year'])),
      ),
    ).toBe(true);
    expect(binds(spec(obj({ country: { type: 'string', minLength: 2, pattern: '^[A-Z]' } }, ['country'], { additionalProperties: false })))).toBe(true);
    expect(binds(spec(obj({ country: { anyOf: [{ const: 'France' }, { const: 'Japan' }] } }, ['country'], { additionalProperties: false })))).toBe(true);
  });

  it('refuses what the tool would refuse, saying where: a parameter it lacks, a wider type, a lower bound, a required parameter made optional', () => {
    const closed = obj({ country: { type: 'string' } }, ['country'], { additionalProperties: false });
    const when = spec(obj({ country: { type: 'string' }, when: { type: 'string' } }, ['country'], { additionalProperties: false }));
    expect(pointers(when, closed)).toEqual([`${ToolCodes.SCHEMA_MISMATCH} /properties/when`]);
    expect(pointers(spec(obj({ country: { type: ['string', 'null'] } }, ['country'], { additionalProperties: false })))).toEqual([
      `${ToolCodes.SCHEMA_MISMATCH} /properties/country/type`,
    ]);
    const older = spec(obj({ country: { type: 'string' }, year: { type: 'integer', minimum: 1800 } }, ['country'], { additionalProperties: false }));
    expect(pointers(older)).toEqual([`${ToolCodes.SCHEMA_MISMATCH} /properties/year/minimum`]);
    expect(pointers(spec(obj({ country: { type: 'string' } }, [], { additionalProperties: false })))).toEqual([`${ToolCodes.SCHEMA_MISMATCH} /required`]);
    expect(pointers(spec(obj({ country: { type: 'string', enum: ['France', 3] } }, ['country'], { additionalProperties: false })))).toEqual([
      `${ToolCodes.SCHEMA_MISMATCH} /properties/country/enum`,
    ]);
    // an open specification allows any other argument; a closed tool does not take them
    expect(pointers(spec(obj({ country: { type: 'string' } }, ['country'], { additionalProperties: true })), closed)).toEqual([
      `${ToolCodes.SCHEMA_MISMATCH} /additionalProperties`,
    ]);
  });

  it('the output: the specification must accept every output the tool declares', () => {
    const tool = createTool('capital_of', 'x', TOOL, () => 'Paris', { outputSchema: { type: 'string' } });
    const narrowOut: ToolSpecification = { ...spec(TOOL), outputSchema: { type: 'string', enum: ['Paris'] } };
    const r = bindTool(narrowOut, toolLibrary([tool]), { match: 'accepts' });
    expect(r._tag === 'Left' ? r.left[0]?.mismatches.map((m) => m.code) : []).toEqual([ToolCodes.OUTPUT_SCHEMA_MISMATCH]);
    expect(bindTool({ ...spec(TOOL), outputSchema: { type: ['string', 'null'] } }, toolLibrary([tool]), { match: 'accepts' })._tag).toBe('Right');
  });

  // the law, on random small schemas: when it binds, the tool's validator accepts every value the specification's does
  const leaf = fc.oneof(
    fc.record({ type: fc.constantFrom('string', 'integer', 'number', 'boolean', 'null') }),
    fc.record({ type: fc.constantFrom('integer', 'number'), minimum: fc.integer({ min: -3, max: 3 }) }),
    fc.record({ type: fc.constantFrom('integer', 'number'), maximum: fc.integer({ min: -3, max: 3 }) }),
    fc.record({ type: fc.constant('string'), maxLength: fc.integer({ min: 0, max: 3 }) }),
    fc.record({ enum: fc.uniqueArray(fc.oneof(fc.integer({ min: -3, max: 3 }), fc.constantFrom('a', 'bb', true, null)), { minLength: 1, maxLength: 3 }) }),
    fc.constant({}),
  );
  const schema = fc
    .record(
      {
        properties: fc.dictionary(fc.constantFrom('a', 'b', 'c'), leaf, { maxKeys: 3 }),
        required: fc.subarray(['a', 'b', 'c']),
        additionalProperties: fc.boolean(),
      },
      { requiredKeys: ['properties'] },
    )
    .map((s) => ({ type: 'object', ...s }) as JsonObject);
  const member = fc.oneof(
    fc.integer({ min: -5, max: 5 }),
    fc.double({ min: -5, max: 5, noNaN: true }),
    fc.constantFrom('a', 'bb', 'cccc', '', true, false, null),
  );
  const value = fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd'), member, { maxKeys: 4 });

  it('law: binds ⇒ every value the specification allows is a value the tool accepts', () => {
    fc.assert(
      fc.property(schema, schema, fc.array(value, { minLength: 20, maxLength: 20 }), (toolSchema, specSchema, values) => {
        if (!binds(spec(specSchema), toolSchema)) return;
        const narrow = compileSchema(specSchema);
        const wide = compileSchema(toolSchema);
        if (narrow._tag === 'Left' || wide._tag === 'Left') throw new Error('bad schema');
        for (const v of values) if (narrow.right.check(v)) expect(wide.right.check(v)).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it('law: a schema accepts itself, whatever its descriptions', () => {
    fc.assert(
      fc.property(schema, (s) => {
        expect(binds(spec(s, 'one'), s)).toBe(true);
      }),
    );
  });
});
