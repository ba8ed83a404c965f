/**
 * The catalog's behaviour on a store, as one suite that runs against every back-end (flat files,
 * Redis): the catalog's rules, the registry, listings and their page tokens, search, usage,
 * events, and two catalogs sharing one store (two processes or two servers).
 */
import fc from 'fast-check';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Catalog, type CatalogBackend, type CatalogEvent, CatalogCodes, BUILTIN_BUNDLE_ID, newId, openCatalog } from 'gramkit/catalog';
import { ToolCodes } from 'gramkit';

export interface StoreFactory {
  /** A new, empty store; `open` may be called several times for the same store (several processes). */
  readonly fresh: () => Promise<{ readonly open: () => Promise<CatalogBackend>; readonly cleanup: () => Promise<void> }>;
}

export interface Opened {
  readonly catalog: Catalog;
  readonly second: () => Promise<Catalog>;
  readonly clock: { now: number };
}

const DAY = 24 * 60 * 60 * 1000;

export const weatherTool = (description = 'Current weather of a city') => ({
  description,
  type: 'http',
  argSchema: { type: 'object', properties: { city: { type: 'string', description: 'City name' } }, required: ['city'] },
  outputSchema: { type: 'string' },
  impl: { urlTemplate: 'https://api.example.com/weather?q=${city}' },
  tags: ['weather'],
});

/** A tool given as gram (its identifier is the slug, so it is made for one slug). */
export const echoTool = (slug = 'echo', description = 'Echo a text back') => ({
  gram: `[${slug}:Tool {description: "${description}", builtin: "json_parse"} | (text::String)==>(::Any)]`,
});

