/**
 * Service benchmark (issue 9): invoking a cheap built-in (`json_parse` of a short text) through
 * `gramkit serve`'s stack (Hono routing, host and body checks, the catalog's sync, argument
 * validation, policies, `invoke`, usage recorded off the response path) against a bare
 * `node:http` server that parses the same JSON body and answers `{ok: true, value}`. Both run in
 * this process; the same load generator (undici, 32 connections, in a child process) measures each
 * in alternating rounds. Two figures: requests per second (best round of each), and the server's
 * CPU time per request (this process's CPU time over the requests it answered, best round), whose
 * ratio is the capacity ratio on a machine whose other load disturbs wall-clock rates. Target:
 * ≥ 0.5× the bare server. A second baseline, a bare Hono app on `@hono/node-server` doing the same
 * JSON work, shows what the adapter and the router cost before gramkit does anything (the floor of
 * a service built on them). The ratios are the median of the rounds' own ratios (round i of each
 * server ran side by side), beside the best round of each.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createAdaptorServer } from '@hono/node-server';
import { Hono } from 'hono';
import { openCatalog, openFileStore } from '../src/entries/catalog.js';
import { approvalQueue, defaultRuleEngine } from '../src/entries/policy.js';
import { ALL_SCOPES, createService, startServer } from '../src/entries/server.js';
import { listen } from '../src/server/serve.js';
import { median, ratio, report } from './harness.js';

const BODY = JSON.stringify({ text: '{"city": "Paris", "days": [1, 2, 3]}' });
const ROUNDS = 3;
const MS = 2000;
const CONNECTIONS = 16;
/** The bearer token the service requires, as `gramkit serve` does by default. */
const TOKEN = 'bench-token-0123456789abcdef';

/** One round against a server: the client's rate, and this process's CPU time per answered request. */
const load = async (
  url: string,
  path: string,
  headers: Readonly<Record<string, string>> = {},
): Promise<{ readonly perSecond: number; readonly cpuPerRequestUs: number; readonly failed: number }> => {
  const c0 = process.cpuUsage();
  const out = await new Promise<string>((resolve, reject) => {
    const config = JSON.stringify({ url, path, body: BODY, connections: CONNECTIONS, ms: MS, headers });
    execFile(process.execPath, [fileURLToPath(new URL('./load-worker.mjs', import.meta.url)), config], (e, stdout) =>
      e !== null ? reject(e) : resolve(stdout),
    );
  });
  const c = process.cpuUsage(c0);
  const r = JSON.parse(out) as { perSecond: number; done: number; failed: number };
  return { perSecond: r.perSecond, cpuPerRequestUs: (c.user + c.system) / Math.max(1, r.done), failed: r.failed };
};

const bare = (): Promise<Server> =>
  new Promise((resolve) => {
    const s = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const args = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { text: string };
        const value = JSON.parse(args.text) as unknown;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ ok: true, value: { value, pretty: JSON.stringify(value, null, 2) } }));
      });
    });
    s.listen(0, '127.0.0.1', () => resolve(s));
  });

/** The same JSON work as a Hono route on Hono's Node adapter (what gramkit serve is built on), nothing else. */
const honoEcho = (): Promise<Server> => {
  const app = new Hono();
  app.post('/api/v1/tools/:id/invoke', async (c) => {
    const args = (await c.req.json()) as { text: string };
    const value = JSON.parse(args.text) as unknown;
    return c.json({ ok: true, value: { value, pretty: JSON.stringify(value, null, 2) } });
  });
  const s = createAdaptorServer({ fetch: app.fetch }) as Server;
  return new Promise((resolve) => s.listen(0, '127.0.0.1', () => resolve(s)));
};

const urlOf = (s: Server): string => `http://127.0.0.1:${(s.address() as AddressInfo).port}`;

