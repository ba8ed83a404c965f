/**
 * Service benchmark (issues 9 and 22): invoking a cheap built-in (`json_parse` of a short text)
 * through `gramkit serve` as a user runs it — the built package (`dist/cli.js serve`), its own
 * process, a token required, the catalog on files, the default rules, approvals queued — against
 * two baselines doing the same JSON work and nothing else, each also in its own process
 * (`bench/echo-server.mjs`): a bare `node:http` server, and a Hono route on `@hono/node-server`
 * (the floor of a service built on them). One load generator (undici, 16 keep-alive connections,
 * in a child process) measures each server in turn, round after round (interleaved, so the
 * machine's drift touches all alike), after a warm-up round each. Two figures a server: requests
 * per second, and its CPU time per answered request (user + system from `/proc/<pid>/stat`, so
 * neither the client nor the rest of the machine counts), whose ratio is the capacity ratio on a
 * loaded machine. The ratios are the median of the rounds' own ratios (round i of each server ran
 * side by side); beside them, each server's median round. Target: ≥ 0.5× the bare server. On a
 * machine with two CPUs (or more) and `taskset`, each server runs on one core and the client on
 * another, as load tests are run: sharing a core, the client's turns and the scheduler's moves
 * land in the server's figure, and the more so the slower the server (its client sleeps more, and
 * waking it costs the server's kernel time).
 * Run `npm run build` (or `npx tsup`) first: the service measured is `dist/`.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuPair, median, pinned, processCpuUs, ratio, report, stopProcess } from './harness.js';

const BODY = JSON.stringify({ text: '{"city": "Paris", "days": [1, 2, 3]}' });
const ROUNDS = Number(process.env.BENCH_SERVER_ROUNDS ?? 7);
const MS = 2000;
const CONNECTIONS = 16;
const PATH = '/api/v1/tools/json_parse/invoke';
/** The bearer token the service requires, as `gramkit serve` does by default (given as `$GRAMKIT_TOKEN`). */
const TOKEN = 'bench-token-0123456789abcdef';
const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const ECHO = fileURLToPath(new URL('./echo-server.mjs', import.meta.url));
/** Each server on one core, the load generator on another (when the machine has two and `taskset`). */
const CPUS = cpuPair();

interface Served {
  readonly url: string;
  readonly process: ChildProcess;
  readonly headers: Readonly<Record<string, string>>;
}

/** Starts `node args…` and waits for its "listening on URL" line. */
const start = (args: ReadonlyArray<string>, cwd: string, env: NodeJS.ProcessEnv, headers: Served['headers'] = {}): Promise<Served> =>
  new Promise((resolve, reject) => {
    const [command, argv] = pinned(CPUS?.server, process.execPath, args);
    const p = spawn(command, argv, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stderr.on('data', (d: Buffer) => (err += d.toString()));
    p.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/[^\s/]+)/.exec(out);
      if (m !== null) resolve({ url: m[1] as string, process: p, headers });
    });
    p.on('exit', (code) => reject(new Error(`${args.join(' ')} exited (${code}): ${err.slice(0, 500)}`)));
  });

interface Round {
  readonly perSecond: number;
  readonly cpuPerRequestUs: number;
  readonly failed: number;
}

/** One round against a server: the client's rate, and the server process's CPU time per answered request. */
const load = async (s: Served): Promise<Round> => {
  const c0 = processCpuUs(s.process.pid as number);
  const out = await new Promise<string>((resolve, reject) => {
    const config = JSON.stringify({ url: s.url, path: PATH, body: BODY, connections: CONNECTIONS, ms: MS, headers: s.headers });
    const [command, argv] = pinned(CPUS?.client, process.execPath, [fileURLToPath(new URL('./load-worker.mjs', import.meta.url)), config]);
    execFile(command, argv, (e, stdout) => (e !== null ? reject(e) : resolve(stdout)));
  });
  const cpu = processCpuUs(s.process.pid as number) - c0;
  const r = JSON.parse(out) as { perSecond: number; done: number; failed: number };
  return { perSecond: r.perSecond, cpuPerRequestUs: cpu / Math.max(1, r.done), failed: r.failed };
};

