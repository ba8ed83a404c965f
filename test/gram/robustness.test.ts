/**
 * The parser never throws, hangs or overflows the stack: fuzzed input, mutated corpus cases, deep
 * nesting, long paths. Chunked parsing gives the same result as parsing in one piece.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  analyzeGram,
  checkedDiagnostics,
  checkedValue,
  formatGram,
  parseGram,
  toCanonicalJson,
  toPatterns,
  type Diagnostic,
  type Checked,
  type GramDocument,
} from '../../src/index.js';
import { GRAM_TOKENS, stripLayout } from './support/arbitrary.js';
import { loadCorpus } from './support/corpus.js';

const corpus = loadCorpus();

const wellFormed = (text: string, r: Checked<GramDocument>): void => {
  expect(checkedValue(r) !== undefined || checkedDiagnostics(r).some((d) => d.severity === 'error')).toBe(true);
  for (const d of checkedDiagnostics(r) as Diagnostic[]) {
    expect(d.code).not.toBe('GRAM_INTERNAL_ERROR');
    expect(d.code).toMatch(/^GRAM_[A-Z_]+$/);
    if (d.span !== undefined) {
      expect(d.span.start).toBeGreaterThanOrEqual(0);
      expect(d.span.end).toBeGreaterThanOrEqual(d.span.start);
      expect(d.span.end).toBeLessThanOrEqual(text.length);
    }
  }
};

const gramAlphabet = fc.constantFrom(...GRAM_TOKENS);

describe('fuzzing', () => {
  it('returns a document or located diagnostics for random strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (text) => {
        wellFormed(text, analyzeGram(text));
      }),
      { numRuns: 500 },
    );
  });
  it('returns a document or located diagnostics for random token soup, in both modes', () => {
    fc.assert(
      fc.property(fc.array(gramAlphabet, { maxLength: 40 }), fc.boolean(), (parts, strict) => {
        const text = parts.join('');
        wellFormed(text, analyzeGram(text, { strict }));
      }),
      { numRuns: 1500 },
    );
  });
  it('survives every mutation of corpus cases (deletions, insertions, swaps)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: corpus.length - 1 }),
        fc.array(fc.tuple(fc.nat(), fc.nat({ max: 2 }), gramAlphabet), { minLength: 1, maxLength: 4 }),
        (i, edits) => {
          let text = (corpus[i] as { input: string }).input;
          for (const [at, op, s] of edits) {
            const p = text.length === 0 ? 0 : at % text.length;
            text =
              op === 0
                ? text.slice(0, p) + text.slice(p + 1)
                : op === 1
                  ? text.slice(0, p) + s + text.slice(p)
                  : text.slice(0, p) + s + text.slice(p + s.length);
          }
          const r = analyzeGram(text);
          wellFormed(text, r);
          if (checkedValue(r) !== undefined) {
            expect(parseGram(formatGram(checkedValue(r)!))._tag).toBe('Right');
            expect(() => toCanonicalJson(toPatterns(checkedValue(r)!))).not.toThrow();
          }
        },
      ),
      { numRuns: 1500 },
    );
  });
});

describe('deep and long input', () => {
  it.each([
    ['brackets', '['.repeat(10_000)],
    ['parentheses', '('.repeat(10_000)],
    ['braces', '{'.repeat(10_000)],
    ['closed arrays', `({k: ${'['.repeat(10_000)}1${']'.repeat(10_000)}})`],
    ['closed subject patterns', `${'[a | '.repeat(10_000)}(b)${']'.repeat(10_000)}`],
    ['closed maps', `({k: ${'{a: '.repeat(10_000)}1${'}'.repeat(10_000)}})`],
  ])('10,000 nested %s give GRAM_NESTING_TOO_DEEP', (_, text) => {
    const r = analyzeGram(text);
    expect(checkedValue(r)).toBeUndefined();
    expect(checkedDiagnostics(r).map((d) => d.code)).toEqual(['GRAM_NESTING_TOO_DEEP']);
    expect(checkedDiagnostics(r)[0]?.message).toBe('brackets are nested more than 256 levels deep');
  });

  it('parses, lowers, prints and serializes nesting up to the limit', () => {
    const depth = 255;
    for (const text of [
      `({k: ${'['.repeat(depth - 2)}1${']'.repeat(depth - 2)}})`,
      `${'[a | '.repeat(depth)}(b)${']'.repeat(depth)}`,
      `({k: ${'{a: '.repeat(depth - 2)}1${'}'.repeat(depth - 2)}})`,
    ]) {
      const r = parseGram(text);
      expect(r._tag).toBe('Right');
      if (r._tag !== 'Right') continue;
      const printed = formatGram(r.right);
      expect(parseGram(printed)._tag).toBe('Right');
      expect(JSON.parse(toCanonicalJson(toPatterns(r.right)))).toBeInstanceOf(Array);
    }
    expect(checkedDiagnostics(analyzeGram('['.repeat(300), { maxDepth: 400 }))[0]?.code).toBe('GRAM_UNCLOSED_SUBJECT_PATTERN');
    expect(checkedDiagnostics(analyzeGram('['.repeat(600), { maxDepth: 100_000 }))[0]?.code).toBe('GRAM_NESTING_TOO_DEEP');
  });

  it('handles a path of 100,000 hops and a subject pattern of 100,000 elements without recursion', () => {
    const path = `(n0)${Array.from({ length: 100_000 }, (_, i) => `-[:R]->(n${i + 1})`).join('')}`;
    const r = parseGram(path);
    expect(r._tag).toBe('Right');
    if (r._tag !== 'Right') return;
    expect(toPatterns(r.right).patterns).toHaveLength(100_000);
    expect(formatGram(r.right).split('\n')).toHaveLength(100_002);
    const list = `[g | ${Array.from({ length: 100_000 }, (_, i) => `n${i}`).join(', ')}]`;
    const l = parseGram(list);
    expect(l._tag === 'Right' && toPatterns(l.right).patterns[0]?.elements.length).toBe(100_000);
  });
});

describe('chunked parsing', () => {
  const lines = [
    '{v: 1}',
    '(a:Person {name: "x"})-[:KNOWS]->(b)<--(c)',
    '@k(1) @@w (d)',
    '[g | a, (b)-->(c), [h | d]]',
    '(e {k: [1, {m: 2}], r: 1..2})',
    '// a comment',
    '@desc("annotated path") (f)-[r {w: 1}]->(g)',
  ];
  it('gives the same document whatever the chunk size', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: lines.length - 1 }), { maxLength: 30 }), fc.integer({ min: 1, max: 64 }), (picks, chunkTokens) => {
        const text = [lines[0], ...picks.map((i) => lines[i])].join('\n');
        const whole = analyzeGram(text);
        const chunked = analyzeGram(text, { chunkTokens });
        expect(stripLayout(chunked)).toEqual(stripLayout(whole));
        expect(checkedValue(chunked)?.blankLines).toEqual(checkedValue(whole)?.blankLines);
      }),
      { numRuns: 200 },
    );
  });
  it('reports the same errors whatever the chunk size', () => {
    const text = '(a)\n(b {k 1})\n(c)\n(d), (e)\n(x)\n{m: 1}\n[s | t]\n(f)-->\n(g)\n@k(1)';
    const whole = checkedDiagnostics(analyzeGram(text));
    for (const chunkTokens of [1, 2, 3, 5, 8, 13]) expect(checkedDiagnostics(analyzeGram(text, { chunkTokens }))).toEqual(whole);
  });
});