export default async (): Promise<void> => {
  const dir = mkdtempSync(join(tmpdir(), 'gramkit-bench-server-'));
  // as `gramkit serve` builds it: the default rules as policies, approvals queued, a token required
  const approvals = approvalQueue();
  const opened = await openCatalog({
    store: openFileStore(join(dir, 'data'), { durable: false }),
    workspace: dir,
    policies: { rules: defaultRuleEngine },
    approver: approvals.ask,
  });
  if (!opened.ok) throw new Error(opened.error.message);
  const service = createService({ catalog: opened.value, approvals, tokens: [{ name: 'bench', token: TOKEN, scopes: [...ALL_SCOPES] }] });
  const running = await startServer(service, { host: '127.0.0.1', port: 0 });
  // the same service without its direct path (every request through Hono's adapter): what the direct path saves
  const viaHono = await listen(service, { host: '127.0.0.1', port: 0 }, false);
  const echo = await bare();
  const hono = await honoEcho();
  const path = '/api/v1/tools/json_parse/invoke';
  const load0 = loadavg()[0] ?? 0;
  try {
    type Round = Awaited<ReturnType<typeof load>>;
    const rounds: { bare: Round[]; hono: Round[]; service: Round[]; viaHono: Round[] } = { bare: [], hono: [], service: [], viaHono: [] };
    for (let i = 0; i < ROUNDS; i++) {
      rounds.bare.push(await load(urlOf(echo), path));
      rounds.hono.push(await load(urlOf(hono), path));
      rounds.service.push(await load(running.url, path, { authorization: `Bearer ${TOKEN}` }));
      rounds.viaHono.push(await load(viaHono.url, path, { authorization: `Bearer ${TOKEN}` }));
    }
    const best = (rs: ReadonlyArray<Round>): number => Math.max(...rs.map((r) => r.perSecond));
    const cpu = (rs: ReadonlyArray<Round>): number => Math.min(...rs.map((r) => r.cpuPerRequestUs));
    const perRound = (a: ReadonlyArray<Round>, b: ReadonlyArray<Round>, f: (x: Round, y: Round) => number): number =>
      median(a.map((x, i) => f(x, b[i] as Round)));
    const rate = (x: Round, y: Round): number => x.perSecond / y.perSecond;
    const capacity = (x: Round, y: Round): number => y.cpuPerRequestUs / x.cpuPerRequestUs;
    const failures = [...rounds.bare, ...rounds.hono, ...rounds.service, ...rounds.viaHono].reduce((n, r) => n + r.failed, 0);
    const line = (rs: ReadonlyArray<Round>): string => `${Math.round(best(rs)).toLocaleString('en')} requests/s, ${cpu(rs).toFixed(0)} µs of CPU a request`;
    const how = `${CONNECTIONS} connections, ${ROUNDS} interleaved rounds of ${MS / 1000} s; best round, least CPU`;
    report(`service throughput: json_parse through gramkit serve vs a bare node:http JSON echo and a bare Hono echo (${how})`, [
      ['bare node:http', line(rounds.bare)],
      ['bare Hono on @hono/node-server', line(rounds.hono)],
      ['gramkit serve, POST /api/v1/tools/json_parse/invoke', line(rounds.service)],
      ["the same without the direct path (through Hono's adapter)", line(rounds.viaHono)],
      ['service / bare, requests per second (median of rounds)', ratio(perRound(rounds.service, rounds.bare, rate), { min: 0.5 })],
      ['service / bare, capacity (CPU time a request, median of rounds)', ratio(perRound(rounds.service, rounds.bare, capacity), { min: 0.5 })],
      ['Hono echo / bare, requests per second (the adapter and router alone)', ratio(perRound(rounds.hono, rounds.bare, rate))],
      ['Hono echo / bare, capacity', ratio(perRound(rounds.hono, rounds.bare, capacity))],
      ['service / Hono echo, requests per second', ratio(perRound(rounds.service, rounds.hono, rate))],
      ['service / Hono echo, capacity', ratio(perRound(rounds.service, rounds.hono, capacity))],
      ['service / the same through Hono, capacity (what the direct path saves)', ratio(perRound(rounds.service, rounds.viaHono, capacity))],
      ['failed requests', String(failures)],
      ['load average (1 min), before and after', `${load0.toFixed(1)}, ${(loadavg()[0] ?? 0).toFixed(1)}`],
    ]);
  } finally {
    await running.close();
    await viaHono.close();
    approvals.close();
    await new Promise<void>((r) => echo.close(() => r()));
    hono.closeAllConnections();
    await new Promise<void>((r) => hono.close(() => r()));
    await opened.value.close();
    rmSync(dir, { recursive: true, force: true });
  }
};
