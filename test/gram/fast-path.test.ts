/**
 * The fast path (`fast-parser.ts`) against the Chevrotain parser it stands in for: on every input,
 * valid or not, `analyzeGram` (fast path first) and `analyzeGramWithChevrotain` give the same
 * result, document and diagnostics alike. And the fast path is taken exactly where it should be:
 * it accepts every valid document of the common shape (a silent fallback would be correct but
 * slow) and gives up on every other text, invalid or of another shape.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatGram, type GramDocument, type ParseOptions } from '../../src/index.js';
import { fastParse } from '../../src/gram/fast-parser.js';
import { analyzeGram, analyzeGramWithChevrotain } from '../../src/gram/parse.js';
import { documentArb, GRAM_TOKENS } from './support/arbitrary.js';
import { inCommonShape, toCommonShape } from './support/common-shape.js';
import { loadCorpus, loadExamples } from './support/corpus.js';

const corpus = loadCorpus();
const examples = loadExamples();

const OPTIONS: ReadonlyArray<ParseOptions> = [{}, { strict: true }, { maxErrors: 3 }, { maxDepth: 4 }, { filename: 'x.gram' }];

type Result = ReturnType<typeof analyzeGram>;

/** The document of a result, if it has one. */
const documentOf = (r: Result): GramDocument | undefined => (r._tag === 'Right' ? r.right.value : undefined);

/** Both paths agree; returns the reference result. */
const agree = (text: string, options: ParseOptions = {}): Result => {
  const reference = analyzeGramWithChevrotain(text, options);
  const fast = analyzeGram(text, options);
  expect(fast).toStrictEqual(reference);
  // the same properties in the same order too (JSON output, printing)
  expect(JSON.stringify(fast)).toBe(JSON.stringify(reference));
  return reference;
};

/**
 * The fast path accepts `text` exactly when it has no error (before strict mode's checks) and its
 * document is of the common shape; returns whether it did.
 */
const takenExactly = (text: string, options: ParseOptions = {}): boolean => {
  const doc = documentOf(analyzeGramWithChevrotain(text, { ...options, strict: false }));
  const taken = fastParse(text, options.maxDepth ?? 256) !== undefined;
  expect(taken).toBe(doc !== undefined && inCommonShape(doc));
  return taken;
};

// gram's tokens, and spellings at the edges of the fast path's lexer
const alphabet = fc.constantFrom(...GRAM_TOKENS, 'false', '08', '"a\\q"', '9007199254740993', 'x`t`', '1..', '..2');

