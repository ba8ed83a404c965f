/**
 * `gramkit import --repair`: schemas whose intent is clear but whose letter accepts nothing are
 * repaired, each repair a warning with its JSON Pointer; without `--repair` they are errors; the
 * BFCL corpus, which has none, imports the same with and without it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importTools, validateToolArgs } from '../../src/index.js';
import { cli } from '../support/cli.js';

const fn = (parameters: unknown) => JSON.stringify({ name: 'find_books', description: 'Find books by genre and year', parameters });

const ARRAY_ENUM = fn({
  type: 'dict',
  properties: { genres: { type: 'array', items: { type: 'string' }, enum: ['fiction', 'history', 'science'], description: 'Genres to include' } },
  required: ['genres'],
});
const INTEGER_ENUM = fn({
  type: 'dict',
  properties: { year: { type: 'integer', enum: ['1999', '2000'] }, size: { type: 'integer', enum: ['small', 'large'], description: 'Print size' } },
  required: ['year', 'size'],
});

// the shape of the 41 functions of BFCL's live sets that did not import: booleans whose enum holds strings
const BOOLEAN_ENUM = JSON.stringify({
  name: 'Restaurants_2_FindRestaurants',
  description: 'Find restaurants by location and by category',
  parameters: {
    type: 'dict',
    properties: {
      city: { type: 'string', description: 'The city' },
      has_vegetarian_options: { type: 'boolean', description: 'Whether it serves vegetarian food', enum: ['True', 'False', 'dontcare'], default: 'dontcare' },
      has_seating_outdoors: { type: 'boolean', enum: ['True', 'False'], default: false },
    },
    required: ['city'],
  },
});

describe('import --repair', () => {
  it('reads an enum of strings on a boolean (BFCL live sets) as a string among them, with a warning each', () => {
    const without = importTools(BOOLEAN_ENUM, { from: 'bfcl' });
    expect(without.tools[0]?.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code)).toContain('SPEC_IMPORT_UNSATISFIABLE');
    const r = importTools(BOOLEAN_ENUM, { from: 'bfcl', repair: true });
    const t = r.tools[0];
    expect(t?.diagnostics.map((d) => [d.code, d.severity, d.message.replace(/^.*?`(parameters[^`]*)`.*$/, '$1')])).toEqual([
      ['SPEC_IMPORT_REPAIRED', 'warning', 'parameters/properties/has_vegetarian_options/type'],
      ['SPEC_IMPORT_REPAIRED', 'warning', 'parameters/properties/has_seating_outdoors/type'],
    ]);
    expect(t?.spec?.schema['properties']).toMatchObject({
      has_vegetarian_options: { type: 'string', description: 'Whether it serves vegetarian food', enum: ['True', 'False', 'dontcare'], default: 'dontcare' },
      has_seating_outdoors: { type: 'string', enum: ['True', 'False'], default: 'False' },
    });
    const spec = t?.spec;
    if (spec === undefined) return;
    expect(validateToolArgs(spec.schema, { city: 'Paris', has_vegetarian_options: 'dontcare' })._tag).toBe('Right');
    expect(validateToolArgs(spec.schema, { city: 'Paris', has_vegetarian_options: 'maybe' })._tag).toBe('Left');
  });

  it('without it, an enum that fits nothing is an error', () => {
    const r = importTools(ARRAY_ENUM, { from: 'bfcl' });
    expect(r.tools[0]?.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code)).toEqual(['SPEC_IMPORT_UNSATISFIABLE']);
  });

  it('reads an enum of strings on an array as the enum of its items, reported with its pointer', () => {
    const r = importTools(ARRAY_ENUM, { from: 'bfcl', repair: true });
    const t = r.tools[0];
    expect(t?.diagnostics.map((d) => [d.code, d.severity, d.message])).toEqual([
      [
        'SPEC_IMPORT_REPAIRED',
        'warning',
        'tool "find_books": `parameters/properties/genres/enum`: an `enum` of "fiction", "history", "science" on an array means its items: moved to /properties/genres/items/enum',
      ],
    ]);
    const spec = t?.spec;
    expect(spec?.schema['properties']).toEqual({
      genres: { type: 'array', description: 'Genres to include', items: { type: 'string', enum: ['fiction', 'history', 'science'] } },
    });
    if (spec === undefined) return;
    expect(validateToolArgs(spec.schema, { genres: ['history'] })._tag).toBe('Right');
    expect(validateToolArgs(spec.schema, { genres: ['poetry'] })._tag).toBe('Left');
  });

  it('reads numerals on an integer as numbers, and other strings as a string type', () => {
    const r = importTools(INTEGER_ENUM, { from: 'bfcl', repair: true });
    const t = r.tools[0];
    expect(t?.diagnostics.map((d) => [d.code, d.message.replace(/^.*?`(parameters[^`]*)`.*$/, '$1')])).toEqual([
      ['SPEC_IMPORT_REPAIRED', 'parameters/properties/year/enum'],
      ['SPEC_IMPORT_REPAIRED', 'parameters/properties/size/type'],
    ]);
    expect(t?.spec?.schema['properties']).toEqual({
      year: { type: 'integer', enum: [1999, 2000] },
      size: { type: 'string', description: 'Print size', enum: ['small', 'large'] },
    });
  });

  it('changes nothing on the BFCL corpus, which needs no repair', () => {
    const text = readFileSync(new URL('../fixtures/bfcl/BFCL_v4_multiple.json', import.meta.url), 'utf8');
    const a = importTools(text, { from: 'bfcl' });
    const b = importTools(text, { from: 'bfcl', repair: true });
    expect(b.gram).toBe(a.gram);
    expect(b.tools.flatMap((t) => t.diagnostics).some((d) => d.code === 'SPEC_IMPORT_REPAIRED')).toBe(false);
  });

  it('is the --repair option of gramkit import', async () => {
    const plain = await cli(['import', '--from', 'bfcl', '-'], { stdin: ARRAY_ENUM });
    expect(plain.code).toBe(1);
    const r = await cli(['import', '--from', 'bfcl', '--repair', '-'], { stdin: ARRAY_ENUM });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('warning[SPEC_IMPORT_REPAIRED]');
    expect(r.stdout).toContain('(genres::Array {elementType: {type: "String", enum: ["fiction", "history", "science"]}');
  });
});