export const storeSuite = (label: string, factory: StoreFactory): void => {
  describe(`the catalog on ${label}`, () => {
    const cleanups: Array<() => Promise<void>> = [];
    afterEach(async () => {
      for (const c of cleanups.splice(0).reverse()) await c();
    });

    const open = async (): Promise<Opened> => {
      const env = await factory.fresh();
      const workspace = mkdtempSync(join(tmpdir(), 'gramkit-ws-'));
      const clock = { now: Date.parse('2025-01-01T00:00:00.000Z') };
      const make = async (): Promise<Catalog> => {
        const r = await openCatalog({ store: await env.open(), workspace, now: () => clock.now, usageFlushMs: 10, historyCap: 5 });
        if (!r.ok) throw new Error(r.error.message);
        cleanups.push(() => r.value.close());
        return r.value;
      };
      cleanups.push(env.cleanup);
      return { catalog: await make(), second: make, clock };
    };

    const bundle = async (c: Catalog, slug = 'weather'): Promise<string> => {
      const id = newId();
      const r = await c.putBundle(id, { slug, displayName: slug, description: `the ${slug} tools` });
      expect(r.ok).toBe(true);
      return id;
    };

    const code = (r: { readonly ok: boolean; readonly error?: { readonly reason: string } }): string | undefined => (r.ok ? undefined : r.error?.reason);

    // ---------------------------------------------------------------------------------------------
    describe('bundles', () => {
      it('PUT creates then replaces; createdAt never changes; modifiedAt moves on structural changes only', async () => {
        const { catalog, clock } = await open();
        const id = newId();
        const created = await catalog.putBundle(id, { slug: 'maps', displayName: 'Maps' });
        expect(created.ok && created.value.created).toBe(true);
        clock.now += 1000;
        const same = await catalog.putBundle(id, { slug: 'maps', displayName: 'Maps' });
        expect(same.ok && same.value.bundle['modifiedAt']).toBe(created.ok && created.value.bundle['modifiedAt']);
        clock.now += 1000;
        const renamed = await catalog.putBundle(id, { slug: 'maps', displayName: 'World maps' });
        expect(renamed.ok && renamed.value.created).toBe(false);
        expect(renamed.ok && renamed.value.bundle['createdAt']).toBe('2025-01-01T00:00:00.000Z');
        expect(renamed.ok && renamed.value.bundle['modifiedAt']).toBe('2025-01-01T00:00:02.000Z');
        clock.now += 1000;
        const off = await catalog.patchBundle(id, { isEnabled: false });
        expect(off.ok && off.value['isEnabled']).toBe(false);
        expect(off.ok && off.value['modifiedAt']).toBe('2025-01-01T00:00:02.000Z');
      });

      it('refuses bad ids, slugs and bodies with stable codes', async () => {
        const { catalog } = await open();
        expect(code(await catalog.putBundle('not-a-uuid', { slug: 'x' }))).toBe(CatalogCodes.INVALID_ID);
        expect(code(await catalog.putBundle(newId(), { slug: 'under_score' }))).toBe(CatalogCodes.INVALID_SLUG);
        expect(code(await catalog.putBundle(newId(), { slug: 'a b' }))).toBe(CatalogCodes.INVALID_SLUG);
        expect(code(await catalog.putBundle(newId(), { slug: 'x'.repeat(65) }))).toBe(CatalogCodes.INVALID_SLUG);
        expect(code(await catalog.putBundle(newId(), { slug: 'ok', isEnabled: 'yes' }))).toBe(CatalogCodes.INVALID_RECORD);
        expect(code(await catalog.putBundle(newId(), { slug: 'ok', colour: 'red' }))).toBe(CatalogCodes.INVALID_RECORD);
        expect(code(await catalog.patchBundle(newId(), { isEnabled: true, slug: 'x' }))).toBe(CatalogCodes.PATCH_ONLY_ENABLED);
        expect(code(await catalog.patchBundle(newId(), { isEnabled: true }))).toBe(CatalogCodes.BUNDLE_NOT_FOUND);
      });

      it('bundle slugs are unique among live bundles', async () => {
        const { catalog } = await open();
        const first = await bundle(catalog, 'maps');
        const r = await catalog.putBundle(newId(), { slug: 'maps' });
        expect(code(r)).toBe(CatalogCodes.CONFLICT);
        expect(!r.ok && JSON.stringify(r.error.details)).toContain(first);
      });

      it('DELETE is a soft delete; a PUT restores; the reaper removes empty bundles after 2 days', async () => {
        const { catalog, clock } = await open();
        const empty = await bundle(catalog, 'empty');
        const full = await bundle(catalog, 'full');
        expect((await catalog.putTool(full, 'echo', '1', echoTool())).ok).toBe(true);
        const deleted = await catalog.deleteBundle(empty);
        expect(deleted.ok && deleted.value['softDeletedAt']).toBe('2025-01-01T00:00:00.000Z');
        expect((await catalog.deleteBundle(full)).ok).toBe(true);
        expect(code(await catalog.putTool(empty, 'echo', '1', echoTool()))).toBe(CatalogCodes.BUNDLE_DELETED);
        clock.now += DAY;
        expect((await catalog.reap()).ok && (await catalog.reap())).toEqual({ ok: true, value: [] });
        clock.now += DAY;
        const reaped = await catalog.reap();
        expect(reaped.ok && reaped.value).toEqual([empty]);
        expect(code(await catalog.getBundle(empty))).toBe(CatalogCodes.BUNDLE_NOT_FOUND);
        // a bundle that still holds a tool is kept
        expect((await catalog.getBundle(full)).ok).toBe(true);
        const restored = await catalog.putBundle(full, { slug: 'full' });
        expect(restored.ok && restored.value.bundle['softDeletedAt']).toBe(null);
      });

      it('the built-in bundle is served like any other; only isEnabled changes', async () => {
        const { catalog } = await open();
        const b = await catalog.getBundle(BUILTIN_BUNDLE_ID);
        expect(b.ok && b.value['isBuiltIn']).toBe(true);
        expect(code(await catalog.putBundle(BUILTIN_BUNDLE_ID, { slug: 'mine' }))).toBe(CatalogCodes.BUILTIN_READ_ONLY);
        expect(code(await catalog.deleteBundle(BUILTIN_BUNDLE_ID))).toBe(CatalogCodes.BUILTIN_READ_ONLY);
        expect(code(await catalog.putTool(BUILTIN_BUNDLE_ID, 'echo', '1', echoTool()))).toBe(CatalogCodes.BUILTIN_READ_ONLY);
        expect(code(await catalog.deleteTool({ id: 'read_file' }))).toBe(CatalogCodes.BUILTIN_READ_ONLY);
        expect((await catalog.patchTool({ id: 'read_file' }, { isEnabled: false })).ok).toBe(true);
        expect(code(await catalog.invokeTool({ id: 'read_file' }, { path: 'x' }))).toBe(CatalogCodes.TOOL_DISABLED);
        expect((await catalog.patchBundle(BUILTIN_BUNDLE_ID, { isEnabled: false })).ok).toBe(true);
        expect(code(await catalog.invokeTool({ id: 'json_parse' }, { text: '1' }))).toBe(CatalogCodes.BUNDLE_DISABLED);
      });
    });

    // ---------------------------------------------------------------------------------------------
    describe('tools', () => {
      it('a second PUT of <slug, version> is a conflict naming the existing tool, which is unchanged', async () => {
        const { catalog } = await open();
        const b = await bundle(catalog);
        const first = await catalog.putTool(b, 'météo', 'v1.2', weatherTool());
        expect(first.ok).toBe(true);
        const second = await catalog.putTool(b, 'météo', 'v1.2', weatherTool('Something else'));
        expect(code(second)).toBe(CatalogCodes.CONFLICT);
        const existing = first.ok ? (first.value.value['toolID'] as string) : '';
        expect(!second.ok && second.error.message).toContain(existing);
        const now = await catalog.getTool({ bundleID: b, slug: 'météo', version: 'v1.2' });
        expect(now.ok && now.value['description']).toBe('Current weather of a city');
        // another version, or the same pair in another bundle, is fine
        expect((await catalog.putTool(b, 'météo', 'v1.3', weatherTool())).ok).toBe(true);
        expect((await catalog.putTool(await bundle(catalog, 'other'), 'météo', 'v1.2', weatherTool())).ok).toBe(true);
      });

      it('a disabled tool still blocks its <slug, version> and is found by the read path', async () => {
        const { catalog } = await open();
        const b = await bundle(catalog);
        expect((await catalog.putTool(b, 'echo', '1', echoTool())).ok).toBe(true);
        expect((await catalog.patchTool({ bundleID: b, slug: 'echo', version: '1' }, { isEnabled: false })).ok).toBe(true);
        const r = await catalog.putTool(b, 'echo', '1', echoTool());
        expect(code(r)).toBe(CatalogCodes.CONFLICT);
        expect(!r.ok && r.error.message).toContain('disabled');
        expect((await catalog.getTool({ bundleID: b, slug: 'echo', version: '1' })).ok).toBe(true);
        // a hard delete frees the pair
        expect((await catalog.deleteTool({ bundleID: b, slug: 'echo', version: '1' })).ok).toBe(true);
        expect((await catalog.putTool(b, 'echo', '1', echoTool())).ok).toBe(true);
      });

      it('writes inside a disabled bundle are refused; deleting a tool there is allowed', async () => {
        const { catalog } = await open();
        const b = await bundle(catalog);
        expect((await catalog.putTool(b, 'echo', '1', echoTool())).ok).toBe(true);
        expect((await catalog.patchBundle(b, { isEnabled: false })).ok).toBe(true);
        expect(code(await catalog.putTool(b, 'echo', '2', echoTool()))).toBe(CatalogCodes.BUNDLE_DISABLED);
        expect(code(await catalog.patchTool({ bundleID: b, slug: 'echo', version: '1' }, { isEnabled: false }))).toBe(CatalogCodes.BUNDLE_DISABLED);
        expect(code(await catalog.invokeTool({ bundleID: b, slug: 'echo', version: '1' }, { text: '1' }))).toBe(CatalogCodes.BUNDLE_DISABLED);
        expect((await catalog.deleteTool({ bundleID: b, slug: 'echo', version: '1' })).ok).toBe(true);
      });

      it("slugs and versions follow the catalog's rules: Unicode letters and digits, dashes, dots in versions only, 64 runes, case-sensitive", async () => {
        const { catalog } = await open();
        const b = await bundle(catalog);
        expect((await catalog.putTool(b, 'Météo-東京', 'v1.2-rc', weatherTool())).ok).toBe(true);
        expect((await catalog.putTool(b, 'météo-東京', 'v1.2-rc', weatherTool())).ok).toBe(true);
        expect(code(await catalog.putTool(b, 'a.b', '1', weatherTool()))).toBe(CatalogCodes.INVALID_SLUG);
        expect(code(await catalog.putTool(b, 'ok', 'v 1', weatherTool()))).toBe(CatalogCodes.INVALID_VERSION);
        expect(code(await catalog.putTool(b, 'ok', 'v/1', weatherTool()))).toBe(CatalogCodes.INVALID_VERSION);
        expect(code(await catalog.putTool(b, 'é'.repeat(65), '1', weatherTool()))).toBe(CatalogCodes.INVALID_SLUG);
        expect((await catalog.putTool(b, 'é'.repeat(64), '1', weatherTool())).ok).toBe(true);
        expect(code(await catalog.putTool(b, 'ok', '1', { ...weatherTool(), slug: 'other' }))).toBe(CatalogCodes.KEY_MISMATCH);
      });

      it('a write may carry gram instead of schemas; the record round-trips to gram', async () => {
        const { catalog } = await open();
        const b = await bundle(catalog);
        const gram =
          '[lookup:Tool {description: "Looks a word up", version: "2", tags: ["words"], builtin: "json_parse"} | (text::String {minLength: 1})==>(::Any)]';
        const w = await catalog.putTool(b, 'lookup', '2', { gram });
        expect(w.ok).toBe(true);
        const t = await catalog.getTool({ bundleID: b, slug: 'lookup', version: '2' });
        expect(t.ok && t.value['argSchema']).toEqual({
          type: 'object',
          properties: { text: { type: 'string', minLength: 1 } },
          required: ['text'],
          additionalProperties: false,
        });
        const text = await catalog.toolGram({ bundleID: b, slug: 'lookup', version: '2' });
        expect(text.ok && text.value).toContain('builtin: "json_parse"');
        // the gram of a record writes the same record again
        const again = await catalog.putTool(b, 'lookup', '3', { gram: text.ok ? text.value.replace('version: "2"', 'version: "3"') : '' });
        expect(again.ok && again.value.value['argSchema']).toEqual(t.ok && t.value['argSchema']);
        expect(again.ok && again.value.value['signature']).toBe(t.ok && t.value['signature']);
      });

      it('refuses implementations it cannot run, and unknown built-ins, with stable codes', async () => {
        const { catalog } = await open();
        const b = await bundle(catalog);
        expect(code(await catalog.putTool(b, 'bad', '1', { ...weatherTool(), impl: { urlTemplate: 'ftp://x' } }))).toBe(CatalogCodes.INVALID_IMPL);
        expect(code(await catalog.putTool(b, 'bad', '1', { description: 'x', type: 'builtin', impl: { builtin: 'read_fil' } }))).toBe(
          CatalogCodes.UNKNOWN_BUILTIN,
        );
        expect(code(await catalog.putTool(b, 'bad', '1', { description: 'x', type: 'rocket', impl: {} }))).toBe(CatalogCodes.INVALID_RECORD);
        expect(code(await catalog.putTool(b, 'bad', '1', { ...weatherTool(), argSchema: { type: 'object', not: { required: ['a'] } } }))).toBe(
          CatalogCodes.INVALID_SCHEMA,
        );
        expect(code(await catalog.putTool(b, 'bad', '1', { gram: '[a:Tool {description: "x"} | (::String)==>(::String)]' }))).toBe(CatalogCodes.INVALID_GRAM);
      });

      it('a function tool whose function is not loaded is stored, reported unavailable, and not invocable', async () => {
        const { catalog } = await open();
        const b = await bundle(catalog);
        const w = await catalog.putTool(b, 'weather', '1', {
          description: 'Weather',
          type: 'go',
          impl: { goFunc: 'github.com/acme/tools.Weather' },
          argSchema: { type: 'object', properties: {} },
        });
        expect(w.ok && w.value.value['type']).toBe('function');
        expect(w.ok && w.value.value['available']).toBe(false);
        const r = await catalog.invokeTool({ bundleID: b, slug: 'weather', version: '1' }, {});
        expect(code(r)).toBe(CatalogCodes.TOOL_UNAVAILABLE);
      });

      it('invocation is the library pipeline: every argument issue, then {ok, value} or {ok: false, error}', async () => {
        const { catalog } = await open();
        const bad = await catalog.invokeTool({ id: 'json_parse' }, { text: 5, extra: true });
        // the invoker's validation: a failed call, with every issue
        expect(bad.ok && !bad.value.ok && bad.value.error.reason).toBe(ToolCodes.INVALID_ARGUMENTS);
        expect(bad.ok && !bad.value.ok && (bad.value.error.details as { issues: unknown[] }).issues.length).toBe(2);
        const ok = await catalog.invokeTool({ id: 'json_parse' }, { text: '{"a": [1, 2]}', query: '$.a[1]' });
        expect(ok.ok && ok.value).toEqual({ ok: true, value: { value: [2], pretty: '[\n  2\n]' } });
        const failed = await catalog.invokeTool({ id: 'json_parse' }, { text: '{oops' });
        expect(failed.ok && !failed.value.ok).toBe(true);
        expect(code(await catalog.invokeTool({ id: 'nope' }, {}))).toBe(CatalogCodes.TOOL_NOT_FOUND);
      });
    });

    // ---------------------------------------------------------------------------------------------
    describe('the registry', () => {
      it('registers Tool JSON with the map form; created_by defaults to system; only agent tools may be deleted', async () => {
        const { catalog } = await open();
        const system = await catalog.registerTool({
          id: 'tool_http_get',
          name: 'HTTP GET',
          description: 'Fetch URL',
          input_schema: { url: 'string' },
          output_schema: { status: 'int', body: 'string' },
        });
        expect(system.ok && system.value.value['created_by']).toBe('system');
        expect(system.ok && system.value.value['input_schema']).toEqual({ url: 'string' });
        expect(system.ok && system.value.value['slug']).toBe('tool-http-get');
        const agent = await catalog.registerTool({
          id: 'tool_word_count',
          description: 'Count words',
          input_schema: { stdin: 'string' },
          exec: { type: 'cmd', cmd: 'wc', args: ['-w'] },
          created_by: 'agent',
        });
        expect(agent.ok && agent.value.value['type']).toBe('command');
        expect(code(await catalog.registerTool({ id: 'tool_image', description: 'x', exec: { type: 'image', image: 'alpine' } }))).toBe(
          CatalogCodes.EXEC_IMAGE_UNSUPPORTED,
        );
        expect(code(await catalog.registerTool({ id: 'tool_http_get', description: 'again' }))).toBe(CatalogCodes.CONFLICT);
        // names that collide after normalization are refused by name
        expect(code(await catalog.registerTool({ id: 'tool-http-get', description: 'a dash' }))).toBe(CatalogCodes.CONFLICT);
        expect(code(await catalog.deleteRegistryTool('tool_http_get'))).toBe(CatalogCodes.NOT_AGENT_CREATED);
        expect((await catalog.deleteRegistryTool('tool_word_count')).ok).toBe(true);
        const agents = await catalog.registryTools({ createdBy: 'agent' });
        expect(agents.ok && agents.value).toEqual([]);
      });

      it('bootstrap and discovery register what is missing only', async () => {
        const { catalog } = await open();
        const first = await catalog.bootstrap({
          tools: [
            { id: 'tool_ls', description: 'List' },
            { id: 'tool_file_read', description: 'Read' },
          ],
        });
        expect(first.ok && first.value.discovered).toEqual(['tool_ls', 'tool_file_read']);
        const again = await catalog.bootstrap([{ id: 'tool_ls', description: 'List' }]);
        expect(again.ok && again.value.existing).toEqual(['tool_ls']);
        const d = await catalog.discover({ usable: (b) => b !== 'shell' });
        expect(d.ok && d.value.existing).toEqual(expect.arrayContaining(['tool_ls', 'tool_file_read']));
        expect(d.ok && d.value.discovered).toContain('tool_http_get');
        expect(d.ok && d.value.discovered).not.toContain('tool_exec');
        expect(code(await catalog.bootstrap({ nothing: true }))).toBe(CatalogCodes.INVALID_BOOTSTRAP);
      });

      it('counts calls off the response path and keeps a capped history per agent and global', async () => {
        const { catalog } = await open();
        for (let i = 0; i < 7; i++) {
          const r = await catalog.invokeTool({ id: 'json_parse' }, { text: String(i) }, { agentId: i % 2 === 0 ? 'alice' : 'bob', projectId: 'p1' });
          expect(r.ok && r.value.ok).toBe(true);
        }
        await catalog.invokeTool({ id: 'json_parse' }, { text: '{' }, { agentId: 'alice' });
        const alice = await catalog.usage({ agentId: 'alice', limit: 100 });
        expect(alice.ok && alice.value.length).toBe(5);
        expect(alice.ok && alice.value[0]).toMatchObject({ tool: 'json_parse', ok: false, agent_id: 'alice' });
        const all = await catalog.usage({ limit: 3 });
        expect(all.ok && all.value.length).toBe(3);
        await catalog.flush();
        const t = await catalog.getTool({ id: 'json_parse' });
        expect(t.ok && t.value['callCount']).toBe(8);
        expect(t.ok && typeof t.value['lastCalledAt']).toBe('string');
      });

      it('the histories read as if every call were written, however many calls a flush holds (model)', async () => {
        await fc.assert(
          fc.asyncProperty(fc.array(fc.record({ agent: fc.constantFrom(undefined, 'a', 'b', 'c'), ok: fc.boolean() }), { maxLength: 40 }), async (calls) => {
            const { catalog } = await open();
            // each call's index as its project id: the entries say which calls each history kept
            for (const [i, c] of calls.entries()) {
              const r = await catalog.invokeTool(
                { id: 'json_parse' },
                { text: c.ok ? String(i) : '{' },
                { projectId: `p${i}`, ...(c.agent !== undefined ? { agentId: c.agent } : {}) },
              );
              expect(r.ok && r.value.ok).toBe(c.ok);
            }
            const newest = (indices: number[]): string[] =>
              indices
                .slice(-5)
                .reverse()
                .map((i) => `p${i}`);
            const read = async (agentId?: string): Promise<unknown> => {
              const r = await catalog.usage({ limit: 5, ...(agentId !== undefined ? { agentId } : {}) });
              return r.ok ? r.value.map((e) => e.project_id) : r.error;
            };
            expect(await read()).toEqual(newest(calls.map((_, i) => i)));
            for (const agent of ['a', 'b', 'c']) {
              expect(await read(agent)).toEqual(newest(calls.flatMap((c, i) => (c.agent === agent ? [i] : []))));
            }
          }),
          { numRuns: 15 },
        );
      });
    });

    // ---------------------------------------------------------------------------------------------
    describe('lists', () => {
      it('lists bundles and tools with filters, never ending on an empty page that carries a token', async () => {
        const { catalog } = await open();
        const a = await bundle(catalog, 'a');
        const b = await bundle(catalog, 'b');
        for (const v of ['1', '2', '3']) expect((await catalog.putTool(a, 'echo', v, echoTool())).ok).toBe(true);
        expect((await catalog.putTool(b, 'weather', '1', weatherTool())).ok).toBe(true);
        expect((await catalog.patchTool({ bundleID: a, slug: 'echo', version: '3' }, { isEnabled: false })).ok).toBe(true);
        const onlyA = await catalog.listTools({ bundleIDs: [a] });
        expect(onlyA.ok && onlyA.value.tools.map((t) => t['version'])).toEqual(['1', '2']);
        const withDisabled = await catalog.listTools({ bundleIDs: [a], includeDisabled: true, pageSize: 3 });
        expect(withDisabled.ok && withDisabled.value.tools.length).toBe(3);
        expect(withDisabled.ok && withDisabled.value.nextPageToken).toBeUndefined();
        const tagged = await catalog.listTools({ tags: ['weather'] });
        expect(tagged.ok && tagged.value.tools.map((t) => t['slug'])).toEqual(['weather']);
        const bundles = await catalog.listBundles({ bundleIDs: [a, b], pageSize: 1 });
        expect(bundles.ok && bundles.value.bundles.length).toBe(1);
        const next = await catalog.listBundles({ bundleIDs: [a, b], pageSize: 1, pageToken: bundles.ok ? bundles.value.nextPageToken : '' });
        expect(next.ok && next.value.bundles[0]?.['bundleID']).toBe(b);
        expect(next.ok && next.value.nextPageToken).toBeUndefined();
      });

      it('refuses page tokens it did not issue, or issued for other parameters', async () => {
        const { catalog } = await open();
        expect(code(await catalog.listTools({ pageToken: 'garbage!' }))).toBe(CatalogCodes.INVALID_PAGE_TOKEN);
        const page = await catalog.listTools({ pageSize: 2 });
        const token = page.ok ? (page.value.nextPageToken as string) : '';
        expect(code(await catalog.listTools({ pageSize: 2, pageToken: token, includeDisabled: true }))).toBe(CatalogCodes.INVALID_PAGE_TOKEN);
        expect(code(await catalog.searchTools({ q: 'file', pageToken: token }))).toBe(CatalogCodes.INVALID_PAGE_TOKEN);
      });

      it('a listing never repeats or skips a record that existed when it began, whatever is written between pages', async () => {
        const { catalog } = await open();
        const b = await bundle(catalog);
        for (let i = 0; i < 12; i++) expect((await catalog.putTool(b, `t${i}`, '1', echoTool(`t${i}`))).ok).toBe(true);
        let n = 100;
        await fc.assert(
          fc.asyncProperty(
            fc.integer({ min: 1, max: 7 }),
            fc.array(fc.constantFrom('create', 'delete-new', 'disable-new'), { maxLength: 6 }),
            async (size, writes) => {
              const before = await catalog.listTools({ includeDisabled: true, pageSize: 1000 });
              const existing = new Set(before.ok ? before.value.tools.map((t) => t['toolID'] as string) : []);
              const seen: string[] = [];
              let token: string | undefined;
              let step = 0;
              const created: string[] = [];
              const deleted: string[] = [];
              do {
                const p = await catalog.listTools({ includeDisabled: true, pageSize: size, ...(token !== undefined ? { pageToken: token } : {}) });
                if (!p.ok) throw new Error(p.error.message);
                expect(p.value.tools.length > 0 || p.value.nextPageToken === undefined).toBe(true);
                seen.push(...p.value.tools.map((t) => t['toolID'] as string));
                token = p.value.nextPageToken;
                const w = writes[step++];
                if (w === 'create') {
                  const r = await catalog.putTool(b, `n${n}`, '1', echoTool(`n${n++}`));
                  if (r.ok) created.push(r.value.value['toolID'] as string);
                } else if (w !== undefined && created.length > 0) {
                  const id = created.pop() as string;
                  if (w === 'delete-new') {
                    await catalog.deleteTool({ id });
                    deleted.push(id);
                  } else await catalog.patchTool({ id }, { isEnabled: false });
                }
              } while (token !== undefined);
              expect(new Set(seen).size).toBe(seen.length);
              for (const id of existing) expect(seen).toContain(id);
              // after the writes, a listing holds every record once, in id order, and no deleted one
              const after = await catalog.listTools({ includeDisabled: true, pageSize: 1000 });
              const ids = after.ok ? after.value.tools.map((t) => t['toolID'] as string) : [];
              expect(ids).toEqual([...new Set(ids)].sort());
              for (const id of [...existing, ...created]) expect(ids).toContain(id);
              for (const id of deleted) expect(ids).not.toContain(id);
            },
          ),
          { numRuns: 15 },
        );
      });
    });

    // ---------------------------------------------------------------------------------------------
    describe('search', () => {
      it('ranks prefix > whole word > fuzzy, then recency; disabled tools only with includeDisabled', async () => {
        const { catalog, clock } = await open();
        const b = await bundle(catalog);
        const put = async (slug: string, description: string): Promise<void> => {
          clock.now += 1000;
          expect((await catalog.putTool(b, slug, '1', { ...weatherTool(description), tags: [] })).ok).toBe(true);
        };
        await put('forecast-daily', 'Daily forecast of the weather');
        await put('weather-now', 'Current conditions');
        await put('climate', 'Long term weather statistics');
        await put('storms', 'Storm warnings, wether permitting');
        await put('weatherly', 'A newer tool');
        const r = await catalog.searchTools({ q: 'weather' });
        const order = r.ok ? r.value.tools.map((t) => [t['slug'], t['match']]) : [];
        expect(order).toEqual([
          ['weatherly', 'prefix'],
          ['weather-now', 'prefix'],
          ['climate', 'word'],
          ['forecast-daily', 'word'],
          ['storms', 'fuzzy'],
        ]);
        expect((await catalog.patchTool({ bundleID: b, slug: 'weatherly', version: '1' }, { isEnabled: false })).ok).toBe(true);
        const hidden = await catalog.searchTools({ q: 'weather' });
        expect(hidden.ok && hidden.value.tools.map((t) => t['slug'])).not.toContain('weatherly');
        const all = await catalog.searchTools({ q: 'weather', includeDisabled: true, pageSize: 2 });
        expect(all.ok && all.value.tools.map((t) => t['slug'])).toEqual(['weatherly', 'weather-now']);
        const rest = await catalog.searchTools({ q: 'weather', includeDisabled: true, pageSize: 10, pageToken: all.ok ? all.value.nextPageToken : '' });
        expect(rest.ok && rest.value.tools.map((t) => t['slug'])).toEqual(['climate', 'forecast-daily', 'storms']);
      });

      it('sees what another process wrote', async () => {
        const { catalog, second } = await open();
        const other = await second();
        const b = await bundle(other, 'remote');
        expect((await other.putTool(b, 'zanzibar', '1', weatherTool('Islands'))).ok).toBe(true);
        const r = await catalog.searchTools({ q: 'zanz' });
        expect(r.ok && r.value.tools.map((t) => t['slug'])).toEqual(['zanzibar']);
        expect((await other.deleteTool({ bundleID: b, slug: 'zanzibar', version: '1' })).ok).toBe(true);
        const gone = await catalog.searchTools({ q: 'zanz' });
        expect(gone.ok && gone.value.tools).toEqual([]);
      });
    });

    // ---------------------------------------------------------------------------------------------
    describe('several processes on one store', () => {
      it('<slug, version> stays unique when two catalogs race the same write', async () => {
        const { catalog, second } = await open();
        const other = await second();
        const b = await bundle(catalog);
        await other.sync();
        const results = await Promise.all([
          ...Array.from({ length: 5 }, () => catalog.putTool(b, 'race', '1', echoTool('race'))),
          ...Array.from({ length: 5 }, () => other.putTool(b, 'race', '1', echoTool('race'))),
        ]);
        expect(results.filter((r) => r.ok)).toHaveLength(1);
        expect(results.filter((r) => !r.ok).every((r) => code(r) === CatalogCodes.CONFLICT)).toBe(true);
        const list = await other.listTools({ bundleIDs: [b], includeDisabled: true });
        expect(list.ok && list.value.tools.length).toBe(1);
      });

      it('announces changes: here at once, from another process when syncing', async () => {
        const { catalog, second } = await open();
        const other = await second();
        const mine: CatalogEvent[] = [];
        const theirs: CatalogEvent[] = [];
        catalog.subscribe((e) => mine.push(e));
        other.subscribe((e) => theirs.push(e));
        const b = await bundle(catalog);
        expect((await catalog.putTool(b, 'echo', '1', echoTool())).ok).toBe(true);
        expect((await catalog.patchTool({ bundleID: b, slug: 'echo', version: '1' }, { isEnabled: false })).ok).toBe(true);
        expect((await catalog.deleteTool({ bundleID: b, slug: 'echo', version: '1' })).ok).toBe(true);
        const actions = (es: CatalogEvent[]) => es.flatMap((e) => (e.type === 'changed' && e.kind === 'tool' ? [e.action] : []));
        expect(actions(mine)).toEqual(['created', 'disabled', 'deleted']);
        expect(mine.some((e) => e.type === 'created')).toBe(true);
        await other.sync();
        // the other process saw the net effect of the three writes: the tool never existed for it
        expect((await other.getBundle(b)).ok).toBe(true);
        expect(theirs.filter((e) => e.type === 'changed' && e.kind === 'bundle' && e.remote)).toHaveLength(1);
      });

      it('an invocation event stream: invoked, then result or failed', async () => {
        const { catalog } = await open();
        const events: CatalogEvent[] = [];
        catalog.subscribe((e) => events.push(e));
        await catalog.invokeTool({ id: 'json_parse' }, { text: '[1]' }, { agentId: 'a1' });
        await catalog.invokeTool({ id: 'json_parse' }, { text: '[' }, { agentId: 'a1' });
        expect(events.filter((e) => e.type !== 'changed').map((e) => e.type)).toEqual(['invoked', 'result', 'invoked', 'failed']);
        const failed = events.find((e) => e.type === 'failed');
        expect(failed?.type === 'failed' && failed.agentId).toBe('a1');
        expect(failed?.type === 'failed' && typeof failed.error.code).toBe('string');
        expect(failed?.type === 'failed' && failed.error.reason).not.toBe(ToolCodes.INVALID_ARGUMENTS);
      });
    });
  });
};