describe('fast path and Chevrotain parser', () => {
  it('agree on every corpus case and example, in every mode', () => {
    for (const { input } of corpus) {
      for (const options of OPTIONS) agree(input, options);
      takenExactly(input);
    }
    for (const { text } of examples) {
      for (const options of OPTIONS) agree(text, options);
      takenExactly(text);
    }
  });

  it('agree on generated documents, which the fast path accepts when they are of the common shape', () => {
    let taken = 0;
    fc.assert(
      fc.property(documentArb, fc.boolean(), (doc, strict) => {
        const text = formatGram(doc);
        const r = agree(text, { strict });
        if (!strict) expect(documentOf(r)).toBeDefined();
        if (takenExactly(text)) taken++;
      }),
      { numRuns: 500 },
    );
    expect(taken).toBeGreaterThan(0);
  });

  it('agree on generated documents of the common shape, which the fast path accepts', () => {
    fc.assert(
      fc.property(documentArb.map(toCommonShape), fc.boolean(), (doc, strict) => {
        const text = formatGram(doc);
        const r = agree(text, { strict });
        if (!strict) expect(documentOf(r)).toBeDefined();
        expect(fastParse(text, 256)).toBeDefined();
      }),
      { numRuns: 800 },
    );
  });

  it('agree on mutated corpus cases (deletions, insertions, swaps)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: corpus.length - 1 }),
        fc.array(fc.tuple(fc.nat(), fc.nat({ max: 2 }), alphabet), { minLength: 1, maxLength: 4 }),
        fc.constantFrom(...OPTIONS),
        (i, edits, options) => {
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
          agree(text, options);
          takenExactly(text, options);
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('agree on token soup and random strings', () => {
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 40 }), fc.constantFrom(...OPTIONS), (parts, options) => {
        const text = parts.join('');
        agree(text, options);
        takenExactly(text, options);
      }),
      { numRuns: 1500 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (text) => {
        agree(text);
      }),
      { numRuns: 500 },
    );
  });

  it('agree on warnings (duplicates, unsafe numbers, range units) and on comments and blank lines', () => {
    const text = [
      '{a: 1, a: 2}',
      '',
      '// a comment',
      '(n {k: 9007199254740993, k: 0x1FFFFFFFFFFFFF, r: 1cm..2, s: ...3m, t: 5kg...})',
      '@x(1) @x(2) (m) // end of line',
      '',
      '',
      '[p | (a)-[:R {w: {q: 1, q: 2}}]->(b), c]',
    ].join('\n');
    const r = agree(text);
    expect(documentOf(r)?.warnings?.map((d) => d.code)).toEqual([
      'GRAM_DUPLICATE_KEY',
      'GRAM_UNSAFE_NUMBER',
      'GRAM_DUPLICATE_KEY',
      'GRAM_RANGE_UNIT',
      'GRAM_RANGE_UNIT',
      'GRAM_RANGE_UNIT',
      'GRAM_DUPLICATE_ANNOTATION',
      'GRAM_DUPLICATE_KEY',
    ]);
    expect(documentOf(r)?.comments).toHaveLength(2);
    takenExactly(text);
  });

  it('agree on large documents, long paths and lists, and deep nesting', () => {
    const lines = Array.from({ length: 2000 }, (_, i) => `(n${i}:Person {name: "x${i}", age: ${i % 90}})-[:KNOWS {since: ${2000 + (i % 25)}}]->(n${i + 1})`);
    agree(`${lines.join('\n')}\n`);
    // the fast path gives up at the last line: the Chevrotain parser reads it all again
    agree(`${lines.join('\n')}\n[g | n0, n1]\n`);
    agree(`(n0)${Array.from({ length: 5000 }, (_, i) => `-[:R]->(n${i + 1})`).join('')}`);
    agree(`[g | ${Array.from({ length: 5000 }, (_, i) => `n${i}`).join(', ')}]`);
    for (const depth of [255, 256, 257]) {
      agree(`({k: ${'['.repeat(depth - 2)}1${']'.repeat(depth - 2)}})`);
      agree(`${'[a | '.repeat(depth)}(b)${']'.repeat(depth)}`);
    }
    agree('['.repeat(300), { maxDepth: 400 });
  });

  it('gives up at the first problem of any kind', () => {
    for (const text of [
      '(a',
      '(a)-[:R]->(b',
      '(a)-=>(b)',
      '({m: {k:: 1}})',
      '(a {t: true`x`})',
      '(a {n: 08})',
      '(a {s: "x)',
      '(a) {b: 1}',
      '(a)]',
      '#',
      '(a {x: [1,]})',
      '(a {x: 1,})',
    ]) {
      expect(fastParse(text, 256)).toBeUndefined();
      expect(documentOf(analyzeGram(text))).toBeUndefined();
    }
  });

  it('gives up on every construct outside the common shape, and the Chevrotain parser reads it', () => {
    const body = [
      '(a:A {s: "x", n: [1, 2.5, 0xF, 07, 3cm, `b`, \'c\', sym, true, [false]]})-[r::R {k:: 1}]->(b)<==(c)~~>(`d`)',
      '[g:G {k: 1} | a, (b)-->(c), [h | `d`, 7], []]',
      '[| x]',
      '[]',
    ].join('\n');
    const common = `{v: 1}\n${body}`;
    expect(fastParse(common, 256)).toBeDefined();
    for (const other of [
      '@k(1) (a)',
      '[g | (a {r: 1..2})]',
      '[g | (a {m: {k: 1}})]',
      '@@id (a)',
      '(a {r: 1..2})',
      '(a {r: ...2})',
      '(a {r: 1...})',
      '(a {m: {k: 1}})',
      '(a {t: md`x`})',
      '(a {t: ```md\nx```})',
      '(a {x: [{k: 1}]})',
    ]) {
      for (const text of [other, `${common}\n${other}`, `${other}\n${body}`]) {
        expect(fastParse(text, 256)).toBeUndefined();
        const r = agree(text);
        expect(documentOf(r)).toBeDefined();
      }
    }
  });
});
