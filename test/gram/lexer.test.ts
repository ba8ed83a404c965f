/**
 * The context-sensitive corners of gram's lexing (corpus NOTES §1), through the public parser.
 */
import { describe, expect, it } from 'vitest';
import { analyzeGram, checkedDiagnostics, parseGram, type GramDocument, type Value } from '../../src/index.js';

const ok = (text: string, strict = true): GramDocument => {
  const r = parseGram(text, { strict });
  if (r._tag === 'Left') throw new Error(`${JSON.stringify(text)}: ${r.left.map((d) => `${d.code} ${d.message}`).join('; ')}`);
  return r.right;
};

const codes = (text: string, strict = true): string[] =>
  checkedDiagnostics(analyzeGram(text, { strict }))
    .filter((d) => d.severity === 'error')
    .map((d) => d.code);

const rejects = (text: string, code?: string): void => {
  const cs = codes(text);
  expect(cs.length, `${JSON.stringify(text)} should be rejected`).toBeGreaterThan(0);
  if (code !== undefined) expect(cs).toContain(code);
};

/** The value of the only property of the only node: `({k: <value>})`. */
const value = (text: string, strict = true): Value => {
  const d = ok(`({k: ${text}})`, strict);
  const p = d.patterns[0];
  if (p?.kind !== 'Node') throw new Error('expected a node');
  const v = p.record?.properties[0]?.value;
  if (v === undefined) throw new Error('no value');
  return v;
};

describe('arrows', () => {
  it('reads `-->` as `-` then `->`, and every family and direction', () => {
    const cases: Array<[string, string, string]> = [
      ['-->', '-', 'right'],
      ['<--', '-', 'left'],
      ['--', '-', 'undirected'],
      ['<-->', '-', 'bidirectional'],
      ['==>', '=', 'right'],
      ['<==', '=', 'left'],
      ['==', '=', 'undirected'],
      ['<==>', '=', 'bidirectional'],
      ['~~>', '~', 'right'],
      ['<~~', '~', 'left'],
      ['~~', '~', 'undirected'],
      ['<~~>', '~', 'bidirectional'],
      ['-[r]->', '-', 'right'],
      ['<=[r]=', '=', 'left'],
      ['~[]~', '~', 'undirected'],
      ['<-[:T {k: 1}]->', '-', 'bidirectional'],
    ];
    for (const [arrow, family, direction] of cases) {
      const p = ok(`(a)${arrow}(b)`).patterns[0];
      expect(p?.kind, arrow).toBe('Path');
      if (p?.kind !== 'Path') continue;
      expect(p.arrows[0]).toMatchObject({ family, direction, bracketed: arrow.includes('[') });
    }
  });
  it('allows whitespace and comments between the two halves', () => {
    ok('(a)- ->(b)');
    ok('(a)- // between the halves\n->(b)');
    ok('(a)-[r] // after the brackets\n->(b)');
  });
  it('rejects a split `->`, lone halves and mixed families', () => {
    rejects('(a)-- >(b)', 'GRAM_INVALID_CHARACTER');
    rejects('(a)<->(b)');
    rejects('(a)<=>(b)');
    rejects('(a)->(b)');
    rejects('(a)-(b)', 'GRAM_INCOMPLETE_ARROW');
    rejects('(a)=(b)');
    rejects('(a)~(b)');
    rejects('(a)-[r]=>(b)', 'GRAM_MIXED_ARROW');
    rejects('(a)<~[r]->(b)', 'GRAM_MIXED_ARROW');
  });
});

describe('symbols', () => {
  it('may contain and end with `.`, `-` and `@`', () => {
    for (const s of ['a-', 'a--b', 'a..b', 'x@y.com', '_0n96pdf6E', 'hello-there', 'a...']) {
      const p = ok(`(${s})`).patterns[0];
      expect(p?.kind === 'Node' ? p.identifier?.value : undefined, s).toBe(s);
    }
  });
  it('cannot start with a digit, `@`, `.` or `-`, nor hold non-ASCII letters', () => {
    rejects('(@neo4j.com)', 'GRAM_INVALID_IDENTIFIER');
    rejects('(12px)', 'GRAM_INVALID_IDENTIFIER');
    rejects('(.a)');
    rejects('(café)', 'GRAM_INVALID_CHARACTER');
  });
  it('reads `true` and `false` as booleans only in value position', () => {
    const d = ok('(true:false {true: false, false: true, x: TRUE})');
    const p = d.patterns[0];
    if (p?.kind !== 'Node') throw new Error('node');
    expect(p.identifier?.value).toBe('true');
    expect(p.labels[0]?.name).toBe('false');
    const props = p.record?.properties ?? [];
    expect(props.map((x) => x.key)).toEqual(['true', 'false', 'x']);
    expect(props.map((x) => x.value)).toMatchObject([
      { kind: 'Boolean', value: false },
      { kind: 'Boolean', value: true },
      { kind: 'Symbol', name: 'TRUE' },
    ]);
    expect(ok('[true | true]').patterns[0]).toMatchObject({ kind: 'SubjectPattern', elements: [{ kind: 'Reference' }] });
    rejects('({k: true`x`})', 'GRAM_UNEXPECTED_TOKEN');
  });
});

