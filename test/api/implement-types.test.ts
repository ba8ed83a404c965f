/**
 * `implement<Tools>(…)` checks handlers at compile time against the `Tools` map `gramkit types`
 * writes: a strict `tsc` over a consumer project (the built package's declarations, as a user's
 * project sees them) accepts the right handlers and rejects a wrong argument type, a wrong result,
 * a missing handler and a handler for no tool, each in its own file.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';

const root = new URL('../../', import.meta.url).pathname.replace(/\/$/, '');
const project = mkdtempSync(join(tmpdir(), 'gramkit-implement-types-'));
afterAll(() => rmSync(project, { recursive: true, force: true }));

const GRAM = `[greet:Tool {description: "Greets a person by name"} |
  (name::String)==>(excited::Boolean {default: false})==>(::String)
]

[add:Tool {description: "Adds two numbers"} | (a::Number)==>(b::Number)==>(::Number)]
`;

const head = `import { implement } from 'gramkit';
import type { Tools } from './tools.js';
const source = new URL('./greeter.gram', import.meta.url);
`;

/** Each file, and the TypeScript error it must give (none for ok.ts). */
const FILES: Readonly<Record<string, { readonly text: string; readonly error?: string }>> = {
  'ok.ts': {
    text: `${head}export const library = await implement<Tools>(source, {
  greet: ({ name, excited }) => \`Hello, \${name}\${excited ? '!' : '.'}\`,
  add: async ({ a, b }) => a + b,
});
`,
  },
  'wrong-argument.ts': {
    text: `${head}export const library = await implement<Tools>(source, {
  greet: ({ name }) => name,
  add: ({ a, b }: { a: string; b: number }) => Number(a) + b,
});
`,
    error: 'TS2322',
  },
  'wrong-result.ts': {
    text: `${head}export const library = await implement<Tools>(source, {
  greet: ({ name }) => name.length,
  add: ({ a, b }) => a + b,
});
`,
    error: 'TS2322',
  },
  'missing.ts': {
    text: `${head}export const library = await implement<Tools>(source, {
  greet: ({ name }) => name,
});
`,
    error: 'TS2345',
  },
  'extra.ts': {
    text: `${head}export const library = await implement<Tools>(source, {
  greet: ({ name }) => name,
  add: ({ a, b }) => a + b,
  ad: ({ a, b }: { a: number; b: number }) => a + b,
});
`,
    error: 'TS2353',
  },
};

const tsc = (): Promise<{ code: number; stdout: string }> =>
  new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(root, 'node_modules/typescript/bin/tsc'), '-p', '.'],
      { cwd: project, timeout: 120_000, maxBuffer: 16 << 20 },
      (error, stdout) => resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout }),
    );
  });

describe('implement<Tools>: handlers checked by the compiler', { timeout: 150_000 }, () => {
  it('accepts the right handlers and rejects each wrong one where it is wrong', async () => {
    mkdirSync(join(project, 'node_modules'));
    symlinkSync(root, join(project, 'node_modules', 'gramkit'), 'dir');
    writeFileSync(join(project, 'greeter.gram'), GRAM);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ type: 'module' }));
    const types = await cli(['types', 'greeter.gram', '-o', 'tools.d.ts'], { cwd: project });
    expect(types.code, types.stderr).toBe(0);
    for (const [name, f] of Object.entries(FILES)) writeFileSync(join(project, name), f.text);
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { strict: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', noEmit: true, types: [] },
        files: Object.keys(FILES),
      }),
    );
    const r = await tsc();
    expect(r.code).not.toBe(0);
    const errors = r.stdout.split('\n').filter((l) => /error TS\d+/.test(l));
    for (const [name, f] of Object.entries(FILES)) {
      const own = errors.filter((l) => l.startsWith(`${name}(`));
      if (f.error === undefined) expect(own, r.stdout).toEqual([]);
      else
        expect(
          own.some((l) => l.includes(`error ${f.error}`)),
          `${name}\n${r.stdout}`,
        ).toBe(true);
    }
  });
});
