/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * The admin page at /ui: its files are the ones in src/server/ui/ (bundled), served with a strict
 * CSP; and, in a real browser (Debian's chromium driven by puppeteer-core, which never downloads
 * one), the page lists bundles and tools, toggles them, searches on the search route, shows a
 * tool's gram, invokes it through a form generated from its argSchema, filters agent-created
 * tools, and shows recent usage. The browser part is skipped, saying why, only when no chromium
 * is installed (`.ci/run` installs it).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Catalog, newId, openCatalog, openFileStore } from 'gramkit/catalog';
import { adminPage, createService, type RunningServer, ServiceCodes, startServer } from 'gramkit/server';
import { harness, isProblem, fullToken } from './support.js';
import { closeAll, launchChromium, pageErrors } from './browser.js';
import { readUiFile, renderUiModule, MODULE_PATH } from './sync-ui.js';

describe('the admin page, served', () => {
  it('the bundled module is in sync with src/server/ui/ (run `npx tsx test/server/sync-ui.ts` after editing the page)', () => {
    expect(readFileSync(MODULE_PATH, 'utf8')).toBe(renderUiModule(readUiFile));
  });

  it('serves its files (the page, its scripts and style, the gram grammar) with their types and a strict CSP, without the token; anything else is a problem', async () => {
    const h = await harness({ mounts: [adminPage()], tokens: [fullToken('secret-secret-secret')] });
    try {
      const page = await h.call('GET', '/ui');
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(page.text).toContain('<script src="/ui/app.js" defer></script>');
      expect((await h.call('GET', '/ui/')).text).toBe(page.text);
      expect((await h.call('GET', '/ui/app.js')).headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect((await h.call('GET', '/ui/style.css')).headers.get('content-type')).toBe('text/css; charset=utf-8');
      expect((await h.call('GET', '/ui/editor.js')).headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      // the editor's highlighting is the TextMate grammar of the VS Code extension, served as it is
      const grammar = await h.call('GET', '/ui/gram.tmLanguage.json');
      expect(grammar.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(grammar.text).toBe(readFileSync(new URL('../../editors/vscode/syntaxes/gram.tmLanguage.json', import.meta.url), 'utf8'));
      isProblem(await h.call('GET', '/ui/.env'), 404, ServiceCodes.NOT_FOUND);
      isProblem(await h.call('GET', '/ui/nope.js'), 404, ServiceCodes.NOT_FOUND);
      // attack: inherited members of the file table are no files
      for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) isProblem(await h.call('GET', `/ui/${name}`), 404, ServiceCodes.NOT_FOUND);
      isProblem(await h.call('POST', '/ui', { body: {} }), 405, ServiceCodes.METHOD_NOT_ALLOWED);
      // the page is public; the API it calls is not
      isProblem(await h.call('GET', '/tools/bundles'), 401, ServiceCodes.UNAUTHORIZED);
    } finally {
      await h.close();
    }
  });
});

// Chromium is required, as redis-server and bubblewrap are (.ci/run installs them): without it this
// suite fails saying how to install it, rather than pass unseen.
describe('the admin page in Chromium', () => {
  let dir: string;
  let catalog: Catalog;
  let server: RunningServer;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let browser: any;
  const bundleID = newId();

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gramkit-ui-'));
    const opened = await openCatalog({ store: openFileStore(join(dir, 'data')), workspace: dir, allowHosts: [] });
    if (!opened.ok) throw new Error(opened.error.message);
    catalog = opened.value;
    const put = await catalog.putBundle(bundleID, { slug: 'text', displayName: 'Text tools' });
    if (!put.ok) throw new Error(put.error.message);
    for (const [slug, gram] of [
      [
        'parse-json',
        '[parse-json:Tool {description: "Parses JSON text and reads a path of it", builtin: "json_parse"} | (text::String)==>(query::String {optional: true})==>(::Any)]',
      ],
      [
        'list-files',
        '[list-files:Tool {description: "Lists the files of a directory", builtin: "list_directory"} | (path::String {optional: true})==>(::Any)]',
      ],
    ] as const) {
      const t = await catalog.putTool(bundleID, slug, '1', { gram });
      if (!t.ok) throw new Error(`${slug}: ${t.error.message}`);
    }
    const agent = await catalog.registerTool({
      id: 'tool_word_count',
      description: 'Counts the words of a text',
      input_schema: { stdin: 'string' },
      exec: { type: 'cmd', cmd: 'wc', args: ['-w'] },
      created_by: 'agent',
    });
    if (!agent.ok) throw new Error(agent.error.message);
    server = await startServer(createService({ catalog, mounts: [adminPage()] }), { host: '127.0.0.1', port: 0 });
    browser = await launchChromium();
  }, 60_000);

  afterAll(() => closeAll(browser, server, catalog, dir));

  it('lists, toggles, searches, shows the gram, invokes from a generated form, filters agent tools, shows usage', async () => {
    const page = await browser.newPage();
    const errors = pageErrors(page);
    await page.goto(`${server.url}/ui`);
    const rows = (): Promise<string[]> => page.$$eval('#tools tbody tr', (trs: Element[]) => trs.map((tr) => (tr as HTMLElement).dataset['tool'] as string));
    await page.waitForSelector('#tools tbody tr[data-tool="parse-json"]');
    expect(await rows()).toEqual(expect.arrayContaining(['parse-json', 'list-files', 'tool-word-count']));
    const bundles = await page.$$eval('#bundles li', (lis: Element[]) => lis.map((li) => (li as HTMLElement).dataset['slug'] ?? ''));
    expect(bundles).toEqual(expect.arrayContaining(['text', 'builtin']));

    // a bundle narrows the list
    await page.click('#bundles li[data-slug="text"]');
    await page.waitForFunction(() => document.querySelectorAll('#tools tbody tr').length === 2);
    expect((await rows()).sort()).toEqual(['list-files', 'parse-json']);

    // the tool toggle disables it in the catalog
    await page.click('#tools tbody tr[data-tool="list-files"] input[type=checkbox]');
    await page.waitForSelector('#tools tbody tr.disabled[data-tool="list-files"]');
    const listFiles = await catalog.getTool({ bundleID, slug: 'list-files', version: '1' });
    expect(listFiles.ok && listFiles.value['isEnabled']).toBe(false);

    // the search box uses the search route: a prefix finds the tool
    await page.click('#bundles li[data-bundle=""]');
    await page.type('#search', 'pars');
    // the list the whole query rendered (typing searches at each key; the page drops stale answers)
    await page.waitForFunction(() => document.getElementById('tools-scope')?.textContent?.includes('pars') === true);
    const found = await page.$$eval('#tools tbody tr', (trs: Element[]) => trs.map((tr) => (tr as HTMLElement).dataset['tool']));
    expect(found[0]).toBe('parse-json');
    expect(found).not.toContain('tool-word-count');

    // a tool's detail: its gram, and a form generated from its argSchema
    await page.click('#tools tbody tr[data-tool="parse-json"]');
    await page.waitForFunction(() => (document.querySelector('#detail-gram')?.textContent ?? '').includes('[parse-json:Tool'));
    const fields = await page.$$eval('#tester [name]', (inputs: Element[]) =>
      inputs.map((i) => `${(i as HTMLInputElement).name}:${(i as HTMLInputElement).dataset['kind']}:${(i as HTMLInputElement).required}`),
    );
    expect(fields).toEqual(['text:string:true', 'query:string:false']);
    await page.type('#tester [name=text]', '{"city": "Paris", "days": [1, 2]}');
    await page.type('#tester [name=query]', '$.city');
    await page.click('#tester button[type=submit]');
    await page.waitForSelector('#result.ok');
    const result = JSON.parse(await page.$eval('#result', (e: Element) => e.textContent as string)) as { ok: boolean; value: { value: unknown } };
    expect(result).toMatchObject({ ok: true, value: { value: ['Paris'] } });

    // invalid input comes back as the service's problem, shown
    await page.$eval('#tester [name=text]', (e: Element) => void ((e as HTMLInputElement).value = '{'));
    await page.click('#tester button[type=submit]');
    await page.waitForSelector('#result.failed');

    // recent usage shows the calls
    await page.waitForFunction(() => document.querySelectorAll('#usage tbody tr').length >= 2);
    const usage = await page.$$eval('#usage tbody tr', (trs: Element[]) => trs.map((tr) => tr.textContent ?? ''));
    expect(usage[0]).toContain('parse-json');
    expect(usage[0]).toContain('INVALID_JSON');
    expect(usage[1]).toMatch(/parse-json.*ok/);

    // the agent filter: only tools agents created
    await page.$eval('#search', (e: Element) => void ((e as HTMLInputElement).value = ''));
    await page.click('#agent-only');
    await page.waitForFunction(() => {
      const trs = [...document.querySelectorAll('#tools tbody tr')] as HTMLElement[];
      return trs.length === 1 && trs[0]?.dataset['tool'] === 'tool-word-count';
    });
    expect(await page.$eval('#tools tbody tr td.created-by', (e: Element) => e.textContent)).toBe('agent');

    // the bundle toggle disables the bundle in the catalog
    await page.click('#bundles li[data-slug="text"] input[type=checkbox]');
    await page.waitForSelector('#bundles li.disabled[data-slug="text"]');
    const bundle = await catalog.getBundle(bundleID);
    expect(bundle.ok && bundle.value['isEnabled']).toBe(false);

    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);
});
