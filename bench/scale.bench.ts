/**
 * The catalog at scale (issue 23), as ratios measured in this run:
 * - a write (`putTool`, one new tool, through the catalog with the `/mcp` tool list kept, as
 *   `gramkit serve` runs it: a write marks its slug, the list binds it when read) in a catalog of 100 tools and of 100,000 tools, on flat
 *   files (durable: every write flushed), in alternating rounds; target: within 1.3×. Wall time
 *   (the median write) waits on a disk other programs share; CPU time (the process's, per write,
 *   median round) is the work the write does;
 * - the file store's single write against the disk's own floor for the same record (temporary file,
 *   fsync, rename, fsync of the directory); target ≥ 0.25×;
 * - 8 concurrent writers (in this process) against one, in alternating rounds; target ≥ 1×;
 * - start-up (`openCatalog` and the `/mcp` list ready) at 100,000 tools, from the snapshot and the
 *   journal's tail (target < 5 s), and the memory it holds; CPU time beside wall time, since the
 *   machine is shared; then the first search (which fills the search index the load left to fill;
 *   `gramkit serve` fills it in the background once it listens: `Catalog.indexInBackground`);
 * - `gramkit serve --data` at 100,000 tools through the built CLI, until it prints that it listens
 *   (target < 5 s), with its CPU time (from /proc) and RSS then;
 * - reads at 100 and at 100,000 tools, in alternating rounds: one tool by its slug (`getTool`) and
 *   a listing's second page of 20 (`listTools` with the first page's token); CPU time a call
 *   (target: within 1.3×);
 * - search through the catalog at 100,000 tools (`searchTools`, a first page of 20), p95 (target
 *   < 10 ms);
 * - `gramkit catalog import` of the 100,000 tools' export into an empty directory, the CLI as a
 *   user runs it, durable (target < 1 minute); its CPU time from `/usr/bin/time` where there is one.
 *
 * The load average (1 minute) is printed at the start and at the end of the run.
 *
 * The 100,000 records are generated through the store's bulk path (one transaction per 10,000
 * records), not flushed (the generator is set-up, not measured).
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { open, rename } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeTool, newId, openCatalog, openFileStore, type Catalog, type RecordWrite, type ToolQuery } from '../src/entries/catalog.js';
import { decodeStoredTool } from '../src/catalog/records/tool-json.js';
import { syncDirectory } from '../src/catalog/stores/atomic-write.js';
import { catalogToolSource, type CatalogToolSource } from '../src/server/mcp-source.js';
import { collectGarbage, ratio, report } from './harness.js';

const BUNDLE = '018faf50-b7b6-7a01-9a05-a22a6e0af101';
const WRITES = 150;

/** Descriptions from a vocabulary of 64 words (each tool has 4, so a word is in about one tool in 16: search has realistic match sets). */
const VOCABULARY = [
  'weather',
  'forecast',
  'currency',
  'exchange',
  'invoice',
  'payment',
  'customer',
  'order',
  'shipping',
  'tracking',
  'calendar',
  'meeting',
  'email',
  'message',
  'translate',
  'language',
  'document',
  'summary',
  'search',
  'index',
  'database',
  'query',
  'report',
  'chart',
  'image',
  'resize',
  'convert',
  'upload',
  'download',
  'archive',
  'compress',
  'encrypt',
  'decrypt',
  'signature',
  'token',
  'session',
  'account',
  'profile',
  'address',
  'location',
  'distance',
  'route',
  'traffic',
  'flight',
  'hotel',
  'booking',
  'review',
  'rating',
  'product',
  'catalog',
  'inventory',
  'stock',
  'price',
  'discount',
  'coupon',
  'ticket',
  'support',
  'incident',
  'alert',
  'monitor',
  'metric',
  'log',
  'audit',
  'backup',
];
const describe = (i: number): string => [7, 13, 31, 61].map((k) => VOCABULARY[(i * k + (i >> 6)) % VOCABULARY.length]).join(' ') + ` number ${i}`;
const toolBody = (i: number) => ({ description: describe(i), type: 'builtin', impl: { builtin: 'json_parse' } });

const percentile = (xs: ReadonlyArray<number>, p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] as number;
};

