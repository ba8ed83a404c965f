import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { didYouMean, editDistance } from '../../src/core/suggest.js';

const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd'), maxLength: 8 });

describe('editDistance (with adjacent transpositions)', () => {
  it('is zero exactly on equal words (ignoring case), symmetric, and at most the longer length', () => {
    fc.assert(
      fc.property(word, word, (a, b) => {
        const d = editDistance(a, b);
        expect(d === 0).toBe(a === b);
        expect(editDistance(b, a)).toBe(d);
        expect(d).toBeLessThanOrEqual(Math.max(a.length, b.length));
        expect(editDistance(a.toUpperCase(), b)).toBe(d);
      }),
    );
  });
  it('counts a swap of neighbours as one edit, and caps at max + 1', () => {
    fc.assert(
      fc.property(word, fc.nat(6), fc.nat(3), (a, i, max) => {
        if (i + 1 >= a.length || a[i] === a[i + 1]) return;
        const swapped = a.slice(0, i) + (a[i + 1] as string) + (a[i] as string) + a.slice(i + 2);
        expect(editDistance(a, swapped)).toBe(1);
        expect(editDistance(a, `${a}xyzw`, max)).toBe(Math.min(4, max + 1));
      }),
    );
  });
  it('suggests the property a transposition misspells', () => {
    expect(didYouMean('modle', ['description', 'instruction', 'model'])).toBe('did you mean `model`?');
    expect(didYouMean('temperature', ['description', 'instruction', 'model'])).toBeUndefined();
  });
});
