/// <reference lib="dom" />
/**
 * `gramkit ab --report report.html`, in Chromium (Debian's, driven by puppeteer-core, which never
 * downloads one): the page makes no request but its own file; its plots show the JSON report's
 * numbers (bar heights and labels, interval whiskers, latency marks, tool errors by code); the
 * disagreement rows open the two runs side by side; a screenshot is taken. The same page served by
 * `gramkit serve --experiments DIR` (the results file in DIR), with the token: the same plots, and
 * the admin page lists the experiment and saves its page with the token.
 */
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Catalog, openCatalog, openFileStore } from 'gramkit/catalog';
import { adminPage, ALL_SCOPES, createService, type RunningServer, startServer } from 'gramkit/server';
import { launchChromium, pageErrors } from '../server/browser.js';
import { cli } from '../support/cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'gramkit-ab-html-'));
const PLOT_H = 200;
const TOKEN = 'report-token-0123456789';

interface Summary {
  name: string;
  successRate: number;
  successCI: [number, number];
  meanScore: number;
  scoreCI: [number, number];
  toolErrorsByCode: Record<string, number>;
  latencyMs: { p50: number; p95: number; min: number; max: number };
}

describe('gramkit ab --report, in Chromium', () => {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let browser: any;
  let report: { summaries: Summary[]; differences: Array<{ inputId: string; repetition: number }>; variants: string[]; inputs: number; runsPerInput: number };
  const html = join(tmp, 'report.html');

  beforeAll(async () => {
    const out = join(tmp, 'results.jsonl');
    const args = [
      'ab',
      'examples/capitalsAgent.gram',
      '-l',
      'examples/ab/fast-library.ts',
      '-l',
      'examples/capitals-1950-library.ts',
      '--spec',
      'examples/ab/capitals-terse.gram',
    ];
    const r = await cli([...args, '-i', 'examples/capitals-scored.jsonl', '--runs', '2', '--out', out, '--report', html, '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    report = JSON.parse(r.stdout);
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
  });

  /** The page at `url` requests nothing else, and plots the JSON report's numbers. */
  const checkPage = async (url: string, headers: Readonly<Record<string, string>> = {}): Promise<void> => {
    const page = await browser.newPage();
    const errors = pageErrors(page);
    const requests: string[] = [];
    page.on('request', (req: { url: () => string }) => requests.push(req.url()));
    await page.setExtraHTTPHeaders(headers);
    await page.setViewport({ width: 1200, height: 900 });
    await page.goto(url, { waitUntil: 'load' });
    expect(requests).toEqual([url]);
    expect(errors).toEqual([]);

    for (const id of ['success', 'score'] as const) {
      const bars = await page.$$eval(`#${id} g.mark`, (gs: Element[]) =>
        gs.map((g) => {
          const rect = g.querySelector('rect.bar') as SVGRectElement;
          const ci = g.querySelector('line.ci') as SVGLineElement;
          return {
            name: g.getAttribute('data-variant'),
            height: rect.height.baseVal.value,
            label: g.querySelector('text.label')?.textContent,
            top: ci.y1.baseVal.value,
            bottom: ci.y2.baseVal.value,
            zero: rect.y.baseVal.value + rect.height.baseVal.value,
          };
        }),
      );
      expect(bars.map((b: { name: string }) => b.name)).toEqual(report.variants);
      for (const [i, s] of report.summaries.entries()) {
        const b = bars[i];
        const value = id === 'success' ? s.successRate : s.meanScore;
        const [lo, hi] = id === 'success' ? s.successCI : s.scoreCI;
        expect(b.height / PLOT_H).toBeCloseTo(value, 6);
        expect(b.label).toBe(id === 'success' ? `${Math.round(s.successRate * 1000) / 10}%` : String(Math.round(s.meanScore * 100) / 100));
        expect((b.zero - b.top) / PLOT_H).toBeCloseTo(hi, 6);
        expect((b.zero - b.bottom) / PLOT_H).toBeCloseTo(lo, 6);
      }
    }
    // the terse specification's enum refuses Nigeria: its bar is lower than the baseline's
    const terse = report.summaries.find((s) => s.name === 'capitals-terse/fast-library');
    expect(terse?.successRate).toBeLessThan(report.summaries[0]?.successRate ?? 0);

    const latency = await page.$$eval('#latency g.latency', (gs: Element[]) =>
      gs.map((g) => ({
        name: g.getAttribute('data-variant'),
        p50: Number(g.querySelector('line.p50')?.getAttribute('data-value')),
        p95: Number(g.querySelector('line.p95')?.getAttribute('data-value')),
        dots: g.querySelectorAll('circle.run').length,
      })),
    );
    for (const [i, s] of report.summaries.entries()) expect(latency[i]).toEqual({ name: s.name, p50: s.latencyMs.p50, p95: s.latencyMs.p95, dots: 12 });

    const errorBars = await page.$$eval('#errors g.errbar', (gs: Element[]) =>
      gs.map((g) => ({
        code: g.getAttribute('data-code'),
        variant: g.getAttribute('data-variant'),
        value: Number(g.querySelector('rect')?.getAttribute('data-value')),
        count: g.querySelector('text')?.textContent,
      })),
    );
    const expected = report.summaries.flatMap((s) =>
      Object.keys(s.toolErrorsByCode).map((code) => ({ code, variant: s.name, value: s.toolErrorsByCode[code] })),
    );
    for (const e of expected) expect(errorBars).toContainEqual({ ...e, count: String(e.value) });
    expect(errorBars.some((b: { code: string }) => b.code === 'TOOL_INVALID_ARGUMENTS')).toBe(true);

    // one row per disagreement; opened, the baseline's run and the other's side by side
    const rows = await page.$$eval('#disagreements tr.diff', (trs: Element[]) =>
      trs.map((tr) => `${tr.getAttribute('data-input')}/${tr.getAttribute('data-repetition')}`),
    );
    expect(rows).toEqual(report.differences.map((d) => `${d.inputId}/${d.repetition}`));
    const nigeria = await page.$('#disagreements tr.diff[data-input="nigeria"] summary');
    expect(await page.$eval('#disagreements tr.diff[data-input="nigeria"] .pair', (p: HTMLElement) => p.checkVisibility())).toBe(false);
    await nigeria.click();
    const pairs = await page.$$eval('#disagreements tr.diff[data-input="nigeria"] .pair', (ps: HTMLElement[]) =>
      ps.map((p) => {
        const convs = [...p.querySelectorAll('.conv')] as HTMLElement[];
        const sideBySide = convs.length === 2 && convs[0]?.offsetTop === convs[1]?.offsetTop;
        return { shown: p.checkVisibility(), sideBySide, names: convs.map((c) => c.getAttribute('data-variant')), text: p.textContent };
      }),
    );
    const pair = pairs.find((p: { names: string[] }) => p.names[1] === 'capitals-terse/fast-library');
    expect(pair.shown).toBe(true);
    expect(pair.sideBySide).toBe(true);
    expect(pair.names[0]).toBe(report.variants[0]);
    expect(pair.text).toContain('capital_of({"country":"Nigeria"})');
    expect(pair.text).toContain('error TOOL_INVALID_ARGUMENTS');

    const shot = process.env['REPORT_SCREENSHOT'] ?? join(tmp, 'report.png');
    await page.screenshot({ path: shot, fullPage: true });
    expect(statSync(shot).size).toBeGreaterThan(10_000);
    expect(requests).toEqual([url]);
    await page.close();
  };

  it('requests nothing but its own file, and plots the JSON report’s numbers', async () => {
    await checkPage(pathToFileURL(html).href);
  }, 60_000);

  it('gramkit serve --experiments serves the same page, with the token; the admin page lists it and saves it with the token', async () => {
    const opened = await openCatalog({ store: openFileStore(join(tmp, 'catalog')), workspace: tmp, allowHosts: [] });
    if (!opened.ok) throw new Error(opened.error.message);
    const catalog: Catalog = opened.value;
    let server: RunningServer | undefined;
    try {
      const service = createService({ catalog, experiments: tmp, mounts: [adminPage()], tokens: [{ name: 'full', token: TOKEN, scopes: ALL_SCOPES }] });
      server = await startServer(service, { host: '127.0.0.1', port: 0 });
      const url = `${server.url}/api/v1/experiments/results/report.html`;
      await checkPage(url, { authorization: `Bearer ${TOKEN}` });
      // the admin page: the experiment listed, its page saved with the token (a link cannot send it)
      const page = await browser.newPage();
      const errors = pageErrors(page);
      const downloads = join(tmp, 'downloads');
      const cdp = await page.createCDPSession();
      await cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: downloads });
      await page.evaluateOnNewDocument((token: string) => sessionStorage.setItem('gramkit-token', token), TOKEN);
      await page.goto(`${server.url}/ui`, { waitUntil: 'load' });
      await page.waitForSelector('#experiments tr[data-experiment="results"]');
      const row = await page.$eval('#experiments tr[data-experiment="results"]', (tr: HTMLElement) => ({
        cells: [...tr.querySelectorAll('td')].map((td) => td.textContent),
        links: [...tr.querySelectorAll('a')].map((a) => a.getAttribute('href')),
      }));
      const total = report.inputs * report.runsPerInput * report.variants.length;
      expect(row.cells.slice(0, 4)).toEqual(['results', 'capitals_agent', report.variants.join(', '), `${total} / ${total}`]);
      expect(row.links).toEqual(['/api/v1/experiments/results/report.html', '/api/v1/experiments/results']);
      await page.click('#experiments tr[data-experiment="results"] a');
      const saved = join(downloads, 'results-report.html');
      for (let i = 0; i < 200 && !readdirSync(tmp).includes('downloads'); i++) await new Promise((r) => setTimeout(r, 25));
      for (let i = 0; i < 200 && !readdirSync(downloads).includes('results-report.html'); i++) await new Promise((r) => setTimeout(r, 25));
      const served = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(readFileSync(saved, 'utf8')).toBe(await served.text());
      // more experiments than the list's first page (50): the page shows every one
      for (let i = 0; i < 60; i++) copyFileSync(join(tmp, 'results.jsonl'), join(tmp, `copy-${i}.jsonl`));
      await page.reload({ waitUntil: 'load' });
      await page.waitForSelector('#experiments tr[data-experiment="copy-59"]');
      expect(await page.$$eval('#experiments tr[data-experiment]', (rows: ReadonlyArray<Element>) => rows.length)).toBe(61);
      expect(errors).toEqual([]);
      await page.close();
    } finally {
      await server?.close();
      await catalog.close();
    }
  }, 60_000);

  it('the file names no other host, and forbids every fetch in its policy', () => {
    const text = readFileSync(html, 'utf8');
    expect(text).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`);
    expect(text).not.toMatch(/<script|<link|<img|<iframe|url\(/i);
    expect(text.match(/https?:\/\//g) ?? []).toEqual([]);
  });
});
