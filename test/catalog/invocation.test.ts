/**
 * Invoking catalog tools through the library's pipeline, for each kind of implementation: HTTP
 * tools against a local server (hosts checked against the server's list and the tool's own),
 * command tools, built-ins under another name, functions of a loaded library; and the policies
 * before a call (ALLOWED_TOOL_PERMS, approvals).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTool, toolLibrary, ToolCodes } from 'gramkit';
import { type Catalog, type CatalogOptions, CatalogCodes, newId, openCatalog, openFileStore } from 'gramkit/catalog';
import { approveAll, parsePermissionList, PolicyCodes } from 'gramkit/policy';
import { BuiltinCodes } from 'gramkit/builtins';
import { json, startServer, type TestServer } from '../tools/server-support.js';

let api: TestServer;
const dirs: string[] = [];
beforeAll(async () => {
  api = await startServer((req, res) => json(res, 200, { current: { condition: { text: `sunny in ${new URL(req.url, 'http://x').searchParams.get('q')}` } } }));
});
afterAll(async () => {
  await api.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const open = async (options: Partial<CatalogOptions> = {}): Promise<Catalog> => {
  const dir = mkdtempSync(join(tmpdir(), 'gramkit-invoke-'));
  dirs.push(dir);
  const r = await openCatalog({ store: openFileStore(join(dir, 'data')), workspace: dir, env: { PATH: '/usr/bin:/bin' }, ...options });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};

const weather = () => ({
  description: 'Current weather of a city',
  type: 'http',
  argSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  outputSchema: { type: 'string' },
  impl: { urlTemplate: `${api.origin}/current.json?q=\${city}`, extractExpr: '$.current.condition.text' },
});

const code = (r: { readonly ok: boolean; readonly error?: { readonly reason: string } }): string | undefined => (r.ok ? undefined : r.error?.reason);

describe('invoking catalog tools', () => {
  it('an HTTP tool runs when the server allows its host, and is refused by name when it does not', async () => {
    const allowed = await open({ allowHosts: [`127.0.0.1:${api.port}`] });
    const b = newId();
    await allowed.putBundle(b, { slug: 'w' });
    expect((await allowed.putTool(b, 'weather', '1', weather())).ok).toBe(true);
    const r = await allowed.invokeTool({ bundleID: b, slug: 'weather', version: '1' }, { city: 'Paris' });
    expect(r.ok && r.value).toEqual({ ok: true, value: 'sunny in Paris' });
    await allowed.close();

    const closed = await open({ allowHosts: ['api.example.com'] });
    await closed.putBundle(b, { slug: 'w' });
    expect((await closed.putTool(b, 'weather', '1', weather())).ok).toBe(true);
    const refused = await closed.invokeTool({ bundleID: b, slug: 'weather', version: '1' }, { city: 'Paris' });
    expect(code(refused)).toBe(CatalogCodes.HOST_NOT_ALLOWED);
    expect(!refused.ok && refused.error.message).toContain(`127.0.0.1:${api.port}`);
    await closed.close();
  });

  it('availability is decided when a record is written and when the server starts with another configuration, and says why', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gramkit-availability-'));
    dirs.push(dir);
    const at = async (allowHosts: ReadonlyArray<string>): Promise<Catalog> => {
      const r = await openCatalog({ store: openFileStore(join(dir, 'data')), workspace: dir, env: { PATH: '/usr/bin:/bin' }, allowHosts });
      if (!r.ok) throw new Error(r.error.message);
      return r.value;
    };
    const closed = await at(['api.example.com']);
    const b = newId();
    await closed.putBundle(b, { slug: 'w' });
    const w = await closed.putTool(b, 'weather', '1', weather());
    expect(w.ok).toBe(true);
    if (!w.ok) return;
    expect(w.value.value['available']).toBe(false);
    expect(w.value.value['unavailableReason']).toContain(`127.0.0.1:${api.port}`);
    expect(w.value.warnings.map((d) => d.code)).toContain(CatalogCodes.HOST_NOT_ALLOWED);
    // a header names a variable that is neither a parameter nor a secret: it can never run
    const agent = { ...weather(), impl: { urlTemplate: 'https://api.example.com/?q=${city}', headers: { 'User-Agent': 'MyApp/${version}' } } };
    const h = await closed.putTool(b, 'agent', '1', agent);
    expect(h.ok).toBe(true);
    if (!h.ok) return;
    expect(h.value.value['available']).toBe(false);
    expect(h.value.value['unavailableReason']).toContain('${version}');
    expect(h.value.warnings.map((d) => d.code)).toContain(CatalogCodes.TOOL_UNAVAILABLE);
    const listed = await closed.listTools({ bundleIDs: [b] });
    expect(listed.ok && listed.value.tools.map((t) => [t['slug'], t['available']])).toEqual([
      ['weather', false],
      ['agent', false],
    ]);
    expect((await closed.servedTools()).map((t) => t.record.slug)).not.toContain('weather');
    await closed.close();

    // the same store, a server that allows the host: weather is available again; the header still names nobody
    const open2 = await at([`127.0.0.1:${api.port}`, 'api.example.com']);
    const again = await open2.getTool({ bundleID: b, slug: 'weather', version: '1' });
    expect(again.ok && [again.value['available'], again.value['unavailableReason']]).toEqual([true, undefined]);
    const still = await open2.getTool({ bundleID: b, slug: 'agent', version: '1' });
    expect(still.ok && still.value['available']).toBe(false);
    expect((await open2.servedTools()).map((t) => t.record.slug)).toContain('weather');
    expect((await open2.servedTools()).map((t) => t.record.slug)).not.toContain('agent');
    await open2.close();
  });

  it('per-tool limits on a record: validated, stored, shown, and applied on invoke (calls per minute, timeout, result size)', async () => {
    // a server that answers only when the test ends: a call can only end by its timeout
    const slow = await startServer(() => undefined);
    try {
      const c = await open({ allowHosts: [`127.0.0.1:${api.port}`, `127.0.0.1:${slow.port}`] });
      const b = newId();
      await c.putBundle(b, { slug: 'limited' });
      for (const limits of [{ maxCallsPerMinute: 0 }, { timeoutMs: -5 }, { maxCallsPerMinute: 1.5 }, { perHour: 3 }, 'fast']) {
        const bad = await c.putTool(b, 'weather', '1', { ...weather(), limits });
        expect(code(bad), JSON.stringify(limits)).toBe(CatalogCodes.INVALID_RECORD);
      }
      const once = await c.putTool(b, 'weather', '1', { ...weather(), limits: { maxCallsPerMinute: 1 } });
      expect(once.ok && once.value.value['limits']).toEqual({ maxCallsPerMinute: 1 });
      const shown = await c.getTool({ bundleID: b, slug: 'weather', version: '1' });
      expect(shown.ok && shown.value['limits']).toEqual({ maxCallsPerMinute: 1 });
      const ref = { bundleID: b, slug: 'weather', version: '1' };
      const first = await c.invokeTool(ref, { city: 'Paris' });
      expect(first.ok && first.value).toEqual({ ok: true, value: 'sunny in Paris' });
      const second = await c.invokeTool(ref, { city: 'Rome' });
      expect(second.ok && !second.value.ok && second.value.error.reason).toBe(ToolCodes.RATE_LIMITED);

      const hanging = { ...weather(), impl: { urlTemplate: `${slow.origin}/current.json?q=\${city}` }, limits: { timeoutMs: 50 } };
      expect((await c.putTool(b, 'hanging', '1', hanging)).ok).toBe(true);
      const timedOut = await c.invokeTool({ bundleID: b, slug: 'hanging', version: '1' }, { city: 'Paris' });
      expect(timedOut.ok && !timedOut.value.ok && timedOut.value.error.reason).toBe(ToolCodes.TIMEOUT);
      // a caller cannot raise the record's timeout
      const asked = await c.invokeTool({ bundleID: b, slug: 'hanging', version: '1' }, { city: 'Paris' }, { timeoutMs: 600_000 });
      expect(asked.ok && !asked.value.ok && asked.value.error.reason).toBe(ToolCodes.TIMEOUT);

      const small = await c.putTool(b, 'small', '1', { ...weather(), limits: { maxResultBytes: 5 } });
      expect(small.ok).toBe(true);
      const big = await c.invokeTool({ bundleID: b, slug: 'small', version: '1' }, { city: 'Paris' });
      expect(big.ok && !big.value.ok && big.value.error.reason).toBe(ToolCodes.RESULT_TOO_LARGE);
      await c.close();
    } finally {
      await slow.close();
    }
  });

  it('a command tool runs without a shell in the workspace; a Tool JSON exec block with {param} and stdin', async () => {
    const c = await open();
    expect(
      (
        await c.registerTool({
          id: 'tool_echo',
          description: 'Echo words',
          input_schema: { words: 'string' },
          exec: { type: 'cmd', cmd: 'echo', args: ['{words}'] },
        })
      ).ok,
    ).toBe(true);
    const r = await c.invokeTool({ id: 'tool_echo' }, { words: 'a; rm -rf / $(x)' });
    expect(r.ok && r.value).toEqual({ ok: true, value: { output: 'a; rm -rf / $(x)\n' } });
    expect(
      (await c.registerTool({ id: 'tool_wc', description: 'Count words', input_schema: { stdin: 'string' }, exec: { type: 'cmd', cmd: 'wc', args: ['-w'] } }))
        .ok,
    ).toBe(true);
    const wc = await c.invokeTool({ id: 'tool_wc' }, { stdin: 'one two three' });
    expect(wc.ok && wc.value).toEqual({ ok: true, value: 3 });
    await c.close();
  });

  it('a function tool runs the function of a loaded library, and is unavailable when its schema differs', async () => {
    const add = createTool(
      'add',
      'Adds two numbers',
      { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
      ({ a, b }: { a: number; b: number }) => a + b,
    );
    const c = await open({ functions: toolLibrary([add]) });
    const d = await c.discover();
    expect(d.ok && d.value.discovered).toContain('add');
    const r = await c.invokeTool({ id: 'add' }, { a: 2, b: 3 });
    expect(r.ok && r.value).toEqual({ ok: true, value: 5 });
    const b = newId();
    await c.putBundle(b, { slug: 'f' });
    expect(
      (
        await c.putTool(b, 'add-strings', '1', {
          description: 'Adds',
          type: 'function',
          impl: { function: 'add' },
          argSchema: { type: 'object', properties: { a: { type: 'string' } } },
        })
      ).ok,
    ).toBe(true);
    const wrong = await c.invokeTool({ bundleID: b, slug: 'add-strings', version: '1' }, { a: 'x' });
    expect(code(wrong)).toBe(CatalogCodes.TOOL_UNAVAILABLE);
    expect(!wrong.ok && wrong.error.message).toContain('does not match');
    await c.close();
  });

  it('a built-in under a registry id checks its own schema too', async () => {
    const c = await open();
    expect((await c.registerTool({ id: 'tool_file_read', description: 'Read', input_schema: { path: 'string', encoding: 'string' } })).ok).toBe(true);
    const r = await c.invokeTool({ id: 'tool_file_read' }, { path: 'x.txt', encoding: 'latin1' });
    expect(r.ok && !r.value.ok && r.value.error.reason).toBe(ToolCodes.INVALID_ARGUMENTS);
    await c.close();
  });

  it('ALLOWED_TOOL_PERMS refuses tools that need other permissions, before they run', async () => {
    const c = await open({ policies: { permissions: { allowed: parsePermissionList('fs:read') } } });
    expect((await c.invokeTool({ id: 'json_parse' }, { text: '1' })).ok).toBe(true);
    const denied = await c.invokeTool({ id: 'write_file' }, { path: 'x.txt', content: 'x' });
    expect(denied.ok && !denied.value.ok && denied.value.error.reason).toBe(PolicyCodes.DENIED);
    expect(denied.ok && !denied.value.ok && denied.value.error.message).toContain('fs:write');
    await c.close();
  });

  it('a call that needs approval is refused without an approver, and runs with one (--yes)', async () => {
    const refusing = await open();
    const r = await refusing.invokeTool({ id: 'delete_file' }, { path: 'nothing.txt' });
    expect(r.ok && !r.value.ok && [r.value.error.reason, (r.value.error.details as { approvalNeeded?: boolean }).approvalNeeded]).toEqual([
      PolicyCodes.APPROVAL_REQUIRED,
      true,
    ]);
    await refusing.close();
    const approving = await open({ approver: approveAll });
    const a = await approving.invokeTool({ id: 'delete_file' }, { path: 'nothing.txt' });
    expect(a.ok && !a.value.ok && a.value.error.reason).toBe(BuiltinCodes.FILE_NOT_FOUND);
    await approving.close();
  });
});
