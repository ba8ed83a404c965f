/**
 * The rate limits `gramkit worker`s share through the queue's Redis (a real redis-server on
 * 127.0.0.1, a free port): each "worker" below has a connection of its own, as two processes would.
 *
 * - a 429 one worker gets pauses the provider on the others: no request of theirs is made while
 *   the pause lasts;
 * - `requestsPerMinute`: in any window, at most that many requests to a provider, all workers
 *   together (the window shortened so the test does not wait minutes; the times are Redis's).
 */
import { createClient } from '@redis/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentCodes } from '../../src/agent/codes.js';
import type { Model } from '../../src/agent/model.js';
import { type LimitStore, sharedLimits } from '../../src/cli/actions/worker-limits.js';
import { scriptedModel } from '../../src/entries/testing.js';
import { type RedisServer, redisUnavailable, startRedis } from '../support/redis.js';

type Client = LimitStore & { connect(): Promise<unknown>; quit(): Promise<unknown>; pTTL(key: string): Promise<number> };

describe.skipIf(redisUnavailable !== undefined)('rate limits shared by the workers of a queue', () => {
  let redis: RedisServer;
  const clients: Client[] = [];
  const client = async (): Promise<Client> => {
    const c = createClient({ url: redis.url }) as unknown as Client;
    await c.connect();
    clients.push(c);
    return c;
  };
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    for (const c of clients) await c.quit();
    await redis?.stop();
  });

  const request = { messages: [{ role: 'user' as const, content: 'hi' }], tools: [] };

  it("a 429 one worker gets pauses the provider's requests on every worker", async () => {
    const [one, two, observer] = [await client(), await client(), await client()];
    const limited = scriptedModel([{ error: { code: AgentCodes.RATE_LIMITED, message: '429', status: 429 } }], { id: 'acme/a' });
    const pausedWhenCalled: number[] = [];
    const other: Model = {
      id: 'acme/b',
      generate: async (r) => {
        pausedWhenCalled.push(await observer.pTTL('gramkit:ab:pause:acme'));
        return scriptedModel([{ text: 'ok' }]).generate(r);
      },
    };
    const r = await sharedLimits(one)(limited).generate(request);
    expect(r.ok).toBe(false);
    expect(await observer.pTTL('gramkit:ab:pause:acme')).toBeGreaterThan(0);
    const answer = await sharedLimits(two)(other).generate(request);
    expect(answer.ok).toBe(true);
    // the other worker's request was made only once the pause was over
    expect(pausedWhenCalled).toHaveLength(1);
    expect(pausedWhenCalled[0]).toBeLessThanOrEqual(0);
    // another provider is not paused
    const elsewhere = await sharedLimits(two)({
      id: 'other/c',
      generate: async (x) => {
        pausedWhenCalled.push(await observer.pTTL('gramkit:ab:pause:acme'));
        return scriptedModel([{ text: 'ok' }]).generate(x);
      },
    }).generate(request);
    expect(elsewhere.ok).toBe(true);
  });

  it('requestsPerMinute holds across workers: at most N requests in any window', async () => {
    const windowMs = 400;
    const taken: number[] = [];
    // each worker's connection, its places recorded as Redis gave them
    const recording = (c: Client): LimitStore => ({
      eval: async (script, options) => {
        const answer = await c.eval(script, options);
        if (Array.isArray(answer) && Number(answer[0]) === 0) taken.push(Number(answer[1]));
        return answer;
      },
    });
    const workers = [await client(), await client()].map((c) => sharedLimits(recording(c), { requestsPerMinute: 3, windowMs }));
    const made = await Promise.all(
      workers.flatMap((w) => Array.from({ length: 4 }, () => w(scriptedModel(() => ({ text: 'ok' }), { id: 'paced/m' })).generate(request))),
    );
    expect(made.every((x) => x.ok)).toBe(true);
    expect(taken).toHaveLength(8);
    const sorted = [...taken].sort((a, b) => a - b);
    for (let i = 0; i + 3 < sorted.length; i++) expect((sorted[i + 3] as number) - (sorted[i] as number)).toBeGreaterThanOrEqual(windowMs);
  });
});
