/**
 * The optional peers (the MCP SDK, `ai`, `zod`) are loaded only by the entries that need them:
 * importing or requiring the root entry, or any other entry, never loads one (checked on the built
 * package, in a process where loading a peer from gramkit's code fails). `gramkit/mcp` loads the
 * server SDK, and the client SDK only when it connects.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { McpCodes } from '../../src/entries/mcp.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PRELOAD = fileURLToPath(new URL('./support/forbid-peers.cjs', import.meta.url));
const ALL = ['@modelcontextprotocol/server', '@modelcontextprotocol/client', '@modelcontextprotocol/sdk', 'ai', 'zod'];

const run = (code: string, forbid: ReadonlyArray<string>, type: 'module' | 'commonjs'): Promise<{ code: number; stderr: string }> =>
  new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--require', PRELOAD, '--input-type', type, '-e', code],
      { cwd: ROOT, env: { ...process.env, FORBID: forbid.join(',') }, timeout: 60_000 },
      (error, _stdout, stderr) => resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stderr }),
    );
  });

const PLAIN = [
  'gramkit',
  'gramkit/gram',
  'gramkit/types',
  'gramkit/providers',
  'gramkit/tools',
  'gramkit/builtins',
  'gramkit/policy',
  'gramkit/project',
  'gramkit/testing',
  'gramkit/standard-schema',
  'gramkit/catalog',
  'gramkit/server',
];

describe('optional peers', { timeout: 120_000 }, () => {
  it('the forbidding works (a peer loaded from gramkit fails)', async () => {
    const r = await run("await import('gramkit/zod')", ['zod'], 'module');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('optional peer loaded: zod');
  });

  it('no entry but its own loads a peer, imported or required', async () => {
    const esm = await run(PLAIN.map((e) => `await import('${e}');`).join(' '), ALL, 'module');
    expect(esm.code, esm.stderr).toBe(0);
    const cjs = await run(PLAIN.map((e) => `require('${e}');`).join(' '), ALL, 'commonjs');
    expect(cjs.code, cjs.stderr).toBe(0);
  });

  it('gramkit/mcp loads the server SDK only; the client SDK waits for a connection', async () => {
    const r = await run(
      "const m = await import('gramkit/mcp'); if (typeof m.createMcpHttpHandler !== 'function') process.exit(3);",
      ['@modelcontextprotocol/client', 'ai', 'zod'],
      'module',
    );
    expect(r.code, r.stderr).toBe(0);
    const c = await run(
      `const m = await import('gramkit/mcp'); const r = await m.connectMcp('mcp:http://127.0.0.1:9/mcp'); console.error(JSON.stringify(r.left)); process.exit(r._tag === 'Left' && r.left[0].code === '${McpCodes.SDK_MISSING}' ? 0 : 4);`,
      ['@modelcontextprotocol/client'],
      'module',
    );
    expect(c.code, c.stderr).toBe(0);
  });
});
