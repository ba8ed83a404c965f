/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * The admin page's writing side in Chromium (puppeteer-core driving Debian's chromium, as
 * test/server/ui.test.ts): on a server with tokens, a catalog's owner creates a bundle and a tool
 * with the keyboard (tab order, Enter submits, Escape closes, Ctrl+Enter saves the editor), sees
 * the server's diagnostics while typing gram (highlighted by the TextMate grammar of
 * editors/vscode), writes a new version, compares the versions side by side, deletes after a
 * confirmation; the list sorts, filters, groups the built-in tools after the user's, and says when
 * it loads, is empty or failed; a token without the write scope is refused as any client is; the
 * page fits a 400 px window. Screenshots go to a temporary directory (GRAMKIT_UI_SHOTS to choose
 * it), not to the repository.
 */
import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Catalog, newId, openCatalog, openFileStore } from 'gramkit/catalog';
import { adminPage, createService, type RunningServer, Scopes, startServer } from 'gramkit/server';
import { fullToken } from './support.js';
import { closeAll, launchChromium, pageErrors } from './browser.js';

const ADMIN = 'admin-token-admin-token-0001';
const READER = 'reader-token-reader-token-01';

describe('the admin page edits, in Chromium', () => {
  let dir: string;
  let shots: string;
  let catalog: Catalog;
  let server: RunningServer;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let browser: any;
  const bundleID = newId();
  let notesID = '';

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gramkit-ui-editor-'));
    shots = process.env['GRAMKIT_UI_SHOTS'] ?? mkdtempSync(join(tmpdir(), 'gramkit-ui-shots-'));
    const opened = await openCatalog({ store: openFileStore(join(dir, 'data')), workspace: dir, allowHosts: [] });
    if (!opened.ok) throw new Error(opened.error.message);
    catalog = opened.value;
    const put = await catalog.putBundle(bundleID, { slug: 'text', displayName: 'Text tools' });
    if (!put.ok) throw new Error(put.error.message);
    for (const slug of ['zeta-parse', 'alpha-parse']) {
      const t = await catalog.putTool(bundleID, slug, '1', {
        gram: `[${slug}:Tool {description: "Parses JSON text", builtin: "json_parse"} | (text::String)==>(::Any)]`,
      });
      if (!t.ok) throw new Error(`${slug}: ${t.error.message}`);
    }
    const exec = { type: 'cmd', cmd: 'wc', args: ['-w'] };
    const agent = await catalog.registerTool({
      id: 'tool_word_count',
      description: 'Counts the words of a text',
      input_schema: { stdin: 'string' },
      exec,
      created_by: 'agent',
    });
    if (!agent.ok) throw new Error(agent.error.message);
    const tokens = [fullToken(ADMIN), { name: 'reader', token: READER, scopes: [Scopes.READ] }];
    server = await startServer(createService({ catalog, tokens, mounts: [adminPage()] }), { host: '127.0.0.1', port: 0 });
    browser = await launchChromium();
  }, 60_000);

  afterAll(() => closeAll(browser, server, catalog, dir));

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const open = async (token: string, viewport = { width: 1280, height: 900 }): Promise<{ page: any; errors: string[] }> => {
    const page = await browser.newPage();
    await page.setViewport(viewport);
    const errors = pageErrors(page);
    await page.evaluateOnNewDocument((t: string) => sessionStorage.setItem('gramkit-token', t), token);
    return { page, errors };
  };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const shot = async (page: any, name: string): Promise<void> => {
    const path = join(shots, `${name}.png`);
    await page.screenshot({ path, fullPage: true });
    expect(existsSync(path) && statSync(path).size > 1000, path).toBe(true);
  };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const active = (page: any): Promise<string> =>
    page.evaluate(() => document.activeElement?.id || document.activeElement?.getAttribute('aria-label') || document.activeElement?.tagName);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const userRows = (page: any): Promise<string[]> =>
    page.$$eval('#tools tbody tr', (trs: Element[]) => trs.map((tr) => (tr as HTMLElement).dataset['tool'] as string));
  // the failures the tests cause on purpose are logged by the browser as failed loads
  const unexpected = (errors: string[]): string[] => errors.filter((e) => !/Failed to load resource/.test(e));

  it('says it is loading (never an empty list), then a failure with Retry, then an empty search', async () => {
    const { page, errors } = await open(ADMIN);
    await page.setRequestInterception(true);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const held: any[] = [];
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    page.on('request', (r: any) => (new URL(r.url()).pathname === '/tools/tools' ? held.push(r) : r.continue()));
    await page.goto(`${server.url}/ui`);
    await page.waitForFunction(() => document.getElementById('tools-state')?.dataset['state'] === 'loading');
    expect(await page.$eval('#tools-state', (e: HTMLElement) => ({ text: e.textContent, visible: e.offsetParent !== null }))).toEqual({
      text: 'Loading tools…',
      visible: true,
    });
    expect(await page.$$eval('#tools tbody tr', (trs: Element[]) => trs.length)).toBe(0);
    await shot(page, 'list-loading');
    // the first answer fails: the list says so and offers Retry
    while (held.length === 0) await new Promise((r) => setTimeout(r, 20));
    await held.shift().respond({
      status: 503,
      contentType: 'application/problem+json',
      body: JSON.stringify({ status: 503, code: 'STORE_UNAVAILABLE', detail: 'the store is down' }),
    });
    await page.waitForFunction(() => document.getElementById('tools-state')?.dataset['state'] === 'error');
    expect(await page.$eval('#tools-state', (e: HTMLElement) => e.textContent)).toContain('STORE_UNAVAILABLE: the store is down');
    await shot(page, 'list-error');
    page.off('request');
    page.on('request', (r: { continue: () => void }) => r.continue());
    await page.click('#tools-state button.retry');
    await page.waitForSelector('#tools tbody tr[data-tool="alpha-parse"]');
    expect(await page.$eval('#tools-state', (e: HTMLElement) => e.hidden)).toBe(true);
    // a search that finds nothing says so
    await page.type('#search', 'qqqzzz');
    await page.waitForFunction(() => document.getElementById('tools-state')?.dataset['state'] === 'empty');
    expect(await page.$eval('#tools-state', (e: HTMLElement) => e.textContent)).toBe('No tool matches “qqqzzz”.');
    expect(unexpected(errors)).toEqual([]);
    await page.close();
  }, 60_000);

  it("groups the built-in tools after the user's, sorts and filters", async () => {
    const { page, errors } = await open(ADMIN);
    await page.goto(`${server.url}/ui`);
    await page.waitForSelector('#builtin-tools tbody tr');
    // the user's tools come first, in their own table; the built-in ones after them
    const order = await page.evaluate(() =>
      Boolean(document.getElementById('tools')!.compareDocumentPosition(document.getElementById('builtin-tools')!) & Node.DOCUMENT_POSITION_FOLLOWING),
    );
    expect(order).toBe(true);
    expect(await userRows(page)).toEqual(['zeta-parse', 'alpha-parse', 'tool-word-count']); // as listed: creation order
    const bundles = await page.$$eval('#bundles li', (lis: Element[]) => lis.map((li) => (li as HTMLElement).dataset['slug'] ?? ''));
    expect(bundles.indexOf('text')).toBeLessThan(bundles.indexOf('builtin'));
    await page.select('#sort', 'name');
    expect(await userRows(page)).toEqual(['alpha-parse', 'tool-word-count', 'zeta-parse']);
    const builtinNames = await page.$$eval('#builtin-tools tbody tr', (trs: Element[]) => trs.map((tr) => (tr as HTMLElement).dataset['tool'] as string));
    expect(builtinNames).toEqual([...builtinNames].sort((a, b) => a.localeCompare(b)));
    // the type filter offers the types loaded and keeps only the rows of the one chosen
    const types = await page.$$eval('#type-filter option', (os: Element[]) => os.map((o) => (o as HTMLOptionElement).value).filter((v) => v !== ''));
    const other = await page.$eval('#tools tbody tr[data-tool="tool-word-count"] td:nth-child(3)', (td: Element) => td.textContent as string);
    const parser = await page.$eval('#tools tbody tr[data-tool="zeta-parse"] td:nth-child(3)', (td: Element) => td.textContent as string);
    expect(other).not.toBe(parser);
    expect(types).toEqual(expect.arrayContaining([other, parser]));
    await page.select('#type-filter', other);
    const shown = await page.$$eval('tbody tr td:nth-child(3)', (tds: Element[]) => [...new Set(tds.map((td) => td.textContent))]);
    expect(shown).toEqual([other]);
    expect(await userRows(page)).toEqual(['tool-word-count']);
    await shot(page, 'list-grouped-filtered');
    expect(unexpected(errors)).toEqual([]);
    await page.close();
  }, 60_000);

  it("creates a bundle and a tool with the keyboard, with the server's diagnostics as one types", async () => {
    const { page, errors } = await open(ADMIN);
    await page.goto(`${server.url}/ui`);
    await page.waitForSelector('#tools tbody tr[data-tool="alpha-parse"]');

    // a bundle: Enter opens, the slug has the focus, Tab moves on, Enter submits
    await page.focus('#new-bundle');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#bundle-dialog[open]');
    expect(await active(page)).toBe('bundle-slug');
    await page.keyboard.type('notes');
    await page.keyboard.press('Tab');
    expect(await active(page)).toBe('bundle-name');
    await page.keyboard.type('Notes');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#bundles li[data-slug="notes"]');
    expect(await page.$eval('#bundle-dialog', (d: HTMLDialogElement) => d.open)).toBe(false);
    expect(await active(page)).toBe('new-bundle'); // the focus is back where it was
    const notes = await catalog.findBundle('notes');
    expect(notes.ok && notes.value['displayName']).toBe('Notes');
    notesID = notes.ok ? (notes.value['bundleID'] as string) : '';

    // Escape closes without writing
    await page.keyboard.press('Enter');
    await page.waitForSelector('#bundle-dialog[open]');
    await page.keyboard.type('never');
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => !(document.getElementById('bundle-dialog') as HTMLDialogElement).open);
    expect((await catalog.findBundle('never')).ok).toBe(false);

    // a tool: the dialog's tab order is bundle, slug, version, format, source
    await page.focus('#new-tool');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#tool-dialog[open]');
    expect(await active(page)).toBe('tool-bundle');
    const order: string[] = [];
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('Tab');
      order.push(await active(page));
    }
    expect(order).toEqual(['tool-slug', 'tool-version', 'tool-mode', 'tool-source']);
    // the built-in bundle is not offered: tools are written into the user's
    const offered = await page.$$eval('#tool-bundle option', (os: Element[]) => os.map((o) => o.textContent));
    expect(offered).toEqual(expect.arrayContaining(['Text tools', 'Notes']));
    expect(offered).not.toContain('builtin');
    await page.select('#tool-bundle', notes.ok ? (notes.value['bundleID'] as string) : '');
    await page.focus('#tool-slug');
    await page.keyboard.down('Control');
    await page.keyboard.press('KeyA');
    await page.keyboard.up('Control');
    await page.keyboard.type('shout');
    // the gram's name followed the slug
    expect(await page.$eval('#tool-source', (t: HTMLTextAreaElement) => t.value.startsWith('[shout:Tool'))).toBe(true);
    await page.focus('#tool-source');
    await page.keyboard.down('Control');
    await page.keyboard.press('KeyA');
    await page.keyboard.up('Control');
    await page.keyboard.press('Backspace');
    await page.keyboard.type('[shout:Tool {description: "Parses JSON text", builtin: "json_parse"} |\n  (text::Strin)==>(::Any)]');
    // the server's diagnostic, at its line, underlined in the text
    await page.waitForSelector('#tool-diagnostics[data-state="errors"] li.error');
    const diagnostic = await page.$eval('#tool-diagnostics li.error', (li: Element) => li.textContent as string);
    expect(diagnostic).toMatch(/^2:\d+ error [A-Z_]+: .*Strin/);
    expect(await page.$$eval('#tool-highlight .diag-error', (ss: Element[]) => ss.map((s) => s.textContent).join(''))).toContain('Strin');
    // highlighted by the TextMate grammar: the tool's name, the types, the strings
    expect(await page.$eval('#tool-highlight .tm-entity-name-function', (s: Element) => s.textContent)).toBe('shout');
    expect(await page.$eval('#tool-highlight .tm-storage', (s: Element) => s.textContent)).toBe('Tool');
    expect(await page.$$eval('#tool-highlight .tm-entity-name-type', (ss: Element[]) => ss.map((s) => s.textContent))).toEqual(['Strin', 'Any']);
    expect(await page.$$eval('#tool-highlight .tm-string', (ss: Element[]) => ss.length)).toBeGreaterThanOrEqual(2);
    await shot(page, 'editor-diagnostics');
    // fixed: no problem; Ctrl+Enter saves
    for (let i = 0; i < ')==>(::Any)]'.length; i++) await page.keyboard.press('ArrowLeft');
    await page.keyboard.type('g');
    expect(await page.$eval('#tool-source', (t: HTMLTextAreaElement) => t.value)).toContain('(text::String)');
    await page.waitForSelector('#tool-diagnostics[data-state="ok"] li.ok');
    await page.keyboard.down('Control');
    await page.keyboard.press('Enter');
    await page.keyboard.up('Control');
    await page.waitForFunction(() => !(document.getElementById('tool-dialog') as HTMLDialogElement).open);
    await page.waitForFunction(() => (document.getElementById('detail-title')?.textContent ?? '').includes('shout 1'));
    const written = await catalog.getTool({ bundleID: notes.ok ? (notes.value['bundleID'] as string) : '', slug: 'shout', version: '1' });
    expect(written.ok).toBe(true);
    // Enter on a row's name opens it (rows are reached with Tab)
    await page.focus('#tools tbody tr[data-tool="alpha-parse"] button.slug');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => (document.getElementById('detail-title')?.textContent ?? '').includes('alpha-parse 1'));
    expect(await page.$eval('#detail-gram .tm-entity-name-function', (s: Element) => s.textContent)).toBe('alpha-parse');
    expect(unexpected(errors)).toEqual([]);
    await page.close();
  }, 90_000);

  it('writes a new version, shows the versions side by side, deletes after a confirmation', async () => {
    const { page, errors } = await open(ADMIN);
    await page.goto(`${server.url}/ui`);
    await page.waitForSelector('#tools tbody tr[data-tool="alpha-parse"]');
    await page.click('#bundles li[data-slug="text"]');
    await page.waitForFunction(
      () =>
        document.querySelector('#tools tbody tr[data-tool="tool-word-count"]') === null && document.getElementById('tools-state')?.dataset['state'] === 'ready',
    );
    await page.click('#tools tbody tr[data-tool="alpha-parse"]');
    await page.waitForFunction(() => (document.getElementById('detail-title')?.textContent ?? '').includes('alpha-parse 1'));
    // a new version, from the gram of the last one
    await page.click('#edit-tool');
    await page.waitForSelector('#tool-dialog[open]');
    expect(await page.$eval('#tool-version', (i: HTMLInputElement) => i.value)).toBe('2');
    expect(await active(page)).toBe('tool-source');
    await page.$eval('#tool-source', (t: HTMLTextAreaElement) => {
      t.value = t.value
        .replace('Parses JSON text', 'Parses JSON text and reads a path of it')
        .replace('(text::String)', '(text::String)==>(query::String {optional: true})');
      t.dispatchEvent(new Event('input'));
    });
    await page.waitForSelector('#tool-diagnostics[data-state="ok"]');
    await page.click('#tool-save');
    await page.waitForFunction(() => (document.getElementById('detail-title')?.textContent ?? '').includes('alpha-parse 2'));
    const v2 = await catalog.getTool({ bundleID, slug: 'alpha-parse', version: '2' });
    expect(v2.ok && v2.value['description']).toBe('Parses JSON text and reads a path of it');

    // side by side: both versions, oldest first, the changed lines marked
    await page.click('#show-versions');
    await page.waitForSelector('#versions section.version[data-version="2"]');
    expect(await page.$$eval('#versions section.version', (ss: Element[]) => ss.map((s) => (s as HTMLElement).dataset['version']))).toEqual(['1', '2']);
    const tops = await page.$$eval('#versions section.version', (ss: Element[]) => ss.map((s) => s.getBoundingClientRect().top));
    expect(tops[0]).toBe(tops[1]); // side by side
    expect(await page.$$eval('#versions section.version[data-version="1"] pre.changed', (ps: Element[]) => ps.length)).toBe(0);
    const changed = await page.$$eval('#versions section.version[data-version="2"] pre.changed', (ps: Element[]) => ps.map((p) => p.textContent).join('\n'));
    expect(changed).toContain('reads a path');
    // one property a line: what did not change is not marked
    expect(changed).not.toContain('displayName');
    expect(changed).toContain('version: "2"');
    await shot(page, 'versions');
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => !(document.getElementById('versions-dialog') as HTMLDialogElement).open);

    // delete: the confirmation has Cancel focused, so Enter alone deletes nothing
    await page.click('#delete-tool');
    await page.waitForSelector('#confirm-dialog[open]');
    expect(await active(page)).toBe('confirm-cancel');
    expect(await page.$eval('#confirm-title', (e: Element) => e.textContent)).toBe('Delete alpha-parse 2?');
    await shot(page, 'confirm-delete');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => !(document.getElementById('confirm-dialog') as HTMLDialogElement).open);
    expect((await catalog.getTool({ bundleID, slug: 'alpha-parse', version: '2' })).ok).toBe(true);
    // Tab to Delete, Enter: gone from the catalog and the list
    await page.click('#delete-tool');
    await page.waitForSelector('#confirm-dialog[open]');
    await page.keyboard.press('Tab');
    expect(await active(page)).toBe('confirm-ok');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => !(document.getElementById('confirm-dialog') as HTMLDialogElement).open);
    await page.waitForFunction(() => document.querySelector('#tools tbody tr[data-tool="alpha-parse"][data-version="2"]') === null);
    expect((await catalog.getTool({ bundleID, slug: 'alpha-parse', version: '2' })).ok).toBe(false);
    expect(await page.$eval('#detail-pane', (e: HTMLElement) => e.hidden)).toBe(true);

    // a bundle: edited (PUT), then deleted (soft) after its confirmation
    await page.click('#bundles li[data-slug="notes"] button.edit');
    await page.waitForSelector('#bundle-dialog[open]');
    await page.$eval('#bundle-name', (i: HTMLInputElement) => void (i.value = ''));
    await page.type('#bundle-name', 'My notes');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('#bundles li[data-slug="notes"]')?.textContent?.includes('My notes') === true);
    await page.click('#bundles li[data-slug="notes"] button.delete');
    await page.waitForSelector('#confirm-dialog[open]');
    await page.click('#confirm-ok');
    await page.waitForFunction(() => document.querySelector('#bundles li[data-slug="notes"]') === null);
    const notes = await catalog.getBundle(notesID);
    expect(notes.ok && typeof notes.value['softDeletedAt']).toBe('string');
    expect(unexpected(errors)).toEqual([]);
    await page.close();
  }, 90_000);

  it("writes with the page's token: one without the write scope is refused, as any client is", async () => {
    const { page } = await open(READER);
    await page.goto(`${server.url}/ui`);
    await page.waitForSelector('#tools tbody tr[data-tool="zeta-parse"]');
    await page.click('#new-tool');
    await page.waitForSelector('#tool-dialog[open]');
    await page.select('#tool-bundle', bundleID);
    await page.$eval('#tool-slug', (i: HTMLInputElement) => void (i.value = 'refused'));
    await page.$eval(
      '#tool-source',
      (t: HTMLTextAreaElement) => void (t.value = '[refused:Tool {description: "Parses JSON text", builtin: "json_parse"} | (text::String)==>(::Any)]'),
    );
    await page.click('#tool-save');
    await page.waitForFunction(() => (document.getElementById('tool-error')?.textContent ?? '') !== '');
    expect(await page.$eval('#tool-error', (e: Element) => e.textContent)).toContain('SERVICE_MISSING_SCOPE');
    expect(await page.$eval('#tool-dialog', (d: HTMLDialogElement) => d.open)).toBe(true);
    expect((await catalog.getTool({ bundleID, slug: 'refused', version: '1' })).ok).toBe(false);
    await page.close();
  }, 60_000);

  it('fits a 400 px window: no horizontal scroll, the editor usable', async () => {
    const { page, errors } = await open(ADMIN, { width: 400, height: 800 });
    await page.goto(`${server.url}/ui`);
    await page.waitForSelector('#tools tbody tr[data-tool="zeta-parse"]');
    const overflow = (): Promise<number> => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(await overflow()).toBe(0);
    await shot(page, 'narrow-list');
    await page.click('#tools tbody tr[data-tool="zeta-parse"]');
    await page.waitForFunction(() => (document.getElementById('detail-title')?.textContent ?? '').includes('zeta-parse 1'));
    expect(await overflow()).toBe(0);
    await page.click('#edit-tool');
    await page.waitForSelector('#tool-dialog[open]');
    await page.waitForSelector('#tool-diagnostics[data-state="ok"]');
    const box = await page.$eval('#tool-dialog', (d: Element) => d.getBoundingClientRect().right);
    expect(box).toBeLessThanOrEqual(400);
    expect(await overflow()).toBe(0);
    await shot(page, 'narrow-editor');
    await page.keyboard.press('Escape');
    expect(unexpected(errors)).toEqual([]);
    await page.close();
  }, 60_000);
});