/** A catalog directory holding `n` tools, made through the store's bulk path. */
const generate = async (dir: string, n: number): Promise<number> => {
  const t0 = performance.now();
  const opened = await openCatalog({ store: openFileStore(dir, { durable: false }), workspace: dir });
  if (!opened.ok) throw new Error(opened.error.message);
  const c = opened.value;
  await c.putBundle(BUNDLE, { slug: 'bench' });
  const first = await c.putTool(BUNDLE, 'template', '1', toolBody(0));
  if (!first.ok) throw new Error(first.error.message);
  const template = first.value.value;
  await c.close();
  const backend = openFileStore(dir, { durable: false });
  const decoded = decodeStoredTool(JSON.parse(JSON.stringify(template)));
  if (decoded._tag === 'Left') throw new Error('template');
  for (let from = 1; from < n; from += 10_000) {
    const writes: RecordWrite[] = [];
    for (let i = from; i < Math.min(n, from + 10_000); i++) {
      writes.push({
        kind: 'tool' as const,
        id: newId(),
        record: encodeTool({ ...decoded.right, toolID: newId(), slug: `tool-${i}`, description: describe(i) }),
      });
    }
    await backend.transact(async () => ({ writes, result: undefined, basedOn: '' }));
  }
  await backend.close();
  return performance.now() - t0;
};

const opened = async (dir: string): Promise<{ readonly catalog: Catalog; readonly source: CatalogToolSource; readonly ms: number; readonly cpuMs: number }> => {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const o = await openCatalog({ store: openFileStore(dir), workspace: dir });
  if (!o.ok) throw new Error(o.error.message);
  const source = catalogToolSource(o.value);
  await source.ready();
  const c = process.cpuUsage(c0);
  return { catalog: o.value, source, ms: performance.now() - t0, cpuMs: (c.user + c.system) / 1000 };
};

/** Searches through the catalog (first pages of 20): the p50 and p95 of each query's time. */
const searchLoad = async (catalog: Catalog): Promise<{ readonly p50: number; readonly p95: number; readonly cpuP50: number; readonly cpuP95: number }> => {
  // prefixes, whole words, two words, typos (fuzzy), a word that matches nothing
  const queries = [
    'wea',
    'tool-99',
    'invoice',
    'currency exchange',
    'wether',
    'invocie',
    'shipping tracking',
    'hotel',
    'boking',
    'nothing-matches',
    'aud',
    'monitor metric',
  ];
  const times: number[] = [];
  const cpu: number[] = [];
  for (let round = 0; round < 10; round++) {
    for (const q of queries) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const r = await catalog.searchTools({ q, pageSize: 20 });
      if (!r.ok) throw new Error(r.error.message);
      times.push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      cpu.push((c.user + c.system) / 1000);
    }
  }
  return { p50: percentile(times, 50), p95: percentile(times, 95), cpuP50: percentile(cpu, 50), cpuP95: percentile(cpu, 95) };
};

const CLI = join(import.meta.dirname, '..', 'dist', 'cli.js');

