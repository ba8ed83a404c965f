/**
 * The CommonJS entries (`require('gramkit')`, `require('gramkit/server')`…) are gramkit's ES
 * modules, required (Node ≥ 20.19; tsup.config.ts): every entry requires, with the exports it
 * imports with, and a program that both requires and imports gramkit holds one copy of it.
 * On the built package, as a user's program loads it.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ENTRIES = [
  'gramkit',
  'gramkit/gram',
  'gramkit/types',
  'gramkit/providers',
  'gramkit/tools',
  'gramkit/builtins',
  'gramkit/policy',
  'gramkit/project',
  'gramkit/testing',
  'gramkit/catalog',
  'gramkit/server',
  'gramkit/mcp',
  'gramkit/ai-sdk',
  'gramkit/zod',
  'gramkit/standard-schema',
];

const node = (code: string): Promise<{ code: number; stdout: string; stderr: string }> =>
  new Promise((resolve) => {
    execFile(process.execPath, ['--input-type', 'module', '-e', code], { cwd: ROOT, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr }),
    );
  });

describe('the CommonJS entries', { timeout: 120_000 }, () => {
  it('require every entry with the exports import gives, the very same values (one copy), and print no warning', async () => {
    const r = await node(`
      import { createRequire } from 'node:module';
      const require = createRequire(import.meta.url);
      const out = {};
      for (const e of ${JSON.stringify(ENTRIES)}) {
        const required = require(e);
        const imported = await import(e);
        const names = Object.keys(imported).filter((k) => k !== 'default');
        out[e] = { names: names.length, same: names.every((k) => required[k] === imported[k]), required: Object.keys(required).filter((k) => k !== 'default').length };
      }
      console.log(JSON.stringify(out));
    `);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as Record<string, { names: number; same: boolean; required: number }>;
    for (const e of ENTRIES) {
      expect(out[e]?.names, e).toBeGreaterThan(0);
      expect(out[e]?.same, e).toBe(true);
      expect(out[e]?.required, e).toBe(out[e]?.names);
    }
  });
});
