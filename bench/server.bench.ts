/**
 * Service benchmark (issue 9): invoking a cheap built-in (`json_parse` of a short text) through
 * `gramkit serve`'s stack (Hono routing, host and body checks, the catalog's sync, argument
 * validation, policies, `invoke`, usage recorded off the response path) against a bare
 * `node:http` server that parses the same JSON body and answers `{ok: true, value}`. Both run in
 * this process; the same load generator (undici, 32 connections, in a child process) measures each
 * in alternating rounds. Two figures: requests per second (best round of each), and the server's
 * CPU time per request (this process's CPU time over the requests it answered, best round), whose
 * ratio is the capacity ratio on a machine whose other load disturbs wall-clock rates. Target:
 * ≥ 0.5× the bare server.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { openCatalog, openFileStore } from '../src/entries/catalog.js';
import { approvalQueue, defaultRuleEngine } from '../src/entries/policy.js';
import { ALL_SCOPES, createService, startServer } from '../src/entries/server.js';
import { ratio, report } from './harness.js';

const BODY = JSON.stringify({ text: '{"city": "Paris", "days": [1, 2, 3]}' });
const ROUNDS = 3;
const MS = 2000;
const CONNECTIONS = 16;
/** The bearer token the service requires, as `gramkit serve` does by default. */
const TOKEN = 'bench-token-0123456789abcdef';

/** One round against a server: the client's rate, and this process's CPU time per answered request. */
const load = async (url: string, path: string, headers: Readonly<Record<string, string>> = {}): Promise<{ readonly perSecond: number; readonly cpuPerRequestUs: number; readonly failed: number }> => {
  const c0 = process.cpuUsage();
  const out = await new Promise<string>((resolve, reject) => {
    const config = JSON.stringify({ url, path, body: BODY, connections: CONNECTIONS, ms: MS, headers });
    execFile(process.execPath, [fileURLToPath(new URL('./load-worker.mjs', import.meta.url)), config], (e, stdout) => (e !== null ? reject(e) : resolve(stdout)));
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

export default async (): Promise<void> => {
  const dir = mkdtempSync(join(tmpdir(), 'gramkit-bench-server-'));
  // as `gramkit serve` builds it: the default rules as policies, approvals queued, a token required
  const approvals = approvalQueue();
  const opened = await openCatalog({ store: openFileStore(join(dir, 'data'), { durable: false }), workspace: dir, policies: { rules: defaultRuleEngine }, approver: approvals.ask });
  if (!opened.ok) throw new Error(opened.error.message);
  const service = createService({ catalog: opened.value, approvals, tokens: [{ name: 'bench', token: TOKEN, scopes: [...ALL_SCOPES] }] });
  const running = await startServer(service, { host: '127.0.0.1', port: 0 });
  const echo = await bare();
  const echoUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
  try {
    let bestBare = 0;
    let bestService = 0;
    let cpuBare = Number.POSITIVE_INFINITY;
    let cpuService = Number.POSITIVE_INFINITY;
    let failures = 0;
    for (let i = 0; i < ROUNDS; i++) {
      const b = await load(echoUrl, '/');
      const s = await load(running.url, '/api/v1/tools/json_parse/invoke', { authorization: `Bearer ${TOKEN}` });
      bestBare = Math.max(bestBare, b.perSecond);
      bestService = Math.max(bestService, s.perSecond);
      cpuBare = Math.min(cpuBare, b.cpuPerRequestUs);
      cpuService = Math.min(cpuService, s.cpuPerRequestUs);
      failures += b.failed + s.failed;
    }
    report(`service throughput: json_parse through gramkit serve vs a bare node:http JSON echo (${CONNECTIONS} connections, best of ${ROUNDS} rounds of ${MS / 1000} s)`, [
      ['bare node:http', `${Math.round(bestBare).toLocaleString('en')} requests/s, ${cpuBare.toFixed(0)} µs of CPU a request`],
      ['gramkit serve, POST /api/v1/tools/json_parse/invoke', `${Math.round(bestService).toLocaleString('en')} requests/s, ${cpuService.toFixed(0)} µs of CPU a request`],
      ['service / bare, requests per second', ratio(bestService / bestBare, { min: 0.5 })],
      ['service / bare, capacity (CPU time a request)', ratio(cpuBare / cpuService, { min: 0.5 })],
      ['failed requests', String(failures)],
      ['load average (1 min)', loadavg()[0]?.toFixed(1) ?? '?'],
    ]);
  } finally {
    await running.close();
    approvals.close();
    await new Promise<void>((r) => echo.close(() => r()));
    await opened.value.close();
    rmSync(dir, { recursive: true, force: true });
  }
};
