/**
 * `parseGram` and `analyzeGram`: the AST, spans, strict mode, diagnostics and their wording.
 */
import { describe, expect, it } from 'vitest';
import {
  analyzeGram,
  checkedDiagnostics,
  checkedValue,
  formatDiagnostic,
  parseGram,
  type Diagnostic,
  type GramDocument,
  type NodePattern,
  type Property,
} from '../../src/index.js';
import { keySpan, subjectSpan } from '../../src/entries/gram.js';
import { spanOf } from '../../src/core/span.js';

const ok = (text: string, options: { strict?: boolean } = {}): GramDocument => {
  const r = parseGram(text, options);
  if (r._tag === 'Left') throw new Error(r.left.map((d) => `${d.code}: ${d.message}`).join('\n'));
  return r.right;
};

const errors = (text: string, options: { strict?: boolean } = {}): Diagnostic[] => {
  const r = parseGram(text, options);
  if (r._tag === 'Right') throw new Error(`expected ${JSON.stringify(text)} to be rejected`);
  return [...r.left];
};

const slice = (text: string, s: { start: number; end: number } | undefined): string => (s === undefined ? '' : text.slice(s.start, s.end));

describe('the AST', () => {
  it('builds nodes, paths, subject patterns, annotations and the header', () => {
    const text = '{v: 1}\n(a:Person {name: "x"})-[r:KNOWS]->(b)<--(c)\n[g:Group | a, (b), [x | y]]\n@@w:W @k(1) (z)';
    const d = ok(text);
    expect(d.header?.properties.map((p) => p.key)).toEqual(['v']);
    expect(d.patterns.map((p) => p.kind)).toEqual(['Path', 'SubjectPattern', 'Annotated']);
    const path = d.patterns[0];
    if (path?.kind !== 'Path') throw new Error('path');
    expect(path.nodes.map((n) => n.identifier?.value)).toEqual(['a', 'b', 'c']);
    expect(path.arrows.map((a) => [a.direction, a.identifier?.value])).toEqual([
      ['right', 'r'],
      ['left', undefined],
    ]);
    const sp = d.patterns[1];
    if (sp?.kind !== 'SubjectPattern') throw new Error('subject pattern');
    expect(sp.elements.map((e) => e.kind)).toEqual(['Reference', 'Node', 'SubjectPattern']);
    const ann = d.patterns[2];
    if (ann?.kind !== 'Annotated') throw new Error('annotated');
    expect(ann.identified).toMatchObject({ identifier: { value: 'w' }, labels: [{ name: 'W' }] });
    expect(ann.annotations).toMatchObject([{ key: 'k', value: { kind: 'Integer', value: 1 } }]);
    expect(ann.target.kind).toBe('Node');
  });

  it('keeps what the formatter needs: styles, separators, raw numbers, arrow kinds', () => {
    const d = ok('(`a b`::L:`M N` {`k 1`: \'x\', "k2" :: 0x1F, k3: `y`})=[]=>(1)');
    const p = d.patterns[0];
    if (p?.kind !== 'Path') throw new Error('path');
    const s = p.nodes[0];
    expect(s?.identifier).toMatchObject({ style: 'backtick', value: 'a b' });
    expect(s?.labels).toMatchObject([
      { separator: '::', style: 'symbol', name: 'L' },
      { separator: ':', style: 'backtick', name: 'M N' },
    ]);
    expect(s?.record?.properties).toMatchObject([
      { key: 'k 1', keyStyle: 'backtick', separator: ':', value: { style: 'single', value: 'x' } },
      { key: 'k2', keyStyle: 'double', separator: '::', value: { kind: 'Hexadecimal', raw: '0x1F', value: 31 } },
      { key: 'k3', keyStyle: 'symbol', value: { kind: 'String', style: 'backtick', value: 'y' } },
    ]);
    expect(p.arrows[0]).toMatchObject({ family: '=', direction: 'right', bracketed: true, identifier: undefined, labels: [], record: undefined });
    expect(p.nodes[1]?.identifier).toMatchObject({ style: 'integer', value: '1' });
  });

  it('gives every node a span that covers its source text', () => {
    const text = '(a:Person {name: "x", age: 42})-[:KNOWS]->(b)';
    const p = ok(text).patterns[0];
    if (p?.kind !== 'Path') throw new Error('path');
    expect(slice(text, spanOf(p))).toBe(text);
    expect(slice(text, p.nodes[0])).toBe('(a:Person {name: "x", age: 42})');
    const n = p.nodes[0] as NodePattern;
    expect(slice(text, subjectSpan(n))).toBe('a:Person {name: "x", age: 42}');
    expect(slice(text, n.labels[0])).toBe(':Person');
    expect(slice(text, n.record?.properties[1])).toBe('age: 42');
    expect(slice(text, n.record && keySpan(n.record.properties[1] as Property))).toBe('age');
    expect(slice(text, n.record?.properties[1]?.value)).toBe('42');
    expect(subjectSpan(p.nodes[1] as NodePattern)).toEqual({ start: 43, end: 44 });
    expect(subjectSpan(ok('()').patterns[0] as NodePattern)).toBeUndefined();
    expect(slice(text, p.arrows[0])).toBe('-[:KNOWS]->');
  });

  it('keeps offsets on the nodes themselves, and only offsets in the spans of diagnostics', () => {
    const text = '(a {k: 1, k: 2})';
    const doc = ok(text);
    const record = doc.patterns[0]?.kind === 'Node' ? doc.patterns[0].record : undefined;
    expect(record).toMatchObject({ kind: 'Record', start: 3, end: 15 });
    expect(record).not.toHaveProperty('span');
    // the duplicate-key warning points at both keys, copied out of the tree: a diagnostic never holds a node
    const [w] = doc.warnings ?? [];
    expect(w?.code).toBe('GRAM_DUPLICATE_KEY');
    expect(w?.span).toEqual({ start: 10, end: 11 });
    expect(w?.related?.[0]?.span).toEqual({ start: 4, end: 5 });
  });

  it('accepts an empty document and a document of comments only', () => {
    expect(ok('').patterns).toEqual([]);
    expect(ok('// just a comment\n\n// and another').comments).toHaveLength(2);
  });

  it('records the file name', () => {
    const r = parseGram('(a)', { filename: 'x.gram' });
    expect(r._tag === 'Right' && r.right.filename).toBe('x.gram');
    const l = parseGram('(a', { filename: 'x.gram' });
    expect(l._tag === 'Left' && l.left[0]?.file).toBe('x.gram');
  });
});

