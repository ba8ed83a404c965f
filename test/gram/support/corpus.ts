/**
 * Reads the vendored tree-sitter-gram corpus (test/fixtures/gram/tree-sitter-corpus): each case is
 * a name, attributes (`:error` marks input the reference parser rejects), the input, and the
 * expected syntax tree as an S-expression.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface CorpusCase {
  readonly file: string;
  readonly name: string;
  readonly error: boolean;
  readonly input: string;
  readonly expected: string;
}

export const CORPUS_DIR = join(import.meta.dirname, '..', '..', 'fixtures', 'gram', 'tree-sitter-corpus');
export const EXAMPLES_DIR = join(import.meta.dirname, '..', '..', 'fixtures', 'gram', 'examples');

const HEADER = /^={3,}\s*$/;
const DIVIDER = /^-{3,}\s*$/;

export const parseCorpusFile = (file: string, text: string): CorpusCase[] => {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const cases: CorpusCase[] = [];
  let i = 0;
  while (i < lines.length) {
    if (!HEADER.test(lines[i] ?? '')) {
      i++;
      continue;
    }
    i++;
    const name = (lines[i] ?? '').trim();
    i++;
    const attributes: string[] = [];
    while (i < lines.length && !HEADER.test(lines[i] ?? '')) {
      const a = (lines[i] ?? '').trim();
      if (a !== '') attributes.push(a);
      i++;
    }
    i++;
    const input: string[] = [];
    while (i < lines.length && !DIVIDER.test(lines[i] ?? '')) input.push(lines[i++] ?? '');
    i++;
    const expected: string[] = [];
    while (i < lines.length && !(HEADER.test(lines[i] ?? '') && i + 1 < lines.length && !HEADER.test(lines[i + 1] ?? ''))) {
      expected.push(lines[i++] ?? '');
    }
    cases.push({
      file,
      name,
      error: attributes.some((a) => a.startsWith(':error')),
      input: input.join('\n').replace(/^\n+/, '').replace(/\n+$/, '\n'),
      expected: expected.join('\n').trim(),
    });
  }
  return cases;
};

export const loadCorpus = (): CorpusCase[] =>
  readdirSync(CORPUS_DIR)
    .filter((f) => f.endsWith('.txt'))
    .sort()
    .flatMap((f) => parseCorpusFile(f, readFileSync(join(CORPUS_DIR, f), 'utf8')));

export const loadExamples = (): Array<{ readonly name: string; readonly text: string }> =>
  readdirSync(EXAMPLES_DIR)
    .filter((f) => f.endsWith('.gram'))
    .sort()
    .map((name) => ({ name, text: readFileSync(join(EXAMPLES_DIR, name), 'utf8') }));
