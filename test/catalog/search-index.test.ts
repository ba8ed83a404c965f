/**
 * The search index: its tiers (prefix > whole word > fuzzy > recency), accents and case,
 * and its pages as a law: paging in any page size gives exactly the one-page order, with no
 * repeats, no skips, and no empty page that carries a cursor.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SearchIndex, type SearchCursor, type SearchEntry } from 'gramkit/catalog';

const doc = (id: string, slug: string, description: string, modifiedAt: number, extra: Partial<SearchEntry> = {}): SearchEntry => ({
  id,
  slug,
  displayName: slug,
  description,
  tags: [],
  modifiedAt,
  ...extra,
});

describe('the search index', () => {
  const index = new SearchIndex();
  index.put(doc('1', 'weather-now', 'current conditions', 1));
  index.put(doc('2', 'forecast', 'the weather tomorrow', 2));
  index.put(doc('3', 'storms', 'wether warnings', 3));
  index.put(doc('4', 'Météo-France', 'prévisions', 4, { tags: ['weather'] }));
  index.put(doc('5', 'weatherly', 'newest', 5));
  const ids = (q: string, limit = 20): string[] => index.search(q, { limit }).hits.map((h) => h.id);

  it('ranks prefix > whole word > fuzzy, newest first within a tier', () => {
    expect(index.search('weather', { limit: 20 }).hits.map((h) => [h.id, h.tier])).toEqual([
      ['5', 1],
      ['1', 1],
      ['4', 2],
      ['2', 2],
      ['3', 3],
    ]);
  });

  it('ignores case and accents; a word prefix and a typo are fuzzy matches', () => {
    expect(ids('METEO')).toEqual(['4']);
    expect(ids('previsions')).toEqual(['4']);
    expect(ids('forcast')).toEqual(['2']);
    expect(ids('cond')).toEqual(['1']);
    expect(ids('zzz')).toEqual([]);
    expect(ids('')).toEqual(['5', '4', '3', '2', '1']);
  });

  it('a 3-letter word with a letter left out is a fuzzy match (jsn for json), not a substitution (wea is not web); two letters only by prefix', () => {
    const i = new SearchIndex();
    i.put(doc('j', 'json-parse', 'parses JSON text', 1));
    i.put(doc('x', 'xml', 'reads XML', 2));
    expect(i.search('jsn', { limit: 5 }).hits.map((h) => [h.id, h.tier])).toEqual([['j', 3]]);
    expect(i.search('xnl', { limit: 5 }).hits).toEqual([]); // a substitution in 3 letters is another word, not a typo
    i.put(doc('w', 'web-fetch', 'fetches a page', 3));
    expect(i.search('wea', { limit: 5 }).hits).toEqual([]);
    expect(i.search('jn', { limit: 5 }).hits).toEqual([]);
  });

  it('replaces and removes documents', () => {
    const i = new SearchIndex();
    i.put(doc('a', 'alpha', 'first', 1));
    i.put(doc('a', 'beta', 'second', 2));
    expect(i.search('alpha', { limit: 5 }).hits).toEqual([]);
    expect(i.search('beta', { limit: 5 }).hits.map((h) => h.id)).toEqual(['a']);
    i.remove('a');
    expect(i.search('beta', { limit: 5 }).hits).toEqual([]);
    expect(i.size).toBe(0);
  });

  it('pages in any size give exactly the one-page order', () => {
    const words = ['alpha', 'alps', 'beta', 'bet', 'gamma', 'gam', 'delta', 'alphabet'];
    fc.assert(
      fc.property(
        fc.array(fc.record({ slug: fc.constantFrom(...words), d: fc.array(fc.constantFrom(...words), { maxLength: 4 }), t: fc.integer({ min: 0, max: 20 }) }), {
          maxLength: 60,
        }),
        fc.constantFrom('al', 'alpha', 'bet', 'gama', 'alp bet', ''),
        fc.integer({ min: 1, max: 7 }),
        (docs, q, size) => {
          const i = new SearchIndex();
          docs.forEach((d, n) => i.put(doc(`d${String(n).padStart(3, '0')}`, `${d.slug}-${n}`, d.d.join(' '), d.t)));
          const all = i.search(q, { limit: 1000 }).hits.map((h) => h.id);
          const paged: string[] = [];
          let after: SearchCursor | undefined;
          for (let guard = 0; guard < 200; guard++) {
            const p = i.search(q, { limit: size, ...(after !== undefined ? { after } : {}) });
            expect(p.hits.length > 0 || p.next === undefined).toBe(true);
            paged.push(...p.hits.map((h) => h.id));
            if (p.next === undefined) break;
            after = p.next;
          }
          expect(paged).toEqual(all);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a load (bulk) indexed later, a slice at a time, with puts and removes in between: every search as if each document had been indexed at once', () => {
    const words = ['alpha', 'alps', 'beta', 'bet', 'gamma', 'gam'];
    const op = fc.oneof(
      fc.record({ put: fc.integer({ min: 0, max: 12 }), slug: fc.constantFrom(...words), d: fc.constantFrom(...words), t: fc.integer({ min: 0, max: 30 }) }),
      fc.record({ remove: fc.integer({ min: 0, max: 12 }) }),
      fc.record({ slice: fc.integer({ min: 0, max: 5 }) }),
    );
    const queries = ['al', 'alpha', 'bet', 'gama', ''];
    fc.assert(
      fc.property(fc.array(op, { maxLength: 20 }), fc.array(op, { maxLength: 20 }), (loaded, after) => {
        const lazy = new SearchIndex();
        const eager = new SearchIndex();
        const apply = (o: (typeof loaded)[number], into: SearchIndex[]): void => {
          for (const i of into) {
            if ('put' in o) i.put(doc(`d${o.put}`, `${o.slug}-${o.put}`, o.d, o.t));
            else if ('remove' in o) i.remove(`d${o.remove}`);
            else if (i === lazy) i.catchUp(o.slice);
          }
        };
        lazy.bulk(() => loaded.forEach((o) => apply(o, [lazy])));
        loaded.forEach((o) => apply(o, [eager]));
        for (const o of after) {
          apply(o, [lazy, eager]);
          if ('slice' in o) for (const q of queries) expect(lazy.search(q, { limit: 100 }).hits).toEqual(eager.search(q, { limit: 100 }).hits);
        }
        for (const q of queries) expect(lazy.search(q, { limit: 100 }).hits).toEqual(eager.search(q, { limit: 100 }).hits);
        expect(lazy.size).toBe(eager.size);
      }),
      { numRuns: 300 },
    );
  });

  it('filters with `visible` without breaking pages', () => {
    const i = new SearchIndex();
    for (let n = 0; n < 30; n++) i.put(doc(`d${n}`, `tool-${n}`, 'same words', n));
    const visible = (id: string): boolean => Number(id.slice(1)) % 3 === 0;
    const first = i.search('same', { limit: 4, visible });
    expect(first.hits.map((h) => h.id)).toEqual(['d27', 'd24', 'd21', 'd18']);
    const second = i.search('same', { limit: 100, visible, ...(first.next !== undefined ? { after: first.next } : {}) });
    expect(second.hits.map((h) => h.id)).toEqual(['d15', 'd12', 'd9', 'd6', 'd3', 'd0']);
  });
});
