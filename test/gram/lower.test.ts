/**
 * Lowering to patterns and canonical JSON: the decisions of NOTES §2 and issue 2, goldens for the
 * examples, and laws (determinism, JSON round trip).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseGram, toCanonicalJson, toPatterns, type GramDocument, type GramJson, type GramPattern, type Value } from '../../src/index.js';
import { headerPattern, valueToJson } from '../../src/entries/gram.js';
import { documentArb } from './support/arbitrary.js';
import { loadExamples } from './support/corpus.js';
import { expectGolden } from '../support/golden.js';

const doc = (text: string): GramDocument => {
  const r = parseGram(text);
  if (r._tag === 'Left') throw new Error(r.left.map((d) => d.message).join('; '));
  return r.right;
};

/** A compact picture of patterns: `[id:L,M | elements]`, `id` for atoms. */
const picture = (p: GramPattern): string => {
  const s = p.subject;
  const head = `${s.identity}${s.labels.map((l) => `:${l}`).join('')}`;
  return p.elements.length === 0 ? head || '()' : `[${head} | ${p.elements.map(picture).join(', ')}]`;
};

const lower = (text: string): string[] => toPatterns(doc(text)).patterns.map(picture);

const valueOf = (text: string): Value => {
  const p = doc(`({k: ${text}})`).patterns[0];
  if (p?.kind !== 'Node' || p.record?.properties[0] === undefined) throw new Error('no value');
  return p.record.properties[0].value;
};

describe('toPatterns', () => {
  it('lowers a relationship to [r | a, b]; a left arrow reverses the elements', () => {
    expect(lower('(a)-[r:T]->(b)')).toEqual(['[r:T | a, b]']);
    expect(lower('(a)<-[r]-(b)')).toEqual(['[r | b, a]']);
    expect(lower('(a)-[r]-(b)')).toEqual(['[r | a, b]']);
    expect(lower('(a)<-[r]->(b)')).toEqual(['[r | a, b]']);
    expect(lower('(a)<==(b)')).toEqual(['[ | b, a]']);
  });
  it('gives each relationship of a multi-hop path its own two-element pattern', () => {
    expect(lower('(a)-[r1]->(b)<-[r2]-(c)--(d)')).toEqual(['[r1 | a, b]', '[r2 | c, b]', '[ | c, d]']);
    expect(lower('[p | (a)-->(b)-->(c), d]')).toEqual(['[p | [ | a, b], [ | b, c], d]']);
  });
  it('lowers annotations to an anonymous wrapper; @@ sets its identity and labels', () => {
    const [w] = toPatterns(doc('@k(1) @m("x") (a)')).patterns;
    expect(w?.subject).toEqual({ identity: '', labels: [], properties: { k: 1, m: 'x' } });
    expect(w?.elements.map(picture)).toEqual(['a']);
    expect(lower('@@w:B:A (a)-->(b)-->(c)')).toEqual(['[w:A:B | [ | a, b], [ | b, c]]']);
  });
  it('makes integer identities strings and references atoms', () => {
    expect(lower('(42)-->(-0)')).toEqual(['[ | 42, 0]']);
    expect(lower('[`a b` | `c d`, 7]')).toEqual(['[a b | c d, 7]']);
    expect(lower('(12345678901234567890123)')).toEqual(['12345678901234567890123']);
  });
  it('treats labels as a set and keeps the last of repeated keys', () => {
    const [p] = toPatterns(doc('(a:B:A:B {k: 1, k: 2})')).patterns;
    expect(p?.subject).toEqual({ identity: 'a', labels: ['A', 'B'], properties: { k: 2 } });
  });
  it('returns the header apart', () => {
    const l = toPatterns(doc('{v: 1, name: "g"}\n(a)'));
    expect(l.header).toEqual({ v: 1, name: 'g' });
    expect(l.patterns.map(picture)).toEqual(['a']);
    expect(toPatterns(doc('(a)')).header).toBeUndefined();
  });
  it('keeps a `__proto__` key as data', () => {
    const [p] = toPatterns(doc('({`__proto__`: 1})')).patterns;
    expect(Object.keys(p?.subject.properties ?? {})).toEqual(['__proto__']);
    expect(toCanonicalJson([p as GramPattern])).toContain('"__proto__":1');
  });
});

describe('valueToJson', () => {
  const cases: Array<[string, GramJson]> = [
    ['"Alice"', 'Alice'],
    ["'a'", 'a'],
    ['`b`', 'b'],
    ['```\nc\n```', 'c\n'],
    ['42', 42],
    ['-7', -7],
    ['3.14', 3.14],
    ['2.0', 2],
    ['0xFF', 255],
    ['0755', 493],
    ['true', true],
    ['false', false],
    ['sym', { type: 'symbol', value: 'sym' }],
    ['date`2024-01-15`', { type: 'tagged', tag: 'date', content: '2024-01-15' }],
    ['```md\n# T\n```', { type: 'tagged', tag: 'md', content: '# T\n' }],
    ['1..10', { type: 'range', lower: 1, upper: 10 }],
    ['1...', { type: 'range', lower: 1, upper: null }],
    ['...10', { type: 'range', lower: null, upper: 10 }],
    ['168cm', { type: 'measurement', unit: 'cm', value: 168 }],
    ['[1, "x", true]', [1, 'x', true]],
    ['{city: "P", zip: 97201}', { city: 'P', zip: 97201 }],
    ['[{name: "a"}, []]', [{ name: 'a' }, []]],
  ];
  it.each(cases)('%s', (text, json) => {
    expect(valueToJson(valueOf(text))).toEqual(json);
  });
});

