/**
 * Golden files under test/fixtures/spec/golden: emitted text is compared byte for byte, so any
 * change of output shows up in review. `UPDATE_GOLDEN=1 npx vitest run test/spec` rewrites them
 * (then read the diff before committing).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

export const golden = (name: string, actual: string): void => {
  const path = fileURLToPath(new URL(`../../fixtures/spec/golden/${name}`, import.meta.url));
  if (process.env['UPDATE_GOLDEN'] === '1') {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, actual);
    return;
  }
  expect(existsSync(path), `golden file ${name} is missing: run with UPDATE_GOLDEN=1 and review it`).toBe(true);
  expect(actual).toBe(readFileSync(path, 'utf8'));
};