describe('numbers', () => {
  it('reads each kind by longest match', () => {
    expect(value('42')).toMatchObject({ kind: 'Integer', raw: '42', value: 42 });
    expect(value('-0')).toMatchObject({ kind: 'Integer', raw: '-0' });
    expect(value('-7')).toMatchObject({ kind: 'Integer', value: -7 });
    expect(value('3.1495')).toMatchObject({ kind: 'Decimal', value: 3.1495 });
    expect(value('-0.5')).toMatchObject({ kind: 'Decimal', value: -0.5 });
    expect(value('0xCAFE')).toMatchObject({ kind: 'Hexadecimal', value: 0xcafe });
    expect(value('042')).toMatchObject({ kind: 'Octal', value: 0o42 });
    expect(value('00')).toMatchObject({ kind: 'Octal', value: 0 });
    expect(value('168cm')).toMatchObject({ kind: 'Measurement', value: 168, unit: 'cm' });
    expect(value('-5m')).toMatchObject({ kind: 'Measurement', value: -5, unit: 'm' });
    expect(value('0XFF')).toMatchObject({ kind: 'Measurement', value: 0, unit: 'XFF' });
    expect(value('0xFFg')).toMatchObject({ kind: 'Measurement', value: 0, unit: 'xFFg' });
    expect(value('0xg')).toMatchObject({ kind: 'Measurement', unit: 'xg' });
  });
  it('rejects what tree-sitter-gram rejects, as one malformed number', () => {
    for (const bad of ['08', '2.5s', '5e3', '1.5e-3', '0o77', '0b1010', '-042', '1_000', '0x1Fg', '-0x1F', '1.2.3']) {
      const cs = codes(`({k: ${bad}})`);
      expect(cs, bad).toEqual(['GRAM_INVALID_NUMBER']);
    }
    rejects('({k: .5})', 'GRAM_INVALID_CHARACTER');
    rejects('({k: 1.})', 'GRAM_INVALID_CHARACTER');
  });
  it('explains the malformed number', () => {
    const hint = (text: string): string | undefined => checkedDiagnostics(analyzeGram(`({k: ${text}})`))[0]?.hint;
    expect(hint('0b1010')).toMatch(/binary/);
    expect(hint('5e3')).toMatch(/exponent/);
    expect(hint('2.5s')).toMatch(/integer value/);
    expect(hint('08')).toMatch(/octal/);
    expect(hint('0o77')).toMatch(/leading zero/);
  });
});

describe('ranges', () => {
  it('has three forms, with any numbers and whitespace between the tokens', () => {
    expect(value('1..10')).toMatchObject({ kind: 'Range', form: 'closed', lower: { value: 1 }, upper: { value: 10 } });
    expect(value('1...')).toMatchObject({ kind: 'Range', form: 'from', lower: { value: 1 } });
    expect(value('...100')).toMatchObject({ kind: 'Range', form: 'to', upper: { value: 100 } });
    expect(value('-5..0x10')).toMatchObject({ form: 'closed', lower: { kind: 'Integer', value: -5 }, upper: { kind: 'Hexadecimal' } });
    expect(value('1.5 .. 2.5')).toMatchObject({ form: 'closed', lower: { kind: 'Decimal' } });
    expect(value('1 // lower\n..\n10')).toMatchObject({ form: 'closed' });
  });
  it('rejects incomplete ranges', () => {
    rejects('({k: 1..})', 'GRAM_INCOMPLETE_RANGE');
    rejects('({k: ...})');
    rejects('({k: 1...5})');
  });
});

