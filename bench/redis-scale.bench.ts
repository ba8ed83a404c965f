/**
 * The catalog at scale on Redis (issue 23), with a real `redis-server` started here on 127.0.0.1
 * and `gramkit serve --store redis://…` processes (`dist/`, as users run them), measured in this run:
 * - `gramkit catalog import` of 100,000 tools (target: under 20 s);
 * - `gramkit serve` start-up on those 100,000 tools, until it listens (target: under 5 s), and
 *   the memory the server then holds;
 * - a write through REST (`PUT …/tools/{slug}/version/{v}`, a new tool each) on a catalog of 100
 *   tools and of 100,000 tools, in alternating rounds: the server's CPU time per write (user +
 *   system, read from /proc, so other programs on the machine do not count; target: within 1.3×)
 *   and the median latency;
 * - reads through REST at 100 and at 100,000 tools, in alternating rounds: one tool by its slug
 *   (`GET …/tools/{slug}/version/{v}`) and a listing's second page of 20 (`GET /tools/tools` with
 *   the first page's token); the server's CPU time a request (target: within 1.3×);
 * - writes per second through REST on the 100,000-tool catalog, one server, then two servers on
 *   the same Redis (16 concurrent clients; target: at least 1,000/s), with the servers' CPU time
 *   per write beside it (on a loaded machine the rate is the CPU share the servers get over that
 *   cost) and the client's own (node:http on kept-alive connections: the client shares the
 *   machine's cores with the servers); the load average is printed with the figures.
 *
 * The two catalogs live in two databases of the same Redis (0 and 1).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { encodeTool, newId, openCatalog, openFileStore } from '../src/entries/catalog.js';
import { startRedis } from '../test/support/redis.js';
import { processCpuUs, ratio, report, stopProcess } from './harness.js';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const BUNDLE = '018faf50-b7b6-7a01-9a05-a22a6e0af101';
const toolBody = (i: number) => ({ description: `Parses JSON text number ${i}`, type: 'builtin', impl: { builtin: 'json_parse' } });

const median = (xs: ReadonlyArray<number>): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
};

/** An export (`gramkit catalog export`'s JSON) of one bundle holding `n` tools. */
const exportOf = async (dir: string, n: number): Promise<string> => {
  const opened = await openCatalog({ store: openFileStore(join(dir, `template-${n}`), { durable: false }), workspace: dir });
  if (!opened.ok) throw new Error(opened.error.message);
  await opened.value.putBundle(BUNDLE, { slug: 'bench' });
  const t = await opened.value.putTool(BUNDLE, 'template', '1', toolBody(0));
  if (!t.ok) throw new Error(t.error.message);
  await opened.value.close();
  const template = encodeTool(JSON.parse(JSON.stringify(t.value.value)));
  const now = new Date().toISOString();
  const tools = Array.from({ length: n }, (_, i) => ({
    ...template,
    toolID: newId(),
    slug: `tool-${i}`,
    displayName: `tool-${i}`,
    description: `Parses JSON text number ${i}`,
  }));
  const file = join(dir, `export-${n}.json`);
  const bundle = { schemaVersion: '1', bundleID: BUNDLE, slug: 'bench', displayName: 'bench', description: '', isEnabled: true, isBuiltIn: false };
  const times = { softDeletedAt: null, createdAt: now, modifiedAt: now };
  writeFileSync(file, JSON.stringify({ bundles: [{ ...bundle, ...times }], tools }));
  return file;
};

const run = (args: ReadonlyArray<string>, cwd: string): Promise<number> =>
  new Promise((resolve, reject) => {
    const t0 = performance.now();
    const p = spawn(process.execPath, [CLI, ...args], { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    p.stderr.on('data', (d: Buffer) => (err += d.toString()));
    p.on('exit', (code) => (code === 0 ? resolve(performance.now() - t0) : reject(new Error(`gramkit ${args.join(' ')}: exit ${code}: ${err.slice(0, 500)}`))));
  });

interface Served {
  readonly url: string;
  readonly process: ChildProcess;
  readonly startMs: number;
}

const serve = (store: string, cwd: string): Promise<Served> =>
  new Promise((resolve, reject) => {
    const t0 = performance.now();
    const p = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--store', store, '--no-auth'], { cwd, stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    p.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (\S+)/.exec(out);
      if (m !== null) resolve({ url: m[1] as string, process: p, startMs: performance.now() - t0 });
    });
    p.on('exit', (code) => reject(new Error(`gramkit serve exited (${code})`)));
  });

const stop = (s: Served): Promise<void> => stopProcess(s.process);

/** The process's CPU time (user + system), in ms, from /proc. */
const cpuMs = (s: Served): number => processCpuUs(s.process.pid ?? 0) / 1000;

