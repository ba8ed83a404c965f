/**
 * Rate limits that hold across every worker of a queue, per provider (the part of a model id before
 * `/`: `openai`, `anthropic`, …), kept in the queue's Redis:
 *
 * - a 429 one worker gets (`AGENT_RATE_LIMITED`, with the server's `retryAfterMs` or a second)
 *   pauses that provider's requests on every worker until then (`gramkit:ab:pause:<provider>`,
 *   the latest end wins); the run that got it asks again, as `gramkit ab` does alone;
 * - `requestsPerMinute` (`gramkit worker --requests-per-minute N`): at most N requests to a
 *   provider in any 60-second window, all workers together (a sorted set of request times,
 *   checked and added to in one Lua script, so two workers cannot both take the last place).
 */
import { randomUUID } from 'node:crypto';
import { AgentCodes } from '../../agent/codes.js';
import type { Model } from '../../agent/model.js';
import type { RedisClient } from './ab-queue.js';

/** What the limits need of a Redis client (node-redis's). */
export type LimitStore = Pick<RedisClient, 'get' | 'eval'>;

const WINDOW_MS = 60_000;

/** Returns 0 and takes a place when the window has one, else how long until it will (ms). */
const TAKE = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[3]) then
  redis.call('ZADD', KEYS[1], now, ARGV[4])
  redis.call('PEXPIRE', KEYS[1], window)
  return 0
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return math.max(1, tonumber(oldest[2]) + window - now)
`;

/** Sets the pause to end at ARGV[1] (epoch ms) unless it already ends later. */
const PAUSE = `
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
if tonumber(ARGV[1]) > current then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) end
return 0
`;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export const providerOf = (modelId: string): string => modelId.split('/')[0] || modelId;

/** `model` with the shared limits of its provider. */
export const sharedLimits = (store: LimitStore, options: { readonly requestsPerMinute?: number } = {}): ((model: Model) => Model) => {
  return (model) => {
    const provider = providerOf(model.id);
    const pauseKey = `gramkit:ab:pause:${provider}`;
    const rateKey = `gramkit:ab:rate:${provider}`;
    const waitForPause = async (): Promise<void> => {
      for (;;) {
        const until = Number(await store.get(pauseKey));
        const wait = Number.isFinite(until) ? until - Date.now() : 0;
        if (wait <= 0) return;
        await sleep(Math.min(wait, WINDOW_MS));
      }
    };
    const takePlace = async (perMinute: number): Promise<void> => {
      for (;;) {
        const wait = Number(await store.eval(TAKE, { keys: [rateKey], arguments: [String(Date.now()), String(WINDOW_MS), String(perMinute), randomUUID()] }));
        if (!(wait > 0)) return;
        await sleep(wait);
      }
    };
    return {
      id: model.id,
      generate: async (request) => {
        await waitForPause();
        if (options.requestsPerMinute !== undefined) await takePlace(options.requestsPerMinute);
        const response = await model.generate(request);
        if (!response.ok && response.error.code === AgentCodes.RATE_LIMITED) {
          const asked = (response.error.details as { retryAfterMs?: unknown } | undefined)?.retryAfterMs;
          const delay = typeof asked === 'number' && Number.isFinite(asked) && asked >= 0 ? Math.min(asked, WINDOW_MS) : 1000;
          await store.eval(PAUSE, { keys: [pauseKey], arguments: [String(Date.now() + delay), String(delay + 1000)] });
        }
        return response;
      },
    };
  };
};
