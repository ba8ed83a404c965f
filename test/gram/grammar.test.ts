/**
 * The grammar itself: the shared parser instances skip Chevrotain's grammar validations to start
 * faster, so this test builds one with them (no ambiguity within one token of lookahead, no left
 * recursion, no empty alternatives).
 */
import { describe, expect, it } from 'vitest';
import { GramParser } from '../../src/gram/parser.js';

describe('the Chevrotain grammar', () => {
  it.each([false, true])('passes Chevrotain validations (recovery %s)', (recovery) => {
    expect(() => new GramParser(recovery, true)).not.toThrow();
  });
  it('is LL(1): every rule decides with one token of lookahead', () => {
    const p = new GramParser(false, true);
    expect(Object.keys(p.getGAstProductions()).sort()).toEqual([
      'annotated',
      'arrow',
      'document',
      'node',
      'path',
      'record',
      'subject',
      'subjectPattern',
      'value',
    ]);
  });
});