/**
 * Waits until the server is idle: a search first (it completes the search index a start-up fills
 * in the background), then three seconds in a row in which its CPU time grows less than 10% of a
 * second a second (its /mcp list is built). One quiet second is not enough on a loaded machine,
 * where a busy process may get little more than that share: its start-up work would be counted
 * in the writes measured next.
 */
const settled = async (s: Served): Promise<void> => {
  await (await fetch(`${s.url}/tools/tools/search?q=tool`)).arrayBuffer();
  let quiet = 0;
  for (let i = 0; i < 300 && quiet < 3; i++) {
    const c0 = cpuMs(s);
    await new Promise((r) => setTimeout(r, 1000));
    quiet = cpuMs(s) - c0 < 100 ? quiet + 1 : 0;
  }
};

const rssMb = (s: Served): number => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${s.process.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

/**
 * The load's client: node:http on kept-alive connections. It runs on the same 2 cores as the
 * servers, so its own CPU a request is taken from theirs: `fetch` (undici) spent about 0.7 ms a
 * request here, node:http about 0.2 ms (the bench prints it beside the servers').
 */
const agent = new Agent({ keepAlive: true, maxSockets: 64 });

/** One request through `agent`: its status (the body read and dropped). */
const send = (method: 'GET' | 'PUT', url: string, body?: string): Promise<{ readonly status: number; readonly text: string }> =>
  new Promise((resolve, reject) => {
    const headers = body !== undefined ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } : {};
    const req = request(url, { method, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });

/** `count` new tools PUT by `clients` concurrent clients, spread over the servers; latencies and writes/s. */
const writes = async (
  servers: ReadonlyArray<Served>,
  prefix: string,
  count: number,
  clients: number,
): Promise<{ readonly latencies: ReadonlyArray<number>; readonly perSecond: number }> => {
  const latencies: number[] = [];
  let next = 0;
  const body = JSON.stringify(toolBody(1));
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, k) => {
      const s = servers[k % servers.length] as Served;
      while (next < count) {
        const i = next++;
        const t = performance.now();
        const r = await send('PUT', `${s.url}/tools/bundles/${BUNDLE}/tools/${prefix}-${i}/version/1`, body);
        if (r.status !== 201) throw new Error(`PUT ${prefix}-${i}: ${r.status} ${r.text.slice(0, 200)}`);
        latencies.push(performance.now() - t);
      }
    }),
  );
  return { latencies, perSecond: (count * 1000) / (performance.now() - t0) };
};

/** `count` GETs of `paths` (in turn) by one client: the server's CPU time a request, in ms. */
const reads = async (s: Served, paths: ReadonlyArray<string>, count: number): Promise<number> => {
  const c0 = cpuMs(s);
  for (let i = 0; i < count; i++) {
    const r = await send('GET', `${s.url}${paths[i % paths.length]}`);
    if (r.status !== 200) throw new Error(`GET ${paths[i % paths.length]}: ${r.status} ${r.text.slice(0, 200)}`);
  }
  return (cpuMs(s) - c0) / count;
};

/** A listing's second page of 20 of the bench's bundle (its first page's token), as the path to GET. */
const secondPage = async (s: Served): Promise<string> => {
  const first = await send('GET', `${s.url}/tools/tools?bundleIDs=${BUNDLE}&recommendedPageSize=20`);
  const token = (JSON.parse(first.text) as { nextPageToken?: string }).nextPageToken;
  if (token === undefined) throw new Error('a listing of more than 20 tools has a next page');
  return `/tools/tools?bundleIDs=${BUNDLE}&recommendedPageSize=20&pageToken=${encodeURIComponent(token)}`;
};