export default async (): Promise<void> => {
  if (!existsSync(CLI)) throw new Error('bench/server.bench.ts measures the built package: run `npm run build` first');
  const dir = mkdtempSync(join(tmpdir(), 'gramkit-bench-server-'));
  const env = { ...process.env, GRAMKIT_TOKEN: TOKEN };
  const servers: Served[] = [];
  try {
    // as a user starts it: a token, the catalog on files (here under a fresh directory), the default nucleus
    const service = await start([CLI, 'serve', '--port', '0', '--data', join(dir, 'catalog'), '--workspace', dir], dir, env, {
      authorization: `Bearer ${TOKEN}`,
    });
    servers.push(service);
    const bare = await start([ECHO, 'bare'], dir, env);
    servers.push(bare);
    const hono = await start([ECHO, 'hono'], dir, env);
    servers.push(hono);
    const named = { bare, hono, service } as const;
    const keys = Object.keys(named) as Array<keyof typeof named>;
    for (const k of keys) await load(named[k]); // warm-up: the JIT settles
    const load0 = loadavg()[0] ?? 0;
    const rounds: Record<keyof typeof named, Round[]> = { bare: [], hono: [], service: [] };
    for (let i = 0; i < ROUNDS; i++) for (const k of keys) rounds[k].push(await load(named[k]));
    const load1 = loadavg()[0] ?? 0;
    const perRound = (a: ReadonlyArray<Round>, b: ReadonlyArray<Round>, f: (x: Round, y: Round) => number): number =>
      median(a.map((x, i) => f(x, b[i] as Round)));
    const rate = (x: Round, y: Round): number => x.perSecond / y.perSecond;
    const capacity = (x: Round, y: Round): number => y.cpuPerRequestUs / x.cpuPerRequestUs;
    const failures = keys.reduce((n, k) => n + rounds[k].reduce((m, r) => m + r.failed, 0), 0);
    const line = (rs: ReadonlyArray<Round>): string => {
      const cpu = rs.map((r) => r.cpuPerRequestUs);
      const rate = Math.round(median(rs.map((r) => r.perSecond))).toLocaleString('en');
      return `${rate} requests/s, ${median(cpu).toFixed(0)} µs of CPU a request (least ${Math.min(...cpu).toFixed(0)})`;
    };
    const cores = CPUS !== undefined ? `each server on CPU ${CPUS.server}, the client on CPU ${CPUS.client}` : 'not pinned to CPUs';
    const how = `each in its own process, ${cores}, ${CONNECTIONS} connections, ${ROUNDS} interleaved rounds of ${MS / 1000} s; median round`;
    report(`service throughput: json_parse through gramkit serve (dist/) vs a bare node:http JSON echo and a bare Hono echo (${how})`, [
      ['bare node:http', line(rounds.bare)],
      ['bare Hono on @hono/node-server', line(rounds.hono)],
      [`gramkit serve, POST ${PATH}`, line(rounds.service)],
      ['service / bare, requests per second (median of rounds)', ratio(perRound(rounds.service, rounds.bare, rate), { min: 0.5 })],
      ['service / bare, capacity (CPU time a request, median of rounds)', ratio(perRound(rounds.service, rounds.bare, capacity), { min: 0.5 })],
      ['Hono echo / bare, requests per second (the adapter and router alone)', ratio(perRound(rounds.hono, rounds.bare, rate))],
      ['Hono echo / bare, capacity', ratio(perRound(rounds.hono, rounds.bare, capacity))],
      ['service / Hono echo, requests per second', ratio(perRound(rounds.service, rounds.hono, rate))],
      ['service / Hono echo, capacity', ratio(perRound(rounds.service, rounds.hono, capacity))],
      ['failed requests', String(failures)],
      ['load average (1 min), before and after the rounds', `${load0.toFixed(1)}, ${load1.toFixed(1)}`],
    ]);
  } finally {
    for (const s of servers) await stopProcess(s.process);
    rmSync(dir, { recursive: true, force: true });
  }
};