describe('strings', () => {
  it('decodes the escapes gram knows, each quote escaping only itself', () => {
    expect(value(String.raw`'I say, "let\'s try it!"'`)).toMatchObject({ style: 'single', value: `I say, "let's try it!"` });
    expect(value(String.raw`"a\"b\\c\/d\n\t\r\b\f"`)).toMatchObject({ style: 'double', value: 'a"b\\c/d\n\t\r\b\f' });
    expect(value('`a\\`b`')).toMatchObject({ style: 'backtick', value: 'a`b' });
    expect(value('""')).toMatchObject({ value: '' });
    expect(value("''")).toMatchObject({ value: '' });
    rejects(String.raw`({k: "it\'s"})`, 'GRAM_INVALID_ESCAPE');
    rejects(String.raw`({k: "\u0041"})`, 'GRAM_INVALID_ESCAPE');
  });
  it('ends one-line strings at the line end', () => {
    rejects('({k: "open\n"})', 'GRAM_UNTERMINATED_STRING');
    rejects('({k: "never closed', 'GRAM_UNTERMINATED_STRING');
  });
  it('accepts a one-line string starting with `//` (the documented difference from tree-sitter-gram)', () => {
    expect(value('"// not a comment"')).toMatchObject({ value: '// not a comment' });
    expect(value('"URL: https://example.com // not a comment"')).toMatchObject({ kind: 'String' });
  });
  it('keeps fenced strings raw: indentation, escapes and the final line break', () => {
    expect(value('```\n  line1\\n\n```')).toMatchObject({ kind: 'String', style: 'fenced', value: '  line1\\n\n' });
    expect(value('```\nno final break```')).toMatchObject({ value: 'no final break' });
    expect(value('```\n```')).toMatchObject({ value: '' });
    expect(value('```\r\nwindows\r\n```')).toMatchObject({ value: 'windows\r\n' });
    expect(value('```   \ntrailing spaces after the fence\n```')).toMatchObject({ value: 'trailing spaces after the fence\n' });
    expect(value('```\ntwo `` backticks stay```')).toMatchObject({ value: 'two `` backticks stay' });
    expect(value('-0xFF')).toMatchObject({ kind: 'Measurement', value: -0, unit: 'xFF' });
    rejects('({k: ```\nthe first ``` closes the fence```})');
  });
  it('reads tagged strings, inline and fenced, with whitespace or comments after the tag', () => {
    expect(value('date`2024-01-15`')).toMatchObject({ kind: 'TaggedString', style: 'inline', tag: 'date', content: '2024-01-15' });
    expect(value('date `x`')).toMatchObject({ kind: 'TaggedString', tag: 'date', content: 'x' });
    expect(value('md // the tag\n`# T`')).toMatchObject({ kind: 'TaggedString', tag: 'md', content: '# T' });
    expect(value('```md\n# Title\n```')).toMatchObject({ kind: 'TaggedString', style: 'fenced', tag: 'md', content: '# Title\n' });
    expect(value('``` md \n# Title\n```')).toMatchObject({ kind: 'TaggedString', tag: 'md' });
  });
  it('reports an unclosed fence, and text after the opening fence', () => {
    rejects('({k: ```\nnever closed})', 'GRAM_UNTERMINATED_FENCE');
    rejects('({k: ```md title\nx```})', 'GRAM_FENCE_LINE_BREAK');
  });
});

describe('comments and whitespace', () => {
  it('allows `//` comments between any two tokens', () => {
    const d = ok('// head\n(a // in the node\n:L // after the label\n{k: // before the value\n1}) // end\n// tail');
    expect(d.comments.map((c) => c.text)).toEqual([' head', ' in the node', ' after the label', ' before the value', ' end', ' tail']);
    expect(d.comments.map((c) => c.endOfLine === true)).toEqual([false, true, true, true, true, false]);
  });
  it('runs a comment to the end of the line, so it can swallow a closing bracket', () => {
    rejects('[// comment]', 'GRAM_UNCLOSED_SUBJECT_PATTERN');
    rejects('(// comment)', 'GRAM_UNCLOSED_NODE');
    rejects('{// comment}', 'GRAM_UNCLOSED_RECORD');
  });
  it('treats tabs, CR LF, lone CR, Unicode spaces and a byte-order mark as whitespace', () => {
    expect(ok('\ufeff(a)\r\n\t(b)\r(c)\u00a0(d)\u2003(e)').patterns).toHaveLength(5);
  });
  it('rejects characters that start no token', () => {
    for (const c of ['#', ';', '!', '?', '\\', '>', '$']) rejects(`(a) ${c} (b)`, 'GRAM_INVALID_CHARACTER');
  });
});