export default async (): Promise<void> => {
  const load0 = loadavg()[0]?.toFixed(1);
  const redis = await startRedis();
  const root = mkdtempSync(join(tmpdir(), 'gramkit-bench-redis-'));
  const LARGE = Number(process.env['GRAMKIT_BENCH_TOOLS'] ?? 100_000);
  const large = `${redis.url}/0`;
  const small = `${redis.url}/1`;
  const started: Served[] = [];
  try {
    const importMs = await run(['catalog', 'import', await exportOf(root, LARGE), '--store', large], root);
    await run(['catalog', 'import', await exportOf(root, 100), '--store', small], root);

    const a = await serve(small, root);
    started.push(a);
    const b = await serve(large, root);
    started.push(b);
    // the server listens before its /mcp list is built: let it finish, then warm both up
    await settled(a);
    await settled(b);
    await writes([a], 'warm', 50, 1);
    await writes([b], 'warm', 50, 1);
    const rss = rssMb(b);

    const ROUND = 60;
    const cpuSmall: number[] = [];
    const cpuLarge: number[] = [];
    const latSmall: number[] = [];
    const latLarge: number[] = [];
    for (let round = 0; round < 5; round++) {
      for (const [s, cpu, lat] of [
        [a, cpuSmall, latSmall],
        [b, cpuLarge, latLarge],
      ] as const) {
        const c0 = cpuMs(s);
        const w = await writes([s], `r${round}`, ROUND, 1);
        cpu.push((cpuMs(s) - c0) / ROUND);
        lat.push(...w.latencies);
      }
    }
    const cpuRatio = median(cpuLarge) / median(cpuSmall);

    // reads at 100 and at LARGE tools, in alternating rounds: one tool by its slug, and a listing's second page
    const tools = Array.from({ length: 50 }, (_, i) => `/tools/bundles/${BUNDLE}/tools/tool-${i + 1}/version/1`);
    const pages = new Map([
      [a, await secondPage(a)],
      [b, await secondPage(b)],
    ]);
    const READS = 500;
    const getSmall: number[] = [];
    const getLarge: number[] = [];
    const listSmall: number[] = [];
    const listLarge: number[] = [];
    for (let round = 0; round < 5; round++) {
      getSmall.push(await reads(a, tools, READS));
      getLarge.push(await reads(b, tools, READS));
      listSmall.push(await reads(a, [pages.get(a) as string], READS));
      listLarge.push(await reads(b, [pages.get(b) as string], READS));
    }

    const cpuOf = (ss: ReadonlyArray<Served>): number => ss.reduce((sum, s) => sum + cpuMs(s), 0);
    let c0 = cpuOf([b]);
    let u0 = process.cpuUsage();
    const one = await writes([b], 'one', 1500, 16);
    const oneCpu = (cpuOf([b]) - c0) / 1500;
    let u = process.cpuUsage(u0);
    const oneClient = (u.user + u.system) / 1000 / 1500;
    const c = await serve(large, root);
    started.push(c);
    await settled(c);
    c0 = cpuOf([b, c]);
    u0 = process.cpuUsage();
    const two = await writes([b, c], 'two', 1500, 16);
    // each server also applies the other's writes (it follows the journal)
    const twoCpu = (cpuOf([b, c]) - c0) / 1500;
    u = process.cpuUsage(u0);
    const twoClient = (u.user + u.system) / 1000 / 1500;

    report(`catalog on Redis at scale (gramkit serve --store, ${LARGE.toLocaleString('en')} tools; REST writes of new tools)`, [
      [`gramkit catalog import of ${LARGE.toLocaleString('en')} tools`, `${(importMs / 1000).toFixed(1)} s (target < 20 s)`],
      [
        `gramkit serve start-up at ${LARGE.toLocaleString('en')} tools (until it listens)`,
        `${(b.startMs / 1000).toFixed(1)} s (100 tools: ${(a.startMs / 1000).toFixed(2)} s; target < 5 s)`,
      ],
      [`server memory (RSS) at ${LARGE.toLocaleString('en')} tools`, `${rss.toFixed(0)} MB`],
      ['write p50 latency, 100 tools', `${median(latSmall).toFixed(2)} ms`],
      [`write p50 latency, ${LARGE.toLocaleString('en')} tools`, `${median(latLarge).toFixed(2)} ms`],
      [
        `server CPU per write at ${LARGE.toLocaleString('en')} / at 100 (median round)`,
        `${median(cpuLarge).toFixed(2)} / ${median(cpuSmall).toFixed(2)} ms = ${ratio(cpuRatio, { max: 1.3 })}`,
      ],
      [
        `read one tool (GET), server CPU a request at ${LARGE.toLocaleString('en')} / at 100 (median round)`,
        `${median(getLarge).toFixed(3)} / ${median(getSmall).toFixed(3)} ms = ${ratio(median(getLarge) / median(getSmall), { max: 1.3 })}`,
      ],
      [
        `a listing's second page of 20 (GET /tools/tools), server CPU at ${LARGE.toLocaleString('en')} / at 100 (median round)`,
        `${median(listLarge).toFixed(3)} / ${median(listSmall).toFixed(3)} ms = ${ratio(median(listLarge) / median(listSmall), { max: 1.3 })}`,
      ],
      [
        `writes/s, one server, ${LARGE.toLocaleString('en')} tools, 16 clients`,
        `${one.perSecond.toFixed(0)} /s (server CPU ${oneCpu.toFixed(2)} ms a write; the client's ${oneClient.toFixed(2)} ms)`,
      ],
      [
        `writes/s, two servers on one Redis, ${LARGE.toLocaleString('en')} tools, 16 clients`,
        `${two.perSecond.toFixed(0)} /s (target ≥ 1,000/s; both servers' CPU ${twoCpu.toFixed(2)} ms a write; the client's ${twoClient.toFixed(2)} ms)`,
      ],
      ['load average (1 min) at the start / at the end', `${load0} / ${loadavg()[0]?.toFixed(1)} on ${cpus().length} cores`],
    ]);
  } finally {
    agent.destroy();
    for (const s of started) await stop(s).catch(() => undefined);
    await redis.stop();
    rmSync(root, { recursive: true, force: true });
  }
};
