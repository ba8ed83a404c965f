/**
 * What a command loads, through the built CLI as a user runs it: `gramkit run` of an agent whose
 * tools are TypeScript functions leaves out the packages only some files need (re2js for
 * patterns, jsonpath-plus for JSONPath queries, undici for HTTP), which are loaded on first use
 * (core/lazy-module.ts). Each check has its counterpart, a command that needs the package and
 * loads it, so the recorder (test/support/record-modules.cjs) is seen to catch each way a package
 * is loaded. `gramkit serve` loads the MCP server SDK (carried by the CLI in a file of its own,
 * `dist/mcp-sdk.cjs`) on the first request to `/mcp`, not at start.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type CliRun, SERVE_AUTH_ARGS } from '../support/cli.js';

const root = new URL('../..', import.meta.url).pathname;
const cli = join(root, 'dist', 'cli.js');
const recorder = join(root, 'test', 'support', 'record-modules.cjs');
const home = mkdtempSync(join(tmpdir(), 'gramkit-loaded-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

interface Loaded extends CliRun {
  /** The packages under node_modules the process loaded (their names). */
  readonly packages: ReadonlySet<string>;
}

let runs = 0;
/** Runs the built CLI with the recorder preloaded; the packages it loaded. */
const gramkit = (args: ReadonlyArray<string>, cwd = root): Promise<Loaded> =>
  new Promise((resolve) => {
    const list = join(home, `modules-${++runs}.txt`);
    writeFileSync(list, '');
    const env = { ...process.env, GRAMKIT_TEST_MODULES: list, XDG_CACHE_HOME: join(home, 'cache'), NO_COLOR: '1' };
    execFile(process.execPath, ['--require', recorder, cli, ...args], { cwd, env, timeout: 60_000 }, (error, stdout, stderr) => {
      const packages = new Set(
        readFileSync(list, 'utf8')
          .split('\n')
          .map((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1])
          .filter((name): name is string => name !== undefined),
      );
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr, packages });
    });
  });

const ON_FIRST_USE = ['re2js', 'jsonpath-plus', 'undici'] as const;

describe('the packages a command loads', { timeout: 90_000 }, () => {
  it('gramkit run of an agent with TypeScript tools loads no regex engine, JSONPath or HTTP client', async () => {
    const args = ['run', join('examples', 'helloAgent.gram'), "Hello, I'm Alice"];
    // the first run bundles the library (esbuild); the second uses the cached bundle, as a user's runs do
    await gramkit(args);
    const r = await gramkit(args);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('Hello, Alice!');
    // the recorder saw the packages this run does load
    expect(r.packages).toContain('commander');
    for (const name of ON_FIRST_USE) expect(r.packages, name).not.toContain(name);
  });

  it('a JSONPath query loads jsonpath-plus, on first use', async () => {
    writeFileSync(join(home, 'data.json'), '{"a": {"b": [1, 2]}}');
    const r = await gramkit(['invoke', 'builtin', '--tool', 'json_parse', '--workspace', home, '--args', '{"path": "data.json", "query": "$.a.b[*]"}'], home);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: true, value: { value: [1, 2] } });
    expect(r.packages).toContain('jsonpath-plus');
  });

  it('a pattern in a specification loads re2js, on first use, and is checked by it', async () => {
    const file = join(home, 'codes.gram');
    writeFileSync(file, '[code:Tool {description: "Looks up a code"} | (code::String {pattern: "^[A-Z]+$"})==>(::String)]\n');
    const good = await gramkit(['check', file], home);
    expect(good.code, good.stderr).toBe(0);
    expect(good.packages).toContain('re2js');
    writeFileSync(file, '[code:Tool {description: "Looks up a code"} | (code::String {pattern: "^(a)\\\\1$"})==>(::String)]\n');
    const bad = await gramkit(['check', file], home);
    expect(bad.code).toBe(1);
    expect(bad.stdout + bad.stderr).toMatch(/backreference/);
  });

  it('gramkit serve loads the MCP server SDK on the first request to /mcp, not at start', async () => {
    const list = join(home, 'modules-serve.txt');
    writeFileSync(list, '');
    const env = {
      ...process.env,
      GRAMKIT_TEST_MODULES: list,
      XDG_CACHE_HOME: join(home, 'cache'),
      XDG_DATA_HOME: join(home, 'data'),
      HOME: home,
      NO_COLOR: '1',
    };
    const child = spawn(process.execPath, ['--require', recorder, cli, 'serve', ...SERVE_AUTH_ARGS, '--host', '127.0.0.1', '--port', '0'], { cwd: home, env });
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    try {
      let out = '';
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (b: Buffer) => {
          out += b.toString();
          const m = /listening on (\S+)/.exec(out);
          if (m?.[1] !== undefined) resolve(m[1]);
        });
        child.on('exit', (code) => reject(new Error(`serve ended (${code}): ${out}`)));
      });
      /** Whether the process has loaded the MCP SDK (the CLI's `dist/mcp-sdk.cjs`). */
      const handlerLoaded = (): boolean => /\/dist\/mcp-sdk\.cjs$/m.test(readFileSync(list, 'utf8'));
      expect(handlerLoaded()).toBe(false);
      const res = await fetch(`${url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'loaded-modules', version: '1' } },
        }),
      });
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('gramkit-catalog');
      expect(handlerLoaded()).toBe(true);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });
});