/** `gramkit catalog export` of `from`, then `gramkit catalog import` of it into an empty directory: the import's time (and its CPU time, through `/usr/bin/time`, where there is one). */
const importLoad = (root: string, from: string): { readonly ms: number; readonly cpuMs: number | undefined; readonly tools: number } => {
  const file = join(root, 'export.json');
  execFileSync(process.execPath, [CLI, 'catalog', 'export', '--data', from, '-o', file], { stdio: 'ignore' });
  const into = join(root, 'imported');
  const command = [process.execPath, CLI, 'catalog', 'import', file, '--data', into];
  const timed = existsSync('/usr/bin/time');
  const t0 = performance.now();
  const r = spawnSync(timed ? '/usr/bin/time' : process.execPath, timed ? ['-f', 'cpu %U %S', ...command] : command.slice(1), {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`gramkit catalog import failed: ${r.stderr}`);
  const tools = Number(/(\d[\d,]*) tools?/.exec(r.stdout)?.[1]?.replace(/,/g, '') ?? Number.NaN);
  const cpu = /cpu ([\d.]+) ([\d.]+)/.exec(r.stderr);
  return { ms, cpuMs: cpu === null ? undefined : (Number(cpu[1]) + Number(cpu[2])) * 1000, tools };
};

/**
 * `gramkit serve --data <dir>` (the built CLI, as a user runs it) until it prints that it listens:
 * the wall time, the process's CPU time then (from /proc) and its RSS. The server is stopped after.
 */
const serveStartup = (dir: string): Promise<{ readonly ms: number; readonly cpuMs: number; readonly rssMb: number }> =>
  new Promise((resolve, reject) => {
    const t0 = performance.now();
    const p = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--data', dir, '--no-auth'], { cwd: dir, stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    p.on('exit', (code) => reject(new Error(`gramkit serve exited (${code}) before it listened`)));
    p.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (!out.includes('listening on')) return;
      const ms = performance.now() - t0;
      const fields = readFileSync(`/proc/${p.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      const cpuMs = ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
      const rssMb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
      p.removeAllListeners('exit');
      p.once('exit', () => resolve({ ms, cpuMs, rssMb }));
      p.kill('SIGTERM');
    });
  });

/** The CPU time (ms) of `count` calls of `op` (each awaited in turn), a call. */
const cpuPerCall = async (count: number, op: (i: number) => Promise<unknown>): Promise<number> => {
  const c0 = process.cpuUsage();
  for (let i = 0; i < count; i++) await op(i);
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000 / count;
};

/** A listing's second page of 20 tools of the bench's bundle: its query. */
const secondPage = async (catalog: Catalog): Promise<ToolQuery> => {
  const first = await catalog.listTools({ bundleIDs: [BUNDLE], pageSize: 20 });
  if (!first.ok || first.value.nextPageToken === undefined) throw new Error('a listing of more than 20 tools has a next page');
  return { bundleIDs: [BUNDLE], pageSize: 20, pageToken: first.value.nextPageToken };
};

/** `count` writes by `writers` concurrent writers; each write's latency, and the writes per second. */
const writeLoad = async (
  catalog: Catalog,
  source: CatalogToolSource,
  prefix: string,
  count: number,
  writers: number,
): Promise<{ readonly latencies: ReadonlyArray<number>; readonly perSecond: number; readonly cpuMs: number }> => {
  const latencies: number[] = [];
  let next = 0;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: writers }, async () => {
      while (next < count) {
        const i = next++;
        const s = performance.now();
        const r = await catalog.putTool(BUNDLE, `${prefix}-${i}`, '1', toolBody(i));
        if (!r.ok) throw new Error(r.error.message);
        latencies.push(performance.now() - s);
      }
    }),
  );
  await source.ready();
  const c = process.cpuUsage(c0);
  return { latencies, perSecond: (count * 1000) / (performance.now() - t0), cpuMs: (c.user + c.system) / 1000 / count };
};

/** The disk's floor for one record: temporary file, fsync, rename, fsync of the directory. */
const diskFloor = async (dir: string, data: string, count: number, round: number): Promise<number> => {
  const t0 = performance.now();
  for (let i = 0; i < count; i++) {
    const tmp = join(dir, 'tmp', `floor-${round}-${i}.tmp`);
    const h = await open(tmp, 'wx');
    await h.writeFile(data);
    await h.sync();
    await h.close();
    await rename(tmp, join(dir, 'tools', '00', `floor-${round}-${i}.json`));
    await syncDirectory(join(dir, 'tools', '00'));
  }
  return (count * 1000) / (performance.now() - t0);
};

export default async (): Promise<void> => {
  const root = mkdtempSync(join(tmpdir(), 'gramkit-bench-scale-'));
  const loadAtStart = loadavg()[0] ?? Number.NaN;
  try {
    const small = join(root, 'small');
    const large = join(root, 'large');
    await generate(small, 100);
    const LARGE = Number(process.env['GRAMKIT_BENCH_TOOLS'] ?? 100_000);
    const genMs = await generate(large, LARGE);

    const a = await opened(small);
    collectGarbage();
    const heap0 = process.memoryUsage().heapUsed;
    const b = await opened(large);
    // the first search after start-up: it completes the search index the load fills in the background
    const s0 = performance.now();
    const c0 = process.cpuUsage();
    await b.catalog.searchTools({ q: 'weather', pageSize: 20 });
    const sc0 = process.cpuUsage(c0);
    const firstSearch = { ms: performance.now() - s0, cpuMs: (sc0.user + sc0.system) / 1000 };
    collectGarbage();
    const heap = process.memoryUsage().heapUsed - heap0;
    const rss = process.memoryUsage().rss;
    // warm both, then alternate rounds
    await writeLoad(a.catalog, a.source, 'warm', 20, 1);
    await writeLoad(b.catalog, b.source, 'warm', 20, 1);
    const sw: number[] = [];
    const lw: number[] = [];
    const sc: number[] = [];
    const lc: number[] = [];
    for (let round = 0; round < 5; round++) {
      const x = await writeLoad(a.catalog, a.source, `r${round}`, WRITES / 5, 1);
      const y = await writeLoad(b.catalog, b.source, `r${round}`, WRITES / 5, 1);
      sw.push(...x.latencies);
      lw.push(...y.latencies);
      sc.push(x.cpuMs);
      lc.push(y.cpuMs);
    }
    const cpuRatio = percentile(lc, 50) / percentile(sc, 50);
    // one writer and 8 writers in alternating rounds (the shared disk's speed drifts): the median of the rounds' ratios
    const ones: number[] = [];
    const eights: number[] = [];
    for (let round = 0; round < 5; round++) {
      ones.push((await writeLoad(b.catalog, b.source, `one${round}`, WRITES / 5, 1)).perSecond);
      eights.push((await writeLoad(b.catalog, b.source, `eight${round}`, WRITES / 5, 8)).perSecond);
    }
    const one = { perSecond: percentile(ones, 50) };
    const eight = { perSecond: percentile(eights, 50) };
    const eightRatio = percentile(
      eights.map((x, i) => x / (ones[i] as number)),
      50,
    );
    // the floor and one writer in alternating rounds (the disk is shared: its speed drifts)
    const sample = `${JSON.stringify({ ...toolBody(1), slug: 'x', toolID: newId() }, null, 2)}\n`;
    const floors: number[] = [];
    const singles: number[] = [];
    for (let round = 0; round < 5; round++) {
      floors.push(await diskFloor(small, sample, WRITES / 5, round));
      singles.push((await writeLoad(a.catalog, a.source, `single${round}`, WRITES / 5, 1)).perSecond);
    }
    const floor = percentile(floors, 50);
    const single = { perSecond: percentile(singles, 50) };
    const floorRatio = percentile(
      singles.map((x, i) => x / (floors[i] as number)),
      50,
    );
    const found = await searchLoad(b.catalog);
    // reads at 100 and at LARGE tools, in alternating rounds: one tool by its slug, and a listing's second page
    const READS = 2000;
    const get = (c: Catalog) => (i: number) => c.getTool({ bundleID: BUNDLE, slug: `tool-${(i % 50) + 1}`, version: '1' });
    const pages = [await secondPage(a.catalog), await secondPage(b.catalog)] as const;
    const getSmall: number[] = [];
    const getLarge: number[] = [];
    const listSmall: number[] = [];
    const listLarge: number[] = [];
    for (let round = 0; round < 5; round++) {
      getSmall.push(await cpuPerCall(READS, get(a.catalog)));
      getLarge.push(await cpuPerCall(READS, get(b.catalog)));
      listSmall.push(await cpuPerCall(READS / 4, () => a.catalog.listTools(pages[0])));
      listLarge.push(await cpuPerCall(READS / 4, () => b.catalog.listTools(pages[1])));
    }
    await a.catalog.close();
    await b.catalog.close();
    a.source.close();
    b.source.close();
    // gramkit serve on the same directories, through the CLI, until it listens
    const served = await serveStartup(large);
    const servedSmall = await serveStartup(small);
    const imported = importLoad(root, large);
    const p50s = percentile(sw, 50);
    const p50l = percentile(lw, 50);
    report(`catalog writes at scale, flat files, durable (${WRITES} writes a figure, /mcp list kept)`, [
      [`write p50, 100 tools`, `${p50s.toFixed(2)} ms (p95 ${percentile(sw, 95).toFixed(2)} ms)`],
      [`write p50, ${LARGE.toLocaleString('en')} tools`, `${p50l.toFixed(2)} ms (p95 ${percentile(lw, 95).toFixed(2)} ms)`],
      [`write at ${LARGE.toLocaleString('en')} / at 100, wall time`, ratio(p50l / p50s, { max: 1.3 })],
      [
        `write at ${LARGE.toLocaleString('en')} / at 100, CPU time`,
        `${percentile(lc, 50).toFixed(2)} / ${percentile(sc, 50).toFixed(2)} ms = ${ratio(cpuRatio, { max: 1.3 })}`,
      ],
      ['disk floor (tmp + fsync + rename + dir fsync), median round', `${floor.toFixed(0)} /s`],
      ['one writer, 100 tools, median round', `${single.perSecond.toFixed(0)} writes/s`],
      ["one writer / disk floor, median of the rounds' ratios", ratio(floorRatio, { min: 0.25 })],
      [
        `8 writers / 1 writer (${LARGE.toLocaleString('en')} tools), median of alternating rounds' ratios`,
        `${eight.perSecond.toFixed(0)} / ${one.perSecond.toFixed(0)} writes/s (medians) ; ${ratio(eightRatio, { min: 1 })}`,
      ],
      [`generating ${LARGE.toLocaleString('en')} records (bulk path)`, `${(genMs / 1000).toFixed(1)} s`],
      [
        `start-up at ${LARGE.toLocaleString('en')} tools (snapshot + journal tail, /mcp list)`,
        `${(b.ms / 1000).toFixed(1)} s wall, ${(b.cpuMs / 1000).toFixed(1)} s CPU (100 tools: ${(a.ms / 1000).toFixed(2)} s); ${b.ms < 5000 ? 'met' : 'NOT MET'} (target < 5 s)`,
      ],
      [
        `gramkit serve --data at ${LARGE.toLocaleString('en')} tools, the CLI until it listens`,
        `${(served.ms / 1000).toFixed(1)} s wall, ${(served.cpuMs / 1000).toFixed(1)} s CPU, RSS ${served.rssMb.toFixed(0)} MB ` +
          `(100 tools: ${(servedSmall.ms / 1000).toFixed(2)} s wall, ${(servedSmall.cpuMs / 1000).toFixed(2)} s CPU); ${served.ms < 5000 ? 'met' : 'NOT MET'} (target < 5 s)`,
      ],
      [
        `read one tool (getTool), CPU a call at ${LARGE.toLocaleString('en')} / at 100 (median round)`,
        `${percentile(getLarge, 50).toFixed(3)} / ${percentile(getSmall, 50).toFixed(3)} ms = ${ratio(percentile(getLarge, 50) / percentile(getSmall, 50), { max: 1.3 })}`,
      ],
      [
        `a listing's second page of 20 (listTools), CPU a call at ${LARGE.toLocaleString('en')} / at 100 (median round)`,
        `${percentile(listLarge, 50).toFixed(3)} / ${percentile(listSmall, 50).toFixed(3)} ms = ${ratio(percentile(listLarge, 50) / percentile(listSmall, 50), { max: 1.3 })}`,
      ],
      [
        `first search after start-up (fills the search index the load left; serve fills it in the background once it listens)`,
        `${firstSearch.ms.toFixed(0)} ms wall, ${firstSearch.cpuMs.toFixed(0)} ms CPU`,
      ],
      [
        `heap held at ${LARGE.toLocaleString('en')} tools (after a full collection; the process's RSS)`,
        `${(heap / 1024 / 1024).toFixed(0)} MB (RSS ${(rss / 1024 / 1024).toFixed(0)} MB)`,
      ],
      [
        `search at ${LARGE.toLocaleString('en')} tools, first page of 20`,
        `wall p50 ${found.p50.toFixed(2)} ms, p95 ${found.p95.toFixed(2)} ms (${found.p95 < 10 ? 'met' : 'NOT MET'}: target p95 < 10 ms); ` +
          `CPU p50 ${found.cpuP50.toFixed(2)} ms, p95 ${found.cpuP95.toFixed(2)} ms`,
      ],
      [
        `gramkit catalog import of ${LARGE.toLocaleString('en')} tools (CLI, durable)`,
        `${(imported.ms / 1000).toFixed(1)} s wall${imported.cpuMs !== undefined ? `, ${(imported.cpuMs / 1000).toFixed(1)} s CPU` : ''} (${imported.tools} tools); ` +
          `${imported.ms < 60_000 ? 'met' : 'NOT MET'} (target < 1 min)`,
      ],
      [
        'load average (1 min), at the start and at the end of the run',
        `${loadAtStart.toFixed(1)}, ${(loadavg()[0] ?? Number.NaN).toFixed(1)} (${availableParallelism()} cores)`,
      ],
    ]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
};
