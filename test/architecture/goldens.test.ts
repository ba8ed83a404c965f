/**
 * Goldens stay small enough to review: the helper refuses a large one, and none on disk is large
 * but the API reports (sorted lists of names, read as diffs).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectGolden, MAX_LINES } from '../support/golden.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures');

const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]));

describe('goldens', () => {
  it(`refuses to pin an output of more than ${MAX_LINES} lines without a reason`, () => {
    expect(() => expectGolden('api/never-written.txt', 'line\n'.repeat(MAX_LINES + 1))).toThrow(/more than anyone reviews/);
  });
  it(`keeps every golden file at ${MAX_LINES} lines or fewer, but the API reports`, () => {
    const large = files(FIXTURES)
      .filter((f) => /(^|\/)golden\//.test(relative(FIXTURES, f)))
      .filter((f) => readFileSync(f, 'utf8').split('\n').length - 1 > MAX_LINES)
      .map((f) => relative(FIXTURES, f));
    expect(large).toEqual([]);
  });
});
