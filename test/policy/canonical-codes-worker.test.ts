/**
 * Canonical codes on the worker path (issue 22): `gramkit ab --queue redis://…` with the runs made
 * by a `gramkit worker` process (a real redis-server on 127.0.0.1, a free port). The same law and
 * the same generated behaviours as the other surfaces (canonical-support.ts): every failed tool
 * call of every run has a canonical `code` and, as `reason`, the precise code its registry maps to
 * that code; the worker's policies refuse `guarded` (ALLOWED_TOOL_PERMS) and `confirmed` (no
 * --yes). And the worker reports each call with the codes the same experiment gives in one process.
 */
import { mkdtempSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import { type RedisServer, redisUnavailable, startRedis } from '../support/redis.js';
import { startWorker, stopWorker } from '../support/worker.js';
import { type Behaviour, lawful, probeBehaviours, writeProbes } from './canonical-support.js';

const dir = mkdtempSync(join(tmpdir(), 'gramkit-canonical-worker-'));

const behaviours: ReadonlyArray<Behaviour> = probeBehaviours(24);
/** The probes' behaviours by tool name; `guarded` and `confirmed` run fine when they run. */
const behaviourOf = (name: string): Behaviour => behaviours[Number(name.replace('probe', ''))] ?? { kind: 'ok' };

interface Call {
  readonly name: string;
  readonly ok: boolean;
  readonly code?: unknown;
  readonly reason?: unknown;
}
interface Report {
  readonly results: ReadonlyArray<{ readonly input: number; readonly toolCalls: ReadonlyArray<Call> }>;
  readonly summaries: ReadonlyArray<{ readonly toolErrors: number; readonly toolErrorsByCode: Readonly<Record<string, number>> }>;
}

/** Each input's calls as `name code reason`, in input order. */
const callsOf = (report: Report): string[] =>
  [...report.results]
    .sort((a, b) => a.input - b.input)
    .flatMap((r) => r.toolCalls.map((c) => `${c.name} ${c.ok ? 'ok' : `${String(c.code)} ${String(c.reason)}`}`));

describe.skipIf(redisUnavailable !== undefined)('canonical codes on the worker path (gramkit ab --queue, gramkit worker)', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('every failed call of every run is lawful, and is what the same experiment gives in one process', async () => {
    const { gram, library, names } = writeProbes(dir, behaviours);
    appendFileSync(gram, `[prober:Agent {description: "Calls the probes", instruction: "Call what you are told."} | ${names.join(', ')}]\n`);
    // each tool with good and bad arguments, one input each (the calls are scripted: the offline model makes them)
    const inputs = join(dir, 'inputs.jsonl');
    writeFileSync(
      inputs,
      names
        .flatMap((name) =>
          [{ command: 'go' }, { command: 7 }].map((args) => JSON.stringify({ message: `call ${name}`, toolCalls: [{ name, arguments: args }] })),
        )
        .map((l) => `${l}\n`)
        .join(''),
    );
    const args = ['ab', gram, '-l', library, '-i', inputs, '--json'];
    const env = { ALLOWED_TOOL_PERMS: 'net:read' };
    const worker = await startWorker(redis.url, ['--root', dir], env);
    let queued: Report;
    try {
      const r = await cli([...args, '--queue', redis.url], { cwd: dir });
      expect(r.code, r.stderr).toBe(0);
      queued = JSON.parse(r.stdout) as Report;
    } finally {
      await stopWorker(worker);
    }
    expect(queued.results).toHaveLength(names.length * 2);

    let failures = 0;
    for (const run of queued.results)
      for (const call of run.toolCalls)
        if (!call.ok) {
          failures++;
          lawful(`worker run ${run.input} ${call.name}`, { code: call.code, reason: call.reason }, behaviourOf(call.name));
        }
    // every probe fails with bad arguments, and most with good ones; guarded and confirmed are refused
    expect(failures).toBeGreaterThan(names.length + 2);
    const refused = queued.results.flatMap((r) => r.toolCalls).filter((c) => (c.name === 'guarded' || c.name === 'confirmed') && !c.ok);
    // refused by the worker's own policies with good arguments (DENIED), and INVALID_ARGUMENTS with bad ones
    expect(refused.map((c) => c.code).sort()).toEqual(['DENIED', 'DENIED', 'INVALID_ARGUMENTS', 'INVALID_ARGUMENTS']);
    // the report counts the failures by their precise codes
    expect(Object.values(queued.summaries[0]?.toolErrorsByCode ?? {}).reduce((n, k) => n + k, 0)).toBe(failures);

    // in one process, with the same policies: the same calls, the same codes
    const local = await cli(args, { cwd: dir, env });
    expect(local.code, local.stderr).toBe(0);
    expect(callsOf(queued)).toEqual(callsOf(JSON.parse(local.stdout) as Report));
  }, 180_000);
});