describe('strict and default mode', () => {
  const nested = '(s {fields: [{name: "a", type: "Text"}], nested: {a: {b: 1}}, grid: [[1, 2]], none: []})';
  it('accepts nested values inside records by default', () => {
    const p = ok(nested).patterns[0];
    if (p?.kind !== 'Node') throw new Error('node');
    expect(p.record?.properties.map((x) => x.value.kind)).toEqual(['Array', 'Map', 'Array', 'Array']);
  });
  it('reports each nested value and empty array in strict mode', () => {
    const es = errors(nested, { strict: true });
    expect(es.map((e) => [e.code, slice(nested, e.span)])).toEqual([
      ['GRAM_NESTED_VALUE', '{name: "a", type: "Text"}'],
      ['GRAM_NESTED_VALUE', '{b: 1}'],
      ['GRAM_NESTED_VALUE', '[1, 2]'],
      ['GRAM_EMPTY_ARRAY', '[]'],
    ]);
  });
  it('reports nested values in annotations too', () => {
    expect(errors('@k([[1]]) (a)', { strict: true }).map((e) => e.code)).toEqual(['GRAM_NESTED_VALUE']);
  });
  it('never accepts `::` in a map', () => {
    expect(errors('({m: {a :: 1}})').map((e) => e.code)).toEqual(['GRAM_MAP_SEPARATOR']);
  });
});

