/**
 * Catalog benchmarks (issue 9), as ratios against baselines run in the same process:
 * - search over 100,000 tools (the catalog's index: tiers prefix > whole word > fuzzy > recency),
 *   first pages of 20 for a mix of queries (name prefixes of 1–5 letters, whole words, two words,
 *   typos, words that match nothing), p50 and p95 per query, target p95 < 10 ms; against a linear
 *   scan of the same text for the query (what a catalog without an index costs);
 * - building that index one tool at a time;
 * - a page of the global list and a search through the whole catalog (`openCatalog` on a file
 *   store, views with usage), the cost of the layers above the index.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { normalizeText, SearchIndex, type SearchEntry } from '../src/catalog/search-index.js';
import { openCatalog, openFileStore } from '../src/entries/catalog.js';
import { report, ratio, timeOnce } from './harness.js';

const N = 100_000;

// a corpus with a realistic shape: words drawn from a Zipf-like distribution over 20,000 made-up
// words (a few very common, most rare), descriptions of 8–20 words, slugs of 2 words
let seed = 7;
const random = (): number => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};
const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ne',
  'ro',
  'ta',
  'shi',
  'vu',
  'pe',
  'da',
  'qui',
  'zor',
  'fen',
  'bal',
  'tri',
  'gon',
  'wex',
  'ult',
  'ari',
  'moz',
  'sel',
  'bru',
  'cat',
  'hep',
];
const word = (): string => Array.from({ length: 2 + Math.floor(random() * 3) }, () => SYLLABLES[Math.floor(random() * SYLLABLES.length)]).join('');
const VOCABULARY = [...new Set(Array.from({ length: 24_000 }, word))].slice(0, 20_000);
const zipf = (): string => VOCABULARY[Math.min(VOCABULARY.length - 1, Math.floor(VOCABULARY.length * random() ** 3))] as string;
const uniform = (): string => VOCABULARY[Math.floor(random() * VOCABULARY.length)] as string;

const corpus = (n: number): ReadonlyArray<SearchEntry> =>
  Array.from({ length: n }, (_, i) => ({
    id: `tool-${String(i).padStart(6, '0')}`,
    slug: `${uniform()}-${uniform()}`,
    displayName: `${uniform()} ${zipf()}`,
    description: Array.from({ length: 8 + Math.floor(random() * 13) }, zipf).join(' '),
    tags: [zipf(), zipf()],
    modifiedAt: 1_700_000_000_000 + i * 1000,
  }));

const typo = (w: string): string => {
  const at = 1 + Math.floor(random() * (w.length - 1));
  return `${w.slice(0, at)}${w[at] === 'a' ? 'e' : 'a'}${w.slice(at + 1)}`;
};

const percentile = (xs: ReadonlyArray<number>, p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] as number;
};

const fmt = (ms: number): string => `${ms.toFixed(2)} ms`;

const searchBench = async (): Promise<void> => {
  const docs = corpus(N);
  const index = new SearchIndex();
  const buildCpu0 = process.cpuUsage();
  const buildMs = await timeOnce(() => {
    for (const d of docs) index.put(d);
  });
  const buildCpu = process.cpuUsage(buildCpu0);
  // the first query sorts the recency order once (built lazily)
  index.search('', { limit: 20 });

  const queries: Array<readonly [string, string]> = [];
  for (let i = 0; i < 60; i++) {
    const d = docs[Math.floor(random() * N)] as SearchEntry;
    queries.push(['prefix', d.slug.slice(0, 1 + (i % 5))]);
    queries.push(['word', zipf()]);
    queries.push(['two words', `${zipf()} ${zipf()}`]);
    queries.push(['typo', typo(uniform())]);
    queries.push(['nothing', `${uniform()}zzq`]);
  }
  // wall time, and the process's CPU time (on a shared machine, wall time also counts the time the
  // process waits for a core; CPU time is the work the query does)
  const times = new Map<string, number[]>();
  const all: number[] = [];
  const cpu: number[] = [];
  for (let round = 0; round < 2; round++) {
    for (const [kind, q] of queries) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      index.search(q, { limit: 20 });
      const ms = performance.now() - t0;
      const c = process.cpuUsage(c0);
      if (round === 0) continue; // warm-up
      times.set(kind, [...(times.get(kind) ?? []), ms]);
      all.push(ms);
      cpu.push((c.user + c.system) / 1000);
    }
  }

  // the baseline: a linear scan of each tool's normalized text for the query
  const texts = docs.map((d) => normalizeText(`${d.slug} ${d.displayName} ${d.description} ${d.tags.join(' ')}`));
  const scan: number[] = [];
  for (const [, q] of queries.slice(0, 100)) {
    const n = normalizeText(q);
    const t0 = performance.now();
    const hits: number[] = [];
    for (let i = 0; i < texts.length; i++) if ((texts[i] as string).includes(n)) hits.push(i);
    hits.sort((a, b) => (docs[b] as SearchEntry).modifiedAt - (docs[a] as SearchEntry).modifiedAt);
    scan.push(performance.now() - t0);
  }

  const p95 = percentile(all, 95);
  report(`search, ${N.toLocaleString('en')} tools, first page of 20 (${all.length} queries)`, [
    ...[...times].map(([kind, ts]) => [kind, `p50 ${fmt(percentile(ts, 50))}, p95 ${fmt(percentile(ts, 95))}`] as const),
    ['all queries, wall time', `p50 ${fmt(percentile(all, 50))}, p95 ${fmt(p95)} (target p95 < 10 ms: ${p95 < 10 ? 'met' : 'NOT MET'})`],
    ['all queries, CPU time', `p50 ${fmt(percentile(cpu, 50))}, p95 ${fmt(percentile(cpu, 95))}`],
    ['load average (1 min) during the run', loadavg()[0]?.toFixed(1) ?? '?'],
    ['linear scan (baseline)', `p50 ${fmt(percentile(scan, 50))}, p95 ${fmt(percentile(scan, 95))}`],
    ['index p95 / scan p95', ratio(p95 / percentile(scan, 95))],
    [
      'index built one tool at a time',
      `${(buildMs / 1000).toFixed(2)} s wall, ${((buildCpu.user + buildCpu.system) / 1e6).toFixed(2)} s CPU (${((buildMs * 1e6) / N / 1000).toFixed(1)} µs a tool)`,
    ],
  ]);
};

const catalogBench = async (): Promise<void> => {
  const dir = mkdtempSync(join(tmpdir(), 'gramkit-bench-catalog-'));
  try {
    const opened = await openCatalog({ store: openFileStore(join(dir, 'data'), { durable: false }), workspace: dir });
    if (!opened.ok) throw new Error(opened.error.message);
    const catalog = opened.value;
    const bundleID = '018faf50-b7b6-7a01-9a05-a22a6e0af101';
    await catalog.putBundle(bundleID, { slug: 'bench' });
    const M = 300;
    const writeMs = await timeOnce(async () => {
      for (let i = 0; i < M; i++) {
        await catalog.putTool(bundleID, `${uniform()}-${i}`, '1', {
          description: `${zipf()} ${zipf()} ${zipf()}`,
          type: 'builtin',
          impl: { builtin: 'json_parse' },
        });
      }
    });
    const list: number[] = [];
    const found: number[] = [];
    for (let i = 0; i < 200; i++) {
      let t0 = performance.now();
      await catalog.listTools({ pageSize: 50 });
      list.push(performance.now() - t0);
      t0 = performance.now();
      await catalog.searchTools({ q: zipf().slice(0, 3), pageSize: 20 });
      found.push(performance.now() - t0);
    }
    report(`catalog on a file store (${M} tools written without fsync)`, [
      ['PUT of a tool (lock, write, journal)', `${(writeMs / M).toFixed(2)} ms each`],
      ['GET /tools/tools page of 50', `p50 ${fmt(percentile(list, 50))}, p95 ${fmt(percentile(list, 95))}`],
      ['search page of 20', `p50 ${fmt(percentile(found, 50))}, p95 ${fmt(percentile(found, 95))}`],
    ]);
    await catalog.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

export default async (): Promise<void> => {
  await searchBench();
  await catalogBench();
};
