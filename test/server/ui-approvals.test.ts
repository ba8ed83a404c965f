/// <reference lib="dom" />
/**
 * The admin page's approvals panel in Chromium (puppeteer-core, Debian's chromium, as
 * test/server/ui.test.ts): a call held for approval appears on the page already open (the events
 * stream keeps it live) with its tool, arguments and reason; a person approves it with changed
 * arguments, using the keyboard only; denies one with a message; approves one as asked. Each
 * call's client gets the answer the decision implies, and the file shows it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Catalog, openCatalog, openFileStore } from 'gramkit/catalog';
import { approvalQueue, type ApprovalQueue } from 'gramkit/policy';
import { adminPage, createService, type RunningServer, startServer } from 'gramkit/server';
import { launchChromium, pageErrors } from './browser.js';

describe("the admin page's approvals in Chromium", () => {
  let dir: string;
  let catalog: Catalog;
  let queue: ApprovalQueue;
  let server: RunningServer;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let browser: any;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gramkit-ui-approvals-'));
    const opened = await openCatalog({ store: openFileStore(join(dir, 'data')), workspace: dir, allowHosts: [] });
    if (!opened.ok) throw new Error(opened.error.message);
    catalog = opened.value;
    queue = approvalQueue();
    server = await startServer(createService({ catalog, approvals: queue, mounts: [adminPage()] }), { host: '127.0.0.1', port: 0 });
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    queue?.close();
    await server?.close();
    await catalog?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const overwrite = (content: string): Promise<Response> =>
    fetch(`${server.url}/api/v1/tools/write_file/invoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-agent-id': 'writer-1' },
      body: JSON.stringify({ path: 'notes.txt', content }),
    });

  it('shows each held call live, and approves with changes (by keyboard), denies with a message, approves as asked', async () => {
    writeFileSync(join(dir, 'notes.txt'), 'original\n');
    const page = await browser.newPage();
    const errors = pageErrors(page);
    await page.goto(`${server.url}/ui`);
    await page.waitForFunction(
      () => document.getElementById('approvals-pane')?.hidden === false && document.getElementById('approvals-empty')?.hidden === false,
    );

    // 1. a call made after the page loaded appears on it, with its tool, arguments, reason and caller
    const first = overwrite('the agent wrote this');
    await page.waitForSelector('#approvals li[data-tool="write_file"]');
    const shown = await page.$eval('#approvals li', (li: Element) => ({
      tool: li.querySelector('.tool')?.textContent,
      reason: li.querySelector('.reason')?.textContent,
      meta: li.querySelector('.meta')?.textContent,
      args: JSON.parse((li.querySelector('textarea') as HTMLTextAreaElement).value),
    }));
    expect(shown.tool).toBe('write_file');
    expect(shown.reason).toContain('overwrite an existing file');
    expect(shown.meta).toContain('agent writer-1');
    expect(shown.args).toEqual({ path: 'notes.txt', content: 'the agent wrote this' });
    expect(await page.$eval('#approvals-count', (e: Element) => e.textContent)).toBe('1');

    // approve with changes, by keyboard only: edit the JSON, Tab past "Approve" (disabled once
    // the arguments differ) to "Approve with changes", press Enter
    await page.focus('#approvals li textarea');
    await page.keyboard.down('Control');
    await page.keyboard.press('KeyA');
    await page.keyboard.up('Control');
    await page.keyboard.type('{"path": "notes.txt", "content": "a person wrote this"}');
    expect(await page.$eval('#approvals li button.approve', (b: Element) => (b as HTMLButtonElement).disabled)).toBe(true);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.className)).toBe('approve-changed');
    await page.keyboard.press('Enter');
    const firstAnswer = await first;
    expect(firstAnswer.status).toBe(200);
    expect(((await firstAnswer.json()) as { ok: boolean }).ok).toBe(true);
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('a person wrote this');
    await page.waitForFunction(() => document.querySelectorAll('#approvals li').length === 0);
    await page.waitForFunction(() => (document.getElementById('status')?.textContent ?? '').includes('approved with changed arguments'));

    // 2. invalid JSON offers no approval and says why
    const second = overwrite('second');
    await page.waitForSelector('#approvals li[data-tool="write_file"]');
    await page.focus('#approvals li textarea');
    await page.keyboard.type('{');
    expect(await page.$eval('#approvals li .invalid', (e: Element) => e.textContent)).toContain('not JSON');
    expect(await page.$eval('#approvals li button.approve-changed', (b: Element) => (b as HTMLButtonElement).disabled)).toBe(true);

    // deny it with a message, by keyboard: Tab to the message, type, Tab to Deny, Space
    await page.focus('#approvals li input.message');
    await page.keyboard.type('keep my notes');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.className)).toBe('deny');
    await page.keyboard.press('Space');
    const secondAnswer = await second;
    expect(secondAnswer.status).toBe(403);
    expect(((await secondAnswer.json()) as { detail: string }).detail).toContain('keep my notes');
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('a person wrote this');
    await page.waitForFunction(() => document.querySelectorAll('#approvals li').length === 0);

    // 3. two calls at once: both listed; approving one as asked leaves the other, untouched
    const third = overwrite('third');
    const fourth = fetch(`${server.url}/api/v1/tools/delete_file/invoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ path: 'nothing.txt' }),
    });
    await page.waitForFunction(() => document.querySelectorAll('#approvals li').length === 2);
    await page.click('#approvals li[data-tool="write_file"] button.approve');
    expect(((await (await third).json()) as { ok: boolean }).ok).toBe(true);
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('third');
    await page.waitForFunction(() => [...document.querySelectorAll('#approvals li')].map((li) => (li as HTMLElement).dataset['tool']).join() === 'delete_file');
    expect(await page.$eval('#approvals-count', (e: Element) => e.textContent)).toBe('1');
    await page.click('#approvals li[data-tool="delete_file"] button.deny');
    expect((await fourth).status).toBe(403);

    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);
});