describe('toCanonicalJson', () => {
  it('writes the gram-hs canonical form: subject before elements, every other key sorted', () => {
    expect(toCanonicalJson(toPatterns(doc('(a:Person {name: "Alice", h: 168cm})-[:KNOWS]->(b)')))).toBe(
      '[{"subject":{"identity":"","labels":["KNOWS"],"properties":{}},' +
        '"elements":[{"subject":{"identity":"a","labels":["Person"],"properties":{"h":{"type":"measurement","unit":"cm","value":168},"name":"Alice"}},"elements":[]},' +
        '{"subject":{"identity":"b","labels":[],"properties":{}},"elements":[]}]}]',
    );
  });
  it('puts the header first, as an anonymous atom', () => {
    expect(toCanonicalJson(toPatterns(doc('{v: 1}')))).toBe('[{"subject":{"identity":"","labels":[],"properties":{"v":1}},"elements":[]}]');
    expect(toCanonicalJson([])).toBe('[]');
  });
  it('orders keys by code point, numeric-looking keys included', () => {
    const json = toCanonicalJson(toPatterns(doc('({b: 1, `10`: 2, `2`: 3, `é`: 4, `😀`: 5, `\uff61`: 6, A: 7})')));
    const keys = [...json.matchAll(/"([^"]+)":\d/g)].map((m) => m[1]);
    expect(keys).toEqual(['10', '2', 'A', 'b', 'é', '\uff61', '😀']);
  });
  it('indents on request', () => {
    expect(toCanonicalJson(toPatterns(doc('(a)')), { indent: 2 })).toBe(
      '[\n  {\n    "subject": {\n      "identity": "a",\n      "labels": [],\n      "properties": {}\n    },\n    "elements": []\n  }\n]',
    );
  });
  it('is JSON that reads back as the patterns, and deterministic', () => {
    fc.assert(
      fc.property(documentArb, (d) => {
        const lowered = toPatterns(d);
        const json = toCanonicalJson(lowered);
        const list =
          lowered.header === undefined
            ? lowered.patterns
            : [{ subject: { identity: '', labels: [], properties: lowered.header }, elements: [] }, ...lowered.patterns];
        expect(JSON.parse(json)).toEqual(JSON.parse(JSON.stringify(list)));
        expect(toCanonicalJson(toPatterns(d))).toBe(json);
        expect(JSON.parse(toCanonicalJson(lowered, { indent: 2 }))).toEqual(JSON.parse(json));
      }),
      { numRuns: 200 },
    );
  });
});

describe('goldens', () => {
  const own = ['hello.gram', 'notation.gram'].map((name) => ({
    name,
    text: readFileSync(join(import.meta.dirname, '..', '..', 'examples', name), 'utf8'),
  }));
  const vendored = loadExamples().filter((e) => parseGram(e.text)._tag === 'Right');
  it('covers the examples that parse', () => {
    expect(vendored.map((e) => e.name)).toEqual([
      'hello.gram',
      'letters.gram',
      'numbers.gram',
      'route-66.gram',
      'social.gram',
      'test-no-comments.gram',
      'test-simple.gram',
    ]);
  });
  it.each([...own.map((e) => ['examples', e.name, e.text] as const), ...vendored.map((e) => ['fixtures', e.name, e.text] as const)])(
    '%s/%s lowers to its golden canonical JSON',
    (dir, name, text) => {
      const base = `gram/golden/${dir}-${name.replace(/\.gram$/, '')}`;
      const whole = `${toCanonicalJson(toPatterns(doc(text)), { indent: 2 })}\n`;
      if (whole.split('\n').length <= 200) return expectGolden(`${base}.json`, whole);
      // a large document is pinned one top-level pattern per file, each small enough to review
      const lowered = toPatterns(doc(text));
      const patterns = lowered.header === undefined ? lowered.patterns : [headerPattern(lowered.header), ...lowered.patterns];
      expect(toCanonicalJson(patterns, { indent: 2 })).toBe(whole.trimEnd());
      patterns.forEach((p, i) => pin(p, `${base}/${String(i).padStart(2, '0')}`));
    },
  );
  /** A pattern's golden; one too large to review is pinned as its subject, then each element in a file of its own (`NN-MM`). */
  const pin = (p: GramPattern, path: string): void => {
    const text = `${toCanonicalJson([p], { indent: 2 })}\n`;
    if (text.split('\n').length <= 200 || p.elements.length === 0) return expectGolden(`${path}.json`, text);
    expectGolden(`${path}.json`, `${toCanonicalJson([{ subject: p.subject, elements: [] }], { indent: 2 })}\n`);
    p.elements.forEach((e, i) => pin(e, `${path}-${String(i).padStart(2, '0')}`));
  };
});
