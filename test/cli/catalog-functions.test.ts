/**
 * Function tools in the catalog (`function: "name"`, bound at run time to the tools of `--library`)
 * and slugs that keep a tool's `snake_case` name: `catalog ls`, `run --catalog` and `serve` (REST
 * and `/mcp` with a real MCP client) report them available when `--library` provides the function,
 * and unavailable with the reason otherwise (`run --catalog` still binds it: each call fails with the reason); a second bundle's tool is served as
 * `<bundle>__word_count`, never confused with a slug (bundle slugs hold no `_`, tool slugs no `__`).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CatalogCodes } from 'gramkit/catalog';
import { cli, SERVE_AUTH_ARGS, startCli } from '../support/cli.js';
import { httpClient } from '../mcp/support.js';

const root = mkdtempSync(join(tmpdir(), 'gramkit-catalog-functions-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const SCHEMA = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] };
writeFileSync(
  join(root, 'words.mjs'),
  `export default {
  word_count: { name: 'word_count', description: 'Counts the words of a text', schema: ${JSON.stringify(SCHEMA)}, invoke: ({ text }) => text.split(/\\s+/).filter(Boolean).length },
};
`,
);
writeFileSync(
  join(root, 'words.gram'),
  '[word_count:Tool {description: "Counts the words of a text", function: "word_count"} | (text::String)==>(::Integer)]\n',
);
writeFileSync(
  join(root, 'agent.gram'),
  '[counter:Agent {description: "Counts words", instruction: "Use word_count to count the words of the message."} | word_count]\n',
);

const json = { 'content-type': 'application/json' };

describe('function tools in the catalog', () => {
  it('catalog add keeps the snake_case name as the slug; catalog ls says unavailable and why, and available with --library', async () => {
    const data = join(root, 'ls');
    const add = await cli(['catalog', 'add', 'words.gram', '--bundle', 'text', '--data', data], { cwd: root });
    expect(add.code, add.stderr).toBe(0);
    expect(add.stdout).toContain('added word_count@1');
    const without = await cli(['catalog', 'ls', '--bundle', 'text', '--data', data], { cwd: root });
    expect(without.stdout).toMatch(/word_count\s+1\s+text\s+function\s+unavailable/);
    expect(without.stdout).toContain(
      'word_count@1 is unavailable: no library loaded implements the function "word_count" (give the module that exports it with --library <module>',
    );
    const withLibrary = await cli(['catalog', 'ls', '--bundle', 'text', '--data', data, '--library', './words.mjs'], { cwd: root });
    expect(withLibrary.code, withLibrary.stderr).toBe(0);
    expect(withLibrary.stdout).toMatch(/word_count\s+1\s+text\s+function\s+enabled/);
    expect(withLibrary.stdout).not.toContain('unavailable');
    const listed = JSON.parse(
      (await cli(['catalog', 'ls', '--json', '--bundle', 'text', '--data', data, '--library', './words.mjs'], { cwd: root })).stdout,
    ) as Array<Record<string, unknown>>;
    expect(listed[0]).toMatchObject({ slug: 'word_count', type: 'function', impl: { function: 'word_count' }, available: true });
    const found = await cli(['catalog', 'search', 'words', '--data', data], { cwd: root });
    expect(found.stdout).toMatch(/word_count\s+1\s+text\s+function\s+unavailable/);
    expect(found.stdout).toContain('word_count@1 is unavailable: no library loaded implements the function "word_count"');
    const missing = await cli(['catalog', 'ls', '--data', data, '--library', './nowhere.mjs'], { cwd: root });
    expect(missing.code).toBe(1);
  });

  it('run --catalog binds the function of --library; without it the tool is unavailable, saying why', async () => {
    const data = join(root, 'run');
    expect((await cli(['catalog', 'add', 'words.gram', '--data', data], { cwd: root })).code).toBe(0);
    const r = await cli(['run', 'agent.gram', 'count the words of: one two three', '--catalog', data, '--library', './words.mjs', '--json'], { cwd: root });
    expect(r.code, r.stderr).toBe(0);
    const used = (JSON.parse(r.stdout) as { value: { toolsUsed: Array<{ name: string; result: { ok: boolean; value: unknown } }> } }).value.toolsUsed;
    expect(used[0]).toMatchObject({ name: 'word_count', result: { ok: true } });
    expect(typeof used[0]?.result.value).toBe('number');
    // without it the run still binds (no SPEC_UNKNOWN_TOOL): the warning, then each call fails with the reason, which the model reads
    const without = await cli(['run', 'agent.gram', 'count the words of: one two three', '--catalog', data, '--json'], { cwd: root });
    expect(without.stderr).toContain(
      `warning[CATALOG_TOOL_UNAVAILABLE]: --catalog ${data}: word_count@1: no library loaded implements the function "word_count"`,
    );
    expect(without.stderr).not.toContain('SPEC_UNKNOWN_TOOL');
    const failed = (JSON.parse(without.stdout) as { value: { toolsUsed: Array<{ name: string; result: { ok: boolean; error: Record<string, unknown> } }> } })
      .value.toolsUsed;
    expect(failed[0]).toMatchObject({
      name: 'word_count',
      result: { ok: false, error: { code: 'FAILED_PRECONDITION', reason: CatalogCodes.TOOL_UNAVAILABLE, retryable: false } },
    });
    expect(failed[0]?.result.error['message']).toContain('no library loaded implements the function "word_count"');
    // a library that does not implement it: the same
    writeFileSync(
      join(root, 'other.mjs'),
      "export default { other: { name: 'other', description: 'x', schema: { type: 'object', properties: {} }, invoke: () => 1 } };\n",
    );
    const other = await cli(['run', 'agent.gram', 'count the words of: one two three', '--catalog', data, '--library', './other.mjs', '--json'], { cwd: root });
    expect(other.stderr).not.toContain('SPEC_UNKNOWN_TOOL');
    expect((JSON.parse(other.stdout) as { value: { toolsUsed: Array<{ result: { ok: boolean } }> } }).value.toolsUsed[0]?.result.ok).toBe(false);
  });

  it('serve --library: REST and /mcp serve word_count and team__word_count; underscores are refused where they would be ambiguous', async () => {
    const s = await startCli(['serve', '--port', '0', '--data', join(root, 'serve'), '--library', './words.mjs', ...SERVE_AUTH_ARGS], { cwd: root });
    const url = s.url() as string;
    expect(url, s.err()).toBeDefined();
    const client = await httpClient('v2-modern', new URL(`${url}/mcp`), () => undefined);
    try {
      const bundle = async (slug: string) => fetch(`${url}/tools/bundles`, { method: 'POST', headers: json, body: JSON.stringify({ slug }) });
      const text = (await (await bundle('text')).json()) as { bundleID: string };
      const team = (await (await bundle('team')).json()) as { bundleID: string };
      const body = JSON.stringify({ description: 'Counts the words of a text', type: 'function', impl: { function: 'word_count' }, argSchema: SCHEMA });
      const put = (bundleID: string, slug: string) => fetch(`${url}/tools/bundles/${bundleID}/tools/${slug}/version/1`, { method: 'PUT', headers: json, body });
      const first = await put(text.bundleID, 'word_count');
      expect(first.status, await first.clone().text()).toBe(201);
      expect(((await first.json()) as { tool: Record<string, unknown> }).tool).toMatchObject({ slug: 'word_count', available: true });
      expect((await put(team.bundleID, 'word_count')).status).toBe(201);
      // REST, by <bundle, slug, version>
      const invoked = await fetch(`${url}/tools/bundles/${team.bundleID}/tools/word_count/version/1/invoke`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ args: { text: 'a b' } }),
      });
      expect(await invoked.json()).toEqual({ ok: true, value: 2 });
      // /mcp: the owner's under the slug, the other bundle's qualified; each is what it is
      const names = (await client.listTools()).tools.map((t) => t['name'] as string);
      expect(names).toContain('word_count');
      expect(names).toContain('team__word_count');
      expect((await client.callTool('team__word_count', { text: 'x y z' }))['content']).toEqual([{ type: 'text', text: '3' }]);
      expect((await client.callTool('word_count', { text: 'x' }))['isError']).not.toBe(true);
      // the rule that keeps names unambiguous: no "_" in a bundle slug, no "__" (nor one at an end) in a tool slug
      const underscored = await bundle('my_team');
      expect(underscored.status).toBe(400);
      expect(((await underscored.json()) as { detail: string }).detail).toContain('a bundle slug holds none');
      for (const slug of ['team__x', '_x', 'x_']) {
        const r = await put(text.bundleID, slug);
        expect(r.status, slug).toBe(400);
        expect(((await r.json()) as { reason: string }).reason).toBe(CatalogCodes.INVALID_SLUG);
      }
    } finally {
      await client.close();
      s.stop();
    }
    expect(await s.done).toBe(0);
  });
});
