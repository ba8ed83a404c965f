/**
 * Golden files: emitted text pinned under test/fixtures/gram/golden so changes show up in review.
 * `UPDATE_GOLDEN=1 npx vitest run test/gram` rewrites them.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';

export const GOLDEN_DIR = join(import.meta.dirname, '..', '..', 'fixtures', 'gram', 'golden');

export const expectGolden = (name: string, actual: string): void => {
  const file = join(GOLDEN_DIR, name);
  if (process.env['UPDATE_GOLDEN'] === '1') {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, actual);
    return;
  }
  expect(existsSync(file), `golden file ${name} is missing: run UPDATE_GOLDEN=1 npx vitest run test/gram`).toBe(true);
  expect(actual).toBe(readFileSync(file, 'utf8'));
};
