/**
 * Rate limits that hold across every worker of a queue, per provider (the part of a model id before
 * `/`: `openai`, `anthropic`, …), kept in the queue's Redis:
 *
 * - a 429 one worker gets (`AGENT_RATE_LIMITED`, with the server's `retryAfterMs` or a second)
 *   pauses that provider's requests on every worker for that long (`gramkit:ab:pause:<provider>`,
 *   the longest pause wins); the run that got it asks again, as `gramkit ab` does alone;
 * - `requestsPerMinute` (`gramkit worker --requests-per-minute N`): at most N requests to a
 *   provider in any 60-second window, all workers together (a sorted set of request times,
 *   checked and added to in one Lua script, so two workers cannot both take the last place).
 */
import { randomUUID } from 'node:crypto';
import { AgentCodes } from '../../agent/codes.js';
import type { Model } from '../../agent/model.js';
import type { RedisClient } from './ab-queue.js';

/** What the limits need of a Redis client (node-redis's). */
export type LimitStore = Pick<RedisClient, 'eval'>;

const WINDOW_MS = 60_000;

// Every time is Redis's own (TIME, PTTL): workers on machines whose clocks differ share one clock.

/** Takes a place when the window has one: `{0, now}`; else `{ms until it will}`. */
const TAKE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[2]) then
  redis.call('ZADD', KEYS[1], now, ARGV[3])
  redis.call('PEXPIRE', KEYS[1], window)
  return {0, now}
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return {math.max(1, tonumber(oldest[2]) + window - now)}
`;

/** Pauses for ARGV[1] ms unless the pause already lasts longer. */
const PAUSE = `
if tonumber(ARGV[1]) > redis.call('PTTL', KEYS[1]) then redis.call('SET', KEYS[1], '1', 'PX', ARGV[1]) end
return 0
`;

/** How long the pause still lasts (ms; 0 or less: none). */
const PAUSED = `return redis.call('PTTL', KEYS[1])`;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export const providerOf = (modelId: string): string => modelId.split('/')[0] || modelId;

/** `model` with the shared limits of its provider. */
export const sharedLimits = (
  store: LimitStore,
  options: { readonly requestsPerMinute?: number; readonly windowMs?: number } = {},
): ((model: Model) => Model) => {
  // the window is a minute; a test may shorten it
  const window = options.windowMs ?? WINDOW_MS;
  return (model) => {
    const provider = providerOf(model.id);
    const pauseKey = `gramkit:ab:pause:${provider}`;
    const rateKey = `gramkit:ab:rate:${provider}`;
    const waitForPause = async (): Promise<void> => {
      for (;;) {
        const wait = Number(await store.eval(PAUSED, { keys: [pauseKey], arguments: [] }));
        if (!(wait > 0)) return;
        await sleep(Math.min(wait, window));
      }
    };
    const takePlace = async (perMinute: number): Promise<void> => {
      for (;;) {
        const answer = await store.eval(TAKE, { keys: [rateKey], arguments: [String(window), String(perMinute), randomUUID()] });
        const wait = Number(Array.isArray(answer) ? answer[0] : answer);
        if (!(wait > 0)) return;
        await sleep(wait);
      }
    };
    return {
      id: model.id,
      generate: async (request) => {
        // a Redis that does not answer does not fail the run: its limits wait for it to come back
        await waitForPause().catch(() => undefined);
        if (options.requestsPerMinute !== undefined) await takePlace(options.requestsPerMinute).catch(() => undefined);
        const response = await model.generate(request);
        if (!response.ok && response.error.reason === AgentCodes.RATE_LIMITED) {
          const asked = (response.error.details as { retryAfterMs?: unknown } | undefined)?.retryAfterMs;
          const delay = typeof asked === 'number' && Number.isFinite(asked) && asked >= 0 ? Math.min(asked, WINDOW_MS) : 1000;
          await store.eval(PAUSE, { keys: [pauseKey], arguments: [String(Math.max(1, Math.round(delay)))] }).catch(() => undefined);
        }
        return response;
      },
    };
  };
};
