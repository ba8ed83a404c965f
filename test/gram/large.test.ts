/**
 * 50 MB inputs give a result or a diagnostic, in memory proportional to the input, without
 * growing the stack. (Speed is measured by `npm run bench -- gram`, not here.)
 */
import { describe, expect, it } from 'vitest';
import { analyzeGram, checkedDiagnostics, checkedValue, toPatterns } from '../../src/index.js';

const MB50 = 50 * 1024 * 1024;

const repeatTo = (unit: string, size: number): string => unit.repeat(Math.ceil(size / unit.length));

describe('50 MB inputs', () => {
  it('parses a 50 MB document of 50,000 patterns with long strings', () => {
    const filler = 'lorem ipsum dolor sit amet '.repeat(38);
    const line = `(n {text: "${filler}", n: 1})-[:NEXT]->(m)\n`;
    const text = repeatTo(line, MB50);
    const r = analyzeGram(text);
    expect(checkedDiagnostics(r)).toEqual([]);
    expect(checkedValue(r)?.patterns.length).toBe(Math.ceil(MB50 / line.length));
    expect(toPatterns(checkedValue(r)!).patterns.length).toBe(checkedValue(r)?.patterns.length);
  }, 120_000);

  it('stops reporting after 100 errors in 50 MB of broken input', () => {
    const r = analyzeGram(repeatTo('(n {a: ]]] >> "x\n', MB50));
    expect(checkedValue(r)).toBeUndefined();
    expect(checkedDiagnostics(r)).toHaveLength(101);
    expect(checkedDiagnostics(r)[100]?.code).toBe('GRAM_TOO_MANY_ERRORS');
  }, 120_000);

  it.each([
    ['one comment', `//${'x'.repeat(MB50)}`, 'ok'],
    ['whitespace', repeatTo(' \n\t', MB50), 'ok'],
    ['one string', `({s: "${'x'.repeat(MB50)}"})`, 'ok'],
    ['one unclosed fence', `({s: \`\`\`\n${'x\n'.repeat(MB50 / 2)}`, 'GRAM_UNTERMINATED_FENCE'],
    ['one pattern of 50 MB', `[a | ${repeatTo('b, ', MB50)}b]`, 'GRAM_PATTERN_TOO_LARGE'],
    ['one path of 50 MB', `(a)${repeatTo('-->(b)', MB50)}`, 'GRAM_PATTERN_TOO_LARGE'],
    ['open brackets', '['.repeat(MB50), 'GRAM_NESTING_TOO_DEEP'],
  ])(
    '%s',
    (_, text, expected) => {
      const r = analyzeGram(text);
      if (expected === 'ok') expect(checkedDiagnostics(r)).toEqual([]);
      else expect(checkedDiagnostics(r)[0]?.code).toBe(expected);
    },
    120_000,
  );
});
