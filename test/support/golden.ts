/**
 * Golden files: emitted text pinned under test/fixtures/<path> so that any change of output shows
 * up in review. A missing or different golden fails the test. `UPDATE_GOLDEN=1 npx vitest run
 * <tests>` (re)writes the goldens those tests compare with; read the diff before committing.
 * A golden is small enough to review: at most `MAX_LINES` lines, unless the caller gives a reason
 * (a sorted list of names, say); split a larger output into several goldens.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

export const MAX_LINES = 200;

/** Compares `actual` with test/fixtures/`path`; JSON values are written with 2-space indentation and a final newline. */
export const expectGolden = (path: string, actual: unknown, options: { readonly largeBecause?: string } = {}): void => {
  const text = typeof actual === 'string' ? actual : `${JSON.stringify(actual, null, 2)}\n`;
  const lines = text.split('\n').length - 1;
  if (lines > MAX_LINES && options.largeBecause === undefined) {
    expect.fail(`golden file test/fixtures/${path} would have ${lines} lines, more than anyone reviews (${MAX_LINES}): pin smaller parts`);
  }
  const file = `${FIXTURES}${path}`;
  if (process.env['UPDATE_GOLDEN'] === '1') {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    return;
  }
  if (!existsSync(file)) expect.fail(`golden file test/fixtures/${path} is missing: run the test with UPDATE_GOLDEN=1 and review it`);
  expect(text).toBe(readFileSync(file, 'utf8'));
};
