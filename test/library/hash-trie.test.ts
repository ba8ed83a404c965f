import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HashTrie } from '../../src/library/hash-trie.js';
import { hashString } from '../../src/library/string-hash.js';

// The library's laws (tool-library.test.ts) cover what the trie answers, through the public API.
// This covers what the API cannot see: a map has one shape whatever the updates that made it.

// t7pd6, tovl8, xakiehjva and xe1yemfya share their whole hash
const keyArb = fc.oneof(
  fc.constantFrom('t7pd6', 'tovl8', 'xakiehjva', 'xe1yemfya'),
  fc.string({ maxLength: 4 }),
  fc.nat({ max: 5000 }).map((n) => `tool_${n}`),
);
const values = Array.from({ length: 8 }, (_, i) => ({ i }));

/** The nodes of a trie, as plain data. */
const shape = (t: HashTrie<object>): unknown => (t as unknown as { root: unknown }).root;

describe('HashTrie', () => {
  it('the order in which keys are set does not change the shape (keys of distinct hashes)', () => {
    const distinctArb = fc.uniqueArray(
      fc.oneof(
        fc.string({ maxLength: 4 }),
        fc.nat({ max: 5000 }).map((n) => `tool_${n}`),
      ),
      { maxLength: 300 },
    );
    fc.assert(
      fc.property(
        distinctArb.chain((keys) => fc.tuple(fc.constant(keys), fc.shuffledSubarray(keys, { minLength: keys.length }))),
        ([keys, shuffled]) => {
          // a collision node keeps its pairs in the order they came
          fc.pre(new Set(keys.map(hashString)).size === keys.length);
          // each key with the same value in both orders
          const build = (ks: ReadonlyArray<string>) =>
            ks.reduce((t, k) => t.set(k, values[keys.indexOf(k) % values.length] as object), HashTrie.empty<object>());
          expect(shape(build(shuffled))).toEqual(shape(build(keys)));
          expect(build(shuffled).size).toBe(keys.length);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('removing keys gives the shape of the trie built without them', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(keyArb, fc.nat({ max: 7 })), { maxLength: 300 }), fc.array(fc.nat(), { maxLength: 300 }), (entries, picks) => {
        const all = entries.reduce((t, [k, v]) => t.set(k, values[v] as object), HashTrie.empty<object>());
        const keys = [...new Set(entries.map(([k]) => k))];
        const removed = new Set(picks.map((p) => keys[p % Math.max(1, keys.length)]));
        const after = [...removed].reduce((t, k) => (k === undefined ? t : t.delete(k)), all);
        const rebuilt = entries.filter(([k]) => !removed.has(k)).reduce((t, [k, v]) => t.set(k, values[v] as object), HashTrie.empty<object>());
        expect(after.size).toBe(rebuilt.size);
        expect(shape(after)).toEqual(shape(rebuilt));
      }),
      { numRuns: 200 },
    );
  });

  it('built at once from entries, it has the shape of setting them one after another', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(keyArb, fc.nat({ max: 7 })), { maxLength: 400 }), (entries) => {
        const pairs = entries.map(([k, v]) => [k, values[v] as object] as const);
        const folded = pairs.reduce((t, [k, v]) => t.set(k, v), HashTrie.empty<object>());
        const built = HashTrie.from(pairs);
        expect(built.size).toBe(folded.size);
        expect(shape(built)).toEqual(shape(folded));
      }),
      { numRuns: 200 },
    );
  });

  it('an update that changes nothing returns the same trie', () => {
    const t = HashTrie.empty<object>()
      .set('a', values[0] as object)
      .set('t7pd6', values[1] as object)
      .set('tovl8', values[2] as object);
    expect(t.set('a', values[0] as object)).toBe(t);
    expect(t.set('tovl8', values[2] as object)).toBe(t);
    expect(t.delete('absent')).toBe(t);
    expect(t.delete('xakiehjva')).toBe(t);
    expect(t.delete('a').delete('t7pd6').delete('tovl8')).toEqual(HashTrie.empty());
  });
});
