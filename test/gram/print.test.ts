import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatGram, parseGram, type GramDocument } from '../../src/index.js';
import { documentArb, stripLayout } from './support/arbitrary.js';
import { loadCorpus, loadExamples } from './support/corpus.js';
import { expectGolden } from '../support/golden.js';

const parseOk = (text: string): GramDocument => {
  const r = parseGram(text);
  if (r._tag === 'Left') throw new Error(`expected ${JSON.stringify(text)} to parse: ${r.left.map((d) => d.message).join('; ')}`);
  return r.right;
};

/** The AST without layout, comments as a sorted multiset (the formatter may move them). */
const content = (d: GramDocument): unknown => stripLayout({ ...d, comments: d.comments.map((c) => c.text.trimEnd()).sort() });

describe('formatGram: laws over generated documents', () => {
  it('parse(print(ast)) equals ast, without spans', () => {
    fc.assert(
      fc.property(documentArb, (doc) => {
        const text = formatGram(doc);
        expect(stripLayout(parseOk(text))).toEqual(stripLayout(doc));
      }),
      { numRuns: 300 },
    );
  });
  it('printing is idempotent: print(parse(print(ast))) === print(ast)', () => {
    fc.assert(
      fc.property(documentArb, fc.integer({ min: 20, max: 120 }), (doc, width) => {
        const text = formatGram(doc, { width });
        expect(formatGram(parseOk(text), { width })).toBe(text);
      }),
      { numRuns: 300 },
    );
  });
});

const corpusInputs = loadCorpus()
  .filter((c) => !c.error)
  .map((c) => ({ name: `${c.file}: ${c.name}`, text: c.input }));
const exampleInputs = loadExamples()
  .filter((e) => parseGram(e.text)._tag === 'Right')
  .map((e) => ({ name: e.name, text: e.text }));

describe('formatGram on real inputs', () => {
  it.each([...corpusInputs, ...exampleInputs].map((x) => [x.name, x.text] as const))('%s round-trips', (_, text) => {
    const original = parseOk(text);
    const printed = formatGram(original);
    const reparsed = parseOk(printed);
    expect(content(reparsed)).toEqual(content(original));
    expect(formatGram(reparsed)).toBe(printed);
  });

  it.each(exampleInputs.map((x) => [x.name, x.text] as const))('formats %s as its golden', (name, text) => {
    expectGolden(`gram/golden/fixtures-${name.replace(/\.gram$/, '')}.fmt.gram`, formatGram(parseOk(text)));
  });
});

/** Offsets of AST span boundaries: always between two tokens, never inside one. */
const boundaries = (d: GramDocument): number[] => {
  const out = new Set<number>();
  const walk = (x: unknown): void => {
    if (Array.isArray(x)) x.forEach(walk);
    else if (x !== null && typeof x === 'object') {
      for (const [k, v] of Object.entries(x)) {
        if ((k === 'start' || k === 'end') && typeof v === 'number') out.add(v);
        else if (k !== 'comments') walk(v);
      }
    }
  };
  walk(d);
  return [...out].sort((a, b) => a - b);
};

describe('comments', () => {
  it('keeps every comment, wherever it was written, and formats idempotently', () => {
    const inputs = [...corpusInputs, ...exampleInputs];
    fc.assert(
      fc.property(fc.integer({ min: 0, max: inputs.length - 1 }), fc.array(fc.nat(), { minLength: 1, maxLength: 6 }), (i, picks) => {
        const text = (inputs[i] as { text: string }).text;
        const bs = boundaries(parseOk(text));
        const at = [...new Set(picks.map((p) => bs[p % bs.length] as number))].sort((a, b) => b - a);
        let commented = text;
        at.forEach((offset, n) => {
          commented = `${commented.slice(0, offset)} // c${n}\n${commented.slice(offset)}`;
        });
        const parsed = parseOk(commented);
        expect(stripLayout({ ...parsed, comments: [] })).toEqual(stripLayout({ ...parseOk(text), comments: [] }));
        const printed = formatGram(parsed);
        const reparsed = parseOk(printed);
        expect(content(reparsed)).toEqual(content(parsed));
        expect(formatGram(reparsed)).toBe(printed);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps end-of-line comments on their line and own-line comments on theirs', () => {
    const text = '// file header\n\n(a) // about a\n\n// about b\n(b {\n  k: 1, // about k\n  // before m\n  m: 2\n})\n// trailing\n';
    expect(formatGram(parseOk(text))).toBe(
      '// file header\n\n(a) // about a\n\n// about b\n(b {\n  k: 1, // about k\n  // before m\n  m: 2\n})\n// trailing\n',
    );
  });

  it('moves a comment written inside an arrow before the nearest entry', () => {
    const printed = formatGram(parseOk('(a)-[r // inside\n]->(b)'));
    expect(printed).toBe('(a)\n  // inside\n  -[r]->\n  (b)\n');
  });
});

describe('layout', () => {
  it('writes canonical spacing and keeps the user’s spelling', () => {
    expect(formatGram(parseOk("( a : Person:: B {name:'x' , n :: 0x1F , r:1 .. 2} ) - [ : KNOWS ] -> ( b )"))).toBe(
      "(a:Person::B {name: 'x', n :: 0x1F, r: 1..2})-[:KNOWS]->(b)\n",
    );
    expect(formatGram(parseOk('[ ]\n[ a ]\n[ | a , b ]\n[a|b]\n@x( 1 )   ( )\n@@ p : L (a)'))).toBe('[]\n[a]\n[ | a, b]\n[a | b]\n@x(1) ()\n@@p:L (a)\n');
    expect(formatGram(parseOk('(a)-[]->(b)<==(c)~~(d)<-->(e)'))).toBe('(a)-[]->(b)<==(c)~~(d)<-->(e)\n');
  });
  it('breaks long constructs one entry per line', () => {
    const text = `(a:Person {name: "${'x'.repeat(40)}", age: 42, tags: ["a", "b"]})-[:KNOWS]->(b:Person {name: "Bob"})`;
    expect(formatGram(parseOk(text))).toBe(
      `(a:Person {\n  name: "${'x'.repeat(40)}",\n  age: 42,\n  tags: ["a", "b"]\n}) -[:KNOWS]->\n  (b:Person {name: "Bob"})\n`,
    );
    expect(formatGram(parseOk(text), { width: 200 })).toBe(`${text}\n`);
  });
  it('keeps at most one blank line between top-level patterns', () => {
    expect(formatGram(parseOk('(a)\n\n\n\n(b)\n(c)'))).toBe('(a)\n\n(b)\n(c)\n');
  });
  it('writes a fenced string raw, and a value a fence cannot hold as a quoted string', () => {
    // one entry stays on the line of its braces
    expect(formatGram(parseOk('({s: ```\n  raw \\n\n```})'))).toBe('({s: ```\n  raw \\n\n```})\n');
    const d = parseOk('({s: ```\nx\n```})');
    const p = d.patterns[0];
    if (p?.kind !== 'Node' || p.record === undefined) throw new Error('node');
    const prop = p.record.properties[0];
    if (prop === undefined) throw new Error('property');
    const changed: GramDocument = {
      ...d,
      patterns: [
        {
          ...p,
          record: {
            ...p.record,
            properties: [{ ...prop, value: { kind: 'String', style: 'fenced', value: 'has ``` inside', start: prop.value.start, end: prop.value.end } }],
          },
        },
      ],
    };
    expect(formatGram(changed)).toBe('({s: "has ``` inside"})\n');
  });
});
