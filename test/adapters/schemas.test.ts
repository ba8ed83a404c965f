/**
 * Specifications from other schema libraries: Zod (through zod's own toJSONSchema) and any
 * Standard Schema exposing JSON Schema. The specification is the one `gramkit import` writes for
 * the same JSON Schema, and it validates what the Zod schema accepts.
 */
import fc from 'fast-check';
import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { bindTool, defineTool, invoke, printToolSpecification, toolLibrary, validateToolArgs } from '../../src/index.js';
import { fromZod } from '../../src/entries/zod.js';
import { AdapterCodes, fromStandardSchema } from '../../src/entries/standard-schema.js';

const weather = z.object({
  city: z.string().min(1).describe('City name, e.g. Paris'),
  days: z.number().int().min(1).max(7).default(1).describe('Days of forecast'),
  units: z.enum(['metric', 'imperial']).optional(),
});

describe('fromZod', () => {
  it('gives the specification, its gram, and the defaults of the Zod schema', () => {
    const spec = fromZod(weather, { name: 'get_weather', description: 'Current weather for a city', output: z.object({ temperature: z.number() }) });
    if (spec._tag === 'Left') throw new Error(JSON.stringify(spec.left));
    expect(spec.right.schema).toMatchObject({
      type: 'object',
      required: ['city'],
      properties: { days: { type: 'integer', minimum: 1, maximum: 7, default: 1 } },
    });
    expect(printToolSpecification(spec.right)).toContain('(city::String {description: "City name, e.g. Paris", minLength: 1})');
    expect(spec.right.outputSchema).toMatchObject({ type: 'object', properties: { temperature: { type: 'number' } }, required: ['temperature'] });
    const v = validateToolArgs(spec.right.schema, { city: 'Paris' });
    expect(v._tag === 'Right' && v.right).toEqual({ city: 'Paris', days: 1 });
  });

  it('accepts exactly what the Zod schema accepts, on generated values', () => {
    const spec = fromZod(weather, { name: 'get_weather', description: 'Weather' });
    if (spec._tag === 'Left') throw new Error('no spec');
    const value = fc.record(
      {
        city: fc.oneof(fc.string({ maxLength: 4 }), fc.integer()),
        days: fc.oneof(fc.integer({ min: -1, max: 9 }), fc.double(), fc.constant('3')),
        units: fc.constantFrom('metric', 'imperial', 'kelvin'),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(value, (v) => {
        expect(validateToolArgs(spec.right.schema, v)._tag === 'Right').toBe(weather.safeParse(v).success);
      }),
      { numRuns: 300 },
    );
  });

  it('binds to a tool and runs it: a team adopts gram one tool at a time', async () => {
    const spec = fromZod(weather, { name: 'get_weather', description: 'Weather' });
    if (spec._tag === 'Left') throw new Error('no spec');
    const tool = defineTool<{ city: string; days: number }>(spec.right, ({ city, days }) => `${city}: ${days} days`);
    const bound = bindTool(spec.right, toolLibrary([tool]));
    if (bound._tag === 'Left') throw new Error(bound.left.map((e) => e.message).join('; '));
    expect(await invoke(bound.right, { city: 'Oslo' })).toEqual({ ok: true, value: 'Oslo: 1 days' });
  });

  it('reports what JSON Schema cannot express, and schemas that are not a tool’s arguments', () => {
    const dated = fromZod(z.object({ when: z.date() }), { name: 'at', description: 'd' });
    expect(dated._tag === 'Left' && dated.left[0]?.code).toBe(AdapterCodes.UNREPRESENTABLE);
    const noDescription = fromZod(z.object({ a: z.string() }), { name: 'x' });
    expect(noDescription._tag === 'Left' && noDescription.left[0]?.code).toBe(AdapterCodes.NOT_IMPORTED);
    const described = fromZod(z.object({ a: z.string() }).describe('Does x'), { name: 'x' });
    expect(described._tag === 'Right' && described.right.description).toBe('Does x');
  });
});

describe('fromStandardSchema', () => {
  it('reads the JSON Schema a Standard Schema exposes (zod implements Standard JSON Schema)', () => {
    const viaStandard = fromStandardSchema(weather, { name: 'get_weather', description: 'Weather' });
    const viaZod = fromZod(weather, { name: 'get_weather', description: 'Weather' });
    expect(viaStandard._tag).toBe('Right');
    expect(viaStandard._tag === 'Right' && viaZod._tag === 'Right' && viaStandard.right.typeSignature).toBe(
      viaZod._tag === 'Right' && viaZod.right.typeSignature,
    );
  });

  it('a Standard Schema without JSON Schema is a diagnostic', () => {
    const plain = { '~standard': { version: 1, vendor: 'acme', validate: () => ({ value: {} }) } };
    const r = fromStandardSchema(plain, { name: 'x', description: 'y' });
    expect(r._tag === 'Left' && [r.left[0]?.code, r.left[0]?.message]).toEqual([
      AdapterCodes.NO_JSON_SCHEMA,
      'tool "x": the acme schema does not expose JSON Schema (no ~standard.jsonSchema)',
    ]);
  });
});
