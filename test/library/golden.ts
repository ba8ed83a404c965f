/**
 * Golden files under test/fixtures/library/golden: the test compares with the file; run with
 * UPDATE_GOLDEN=1 to (re)write it after a deliberate change, and review the diff.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { expect } from 'vitest';

export const golden = (name: string, actual: string): void => {
  const url = new URL(`../fixtures/library/golden/${name}`, import.meta.url);
  if (process.env['UPDATE_GOLDEN'] === '1') writeFileSync(url, actual);
  expect(existsSync(url), `golden file ${name} is missing: run the test with UPDATE_GOLDEN=1 and review it`).toBe(true);
  expect(actual).toBe(readFileSync(url, 'utf8'));
};
