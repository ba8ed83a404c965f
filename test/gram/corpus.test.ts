/**
 * Conformance with tree-sitter-gram, the reference implementation: its whole test corpus (184
 * cases, 35 expected errors). Strict mode accepts exactly the cases the reference accepts and
 * builds the same tree (named nodes and fields; comments dropped on both sides).
 */
import { describe, expect, it } from 'vitest';
import { analyzeGram, checkedDiagnostics, checkedValue } from '../../src/index.js';
import { loadCorpus } from './support/corpus.js';
import { hasFields, normalizeSexp, stripFields, toSexp } from './support/sexp.js';

const corpus = loadCorpus();

/** The reference rejects these for nesting values, gramkit's default-mode extension. */
const NESTED_VALUE_CASES = ['Array of arrays is not ok.', 'Map values may not be nested', 'Map values may not contain arrays'];

describe('tree-sitter-gram corpus', () => {
  it('has the 184 cases of the reference corpus, 35 of them expected errors', () => {
    expect(corpus).toHaveLength(184);
    expect(corpus.filter((c) => c.error)).toHaveLength(35);
  });

  describe.each(corpus.map((c) => [`${c.file}: ${c.name}`, c] as const))('%s', (_, c) => {
    it(c.error ? 'is rejected in strict mode' : 'is accepted in strict mode with the reference tree', () => {
      const r = analyzeGram(c.input, { strict: true });
      if (c.error) {
        expect(checkedValue(r)).toBeUndefined();
        expect(checkedDiagnostics(r).some((d) => d.severity === 'error')).toBe(true);
        return;
      }
      expect(checkedDiagnostics(r).filter((d) => d.severity === 'error')).toEqual([]);
      const doc = checkedValue(r);
      expect(doc).toBeDefined();
      if (doc === undefined) return;
      const expected = normalizeSexp(c.expected);
      const actual = toSexp(doc);
      expect(hasFields(expected) ? actual : stripFields(actual)).toBe(expected);
    });

    it('gets the same verdict in default mode, except for nested values', () => {
      const r = analyzeGram(c.input);
      const acceptedByDefault = !c.error || NESTED_VALUE_CASES.includes(c.name);
      expect(checkedValue(r) !== undefined).toBe(acceptedByDefault);
    });
  });

  it('rejects the nested-value cases in strict mode with GRAM_NESTED_VALUE', () => {
    for (const name of NESTED_VALUE_CASES) {
      const c = corpus.find((x) => x.name === name);
      expect(c).toBeDefined();
      const codes = checkedDiagnostics(analyzeGram(c?.input ?? '', { strict: true })).map((d) => d.code);
      expect(new Set(codes)).toEqual(new Set(['GRAM_NESTED_VALUE']));
    }
  });

  it('reports every rejected case with a located diagnostic, never an internal error', () => {
    for (const c of corpus.filter((x) => x.error)) {
      const ds = checkedDiagnostics(analyzeGram(c.input, { strict: true }));
      for (const d of ds.filter((x) => x.severity === 'error')) {
        expect(d.code).not.toBe('GRAM_INTERNAL_ERROR');
        expect(d.span).toBeDefined();
        expect(d.message).not.toMatch(/Token|LParen|RBracket|Symbol\b|EOF/);
      }
    }
  });
});