describe('syntax errors', () => {
  it('says which bracket is open and where, in words', () => {
    const text = '// header\n\n(a)\n    (a:Person {name: "x"}\n(b)';
    const [e] = errors(text);
    expect(e?.code).toBe('GRAM_UNCLOSED_NODE');
    expect(e?.message).toBe('expected `)` to close the node opened at 4:5, found `(`');
    expect(e?.related?.[0]?.span.start).toBe(text.indexOf('(a:Person'));
  });
  it('reports several errors in one run', () => {
    const text = '(a {k 1})\n(ok)\n(b)-[r]=>(c)\n[g | (x) (y)]\n(d {m: })\n(e), (f)';
    expect(errors(text).map((e) => e.code)).toEqual([
      'GRAM_EXPECTED_COLON',
      'GRAM_MIXED_ARROW',
      'GRAM_UNCLOSED_SUBJECT_PATTERN',
      'GRAM_EXPECTED_VALUE',
      'GRAM_TOP_LEVEL_SEQUENCE',
    ]);
  });
  it('uses words people know, never token type names', () => {
    const inputs = ['(a', '(a)-', '{k: }', '[a |]', '@@ (a)', '(a) @', '{k: 1', '(a {k: [1, 2)', '(a)-[r', ')', '({k: 1..})', '(a) {b: 1}', '@k(1)'];
    for (const text of inputs) {
      for (const e of errors(text)) {
        expect(e.message, text).not.toMatch(/LParen|RParen|RBracket|LabelSeparator|Identifier\b|EOF|Cat\b/);
        expect(e.span, text).toBeDefined();
      }
    }
    expect(parseGram('(a)')._tag).toBe('Right');
  });
  it('points at a misplaced annotation once, not at its consequences', () => {
    expect(errors('( @a(1) @b("two") )').map((e) => e.code)).toEqual(['GRAM_MISPLACED_ANNOTATION']);
    expect(errors('[x | @d("m") (y)]').map((e) => e.code)).toEqual(['GRAM_MISPLACED_ANNOTATION']);
  });
  it('reports one error per mistake, not the consequences recovery runs into', () => {
    expect(errors("(a {s: 'unterminated})").map((e) => e.code)).toEqual(['GRAM_UNTERMINATED_STRING']);
    expect(errors('({s: ```\nnever closed})\n(b)').map((e) => e.code)).toEqual(['GRAM_UNTERMINATED_FENCE']);
    expect(errors('@description "x" (a)').map((e) => e.code)).toEqual(['GRAM_EXPECTED_ANNOTATION_VALUE']);
    expect(errors('(a {"k": 1, k2 = 2})').map((e) => e.code)).toEqual(['GRAM_EXPECTED_COLON']);
    expect(errors('(p:P)--[rel:R]->(o)').map((e) => e.code)).toEqual(['GRAM_EXPECTED_NODE']);
    expect(errors('[tools |\n  (a {k 1}),\n  (b {m: }),\n]').map((e) => [e.code, e.hint])).toEqual([
      ['GRAM_EXPECTED_COLON', 'records pair keys and values as `key: value`'],
      ['GRAM_EXPECTED_VALUE', 'values are strings, numbers, booleans, names, ranges, arrays `[…]` and maps `{…}`'],
      ['GRAM_EXPECTED_ELEMENT', 'remove the comma after the last element'],
    ]);
  });
  it('gives hints for common mistakes', () => {
    const hint = (text: string): string | undefined => errors(text)[0]?.hint;
    expect(hint('(a:Person {name: Alice Smith})')).toBe('write text with spaces as a string, like "Alice Smith"');
    expect(hint('(a:Person {name: "A" age: 42})')).toBe('separate entries with `,`');
    expect(hint('[a (b), (c)]')).toBe('put `|` between the subject and its elements, like `[team | (a), (b)]`');
    expect(hint('(12px)')).toBe('identifiers are names, integers or backtick-quoted names; write `12px` in backticks');
    expect(hint('(a)-[r]->[b]')).toBe("a relationship's subject goes between the halves of its arrow, like `-[r:KNOWS]->`");
    expect(hint('(a) # note')).toBe('comments start with `//` and run to the end of the line');
  });
  it('stops after maxErrors and says so', () => {
    const text = Array.from({ length: 50 }, () => '(a {k 1})').join('\n');
    const es = errors(text, { maxErrors: 10 } as never);
    expect(es).toHaveLength(11);
    expect(es[10]?.code).toBe('GRAM_TOO_MANY_ERRORS');
  });
  it('renders with file, line, column and a caret', () => {
    const text = '(a)\n(b {k: 1,})\n';
    const [e] = errors(text);
    expect(formatDiagnostic({ ...e!, file: 'x.gram' }, text)).toBe(
      [
        'error[GRAM_EXPECTED_KEY]: expected a key in the record, found `}`',
        ' --> x.gram:2:10',
        '  |',
        '2 | (b {k: 1,})',
        '  |          ^',
        '  = hint: remove the comma after the last entry',
      ].join('\n'),
    );
  });
});

describe('warnings', () => {
  it('warns about repeated keys and annotations (the last value wins)', () => {
    const d = ok('({a: 1, b: 2, a: 3}) @k(1) @k(2) (x)');
    expect(d.warnings?.map((w) => [w.code, w.severity])).toEqual([
      ['GRAM_DUPLICATE_KEY', 'warning'],
      ['GRAM_DUPLICATE_ANNOTATION', 'warning'],
    ]);
  });
  it('warns about numbers JSON cannot hold exactly and range bounds that lose their unit', () => {
    const d = ok('({big: 9007199254740993, hex: 0xFFFFFFFFFFFFFFFF, r: 1m..5m})');
    expect(d.warnings?.map((w) => w.code)).toEqual(['GRAM_UNSAFE_NUMBER', 'GRAM_UNSAFE_NUMBER', 'GRAM_RANGE_UNIT', 'GRAM_RANGE_UNIT']);
  });
  it('returns warnings with errors from analyzeGram', () => {
    const r = analyzeGram('({a: 1, a: 2})');
    expect(checkedValue(r)).toBeDefined();
    expect(checkedDiagnostics(r).map((d) => d.code)).toEqual(['GRAM_DUPLICATE_KEY']);
  });
});
