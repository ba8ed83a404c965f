/** Counts in messages say their noun in the right number. */
import { describe, expect, it } from 'vitest';
import { plural } from '../../src/core/plural.js';
import { validateToolArgs } from '../../src/index.js';

describe('plural', () => {
  it('one, none, many; -y after a consonant; an irregular form', () => {
    expect(plural(1, 'character')).toBe('1 character');
    expect(plural(0, 'character')).toBe('0 characters');
    expect(plural(2, 'property')).toBe('2 properties');
    expect(plural(2, 'day')).toBe('2 days');
    expect(plural(3, 'child', 'children')).toBe('3 children');
  });

  it('validation messages: "at least 1 character", "at least 2 items"', () => {
    const schema = {
      type: 'object',
      properties: { s: { type: 'string', minLength: 1 }, a: { type: 'array', minItems: 2 }, o: { type: 'object', minProperties: 1 } },
    };
    const r = validateToolArgs(schema, { s: '', a: [1], o: {} });
    const text = JSON.stringify(r);
    expect(text).toContain('at least 1 character,');
    expect(text).toContain('at least 2 items,');
    expect(text).toContain('at least 1 property');
    expect(text).not.toMatch(/at least 1 (characters|properties)/);
  });
});
