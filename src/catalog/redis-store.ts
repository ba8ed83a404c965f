/**
 * The Redis store: any number of servers share one catalog. Keys:
 *
 * ```
 * tools:registry                     set of tool ids (toolIDs)
 * tool:<id>                          a tool record (JSON)
 * bundles:registry, bundle:<id>      the same for bundles
 * catalog:rev                        the journal position: one more per record written
 * catalog:journal                    a stream, entry <rev>-1 = {k: kind, i: id}, trimmed to ~100,000
 * tools:usage:count, tools:usage:last  hashes by toolID: call counts, last call times
 * tools:agent:<sha256 of the agent id>:usage_history
 *                                    the usage history of an agent (newest first, capped; expires
 *                                    30 days after the agent's last call)
 * tools:global:usage_history         the same for every call
 * tools:events                       pub/sub channel of the events, for the other servers
 * ```
 *
 * Writes are one Lua script: it checks that `catalog:rev` is still the position the decision was
 * made at, then writes the records, the journal entries and the new position, atomically. If
 * another server wrote in between, the script refuses and the decision is made again on the new
 * state (optimistic concurrency), so `<slug, version>` uniqueness holds across servers.
 *
 * The client is `@redis/client`, the client of node-redis (the `redis` package adds modules for
 * Redis Stack that gramkit does not use).
 */
import { createClient } from '@redis/client';
import { agentHistoryName } from './ids.js';
import type { JsonObject } from '../core/json-schema.js';
import { type CatalogBackend, type Committed, type Decision, type JournalChanges, type LoadedRecords, type RecordKind, type RecordRead, StoreError, type UsageDelta } from './backend.js';
import type { UsageCount, UsageEntry } from './records.js';

type Client = ReturnType<typeof createClient>;

const GLOBAL_HISTORY = 'tools:global:usage_history';
/** An agent's history lives 30 days after its last call (one key per agent id would grow forever). */
const AGENT_HISTORY_TTL_S = 30 * 24 * 3600;
const agentHistoryKey = (agentId: string): string => `tools:agent:${agentHistoryName(agentId)}:usage_history`;

const JOURNAL_MAXLEN = 100_000;
const CHANNEL = 'tools:events';
const MAX_RETRIES = 100;

const COMMIT = `
local rev = tonumber(redis.call('GET', 'catalog:rev') or '0')
if rev ~= tonumber(ARGV[1]) then return -1 end
local n = tonumber(ARGV[2])
local maxlen = ARGV[3]
local i = 4
for j = 1, n do
  local kind = ARGV[i]
  local id = ARGV[i + 1]
  local json = ARGV[i + 2]
  i = i + 3
  local set = 'bundles:registry'
  if kind == 'tool' then set = 'tools:registry' end
  if json == '' then
    redis.call('DEL', kind .. ':' .. id)
    redis.call('SREM', set, id)
    if kind == 'tool' then
      redis.call('HDEL', 'tools:usage:count', id)
      redis.call('HDEL', 'tools:usage:last', id)
    end
  else
    redis.call('SET', kind .. ':' .. id, json)
    redis.call('SADD', set, id)
  end
  rev = rev + 1
  redis.call('XADD', 'catalog:journal', 'MAXLEN', '~', maxlen, rev .. '-1', 'k', kind, 'i', id)
end
redis.call('SET', 'catalog:rev', tostring(rev))
return rev
`;

const LAST_CALLED = `
for i = 1, #ARGV, 2 do
  local old = redis.call('HGET', 'tools:usage:last', ARGV[i])
  if (not old) or old < ARGV[i + 1] then redis.call('HSET', 'tools:usage:last', ARGV[i], ARGV[i + 1]) end
end
return 1
`;

/** The URL without its credentials, for messages. */
export const redactRedisUrl = (url: string): string => {
  try {
    const u = new URL(url);
    if (u.password !== '' || u.username !== '') {
      u.username = '';
      u.password = '';
    }
    return u.toString();
  } catch {
    return 'redis://…';
  }
};

export interface RedisStoreOptions {
  /** Milliseconds to wait for the connection (default 5000). */
  readonly connectTimeoutMs?: number;
}

/** Connects to Redis; rejects with a `StoreError` when the server cannot be reached. */
export const openRedisStore = async (url: string, options: RedisStoreOptions = {}): Promise<CatalogBackend> => {
  const location = redactRedisUrl(url);
  let connected = false;
  const client: Client = createClient({
    url,
    // commands fail at once while the connection is down (a 503 now, not a request that hangs)
    disableOfflineQueue: true,
    socket: {
      connectTimeout: options.connectTimeoutMs ?? 5000,
      // the first connection fails at once; a lost one is retried with backoff
      reconnectStrategy: (retries: number, cause: Error) => (!connected ? cause : Math.min(50 * 2 ** Math.min(retries, 6), 2000)),
    },
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    connected = true;
  } catch (e) {
    await Promise.resolve(client.destroy()).catch(() => undefined);
    throw new StoreError(`cannot connect to Redis at ${location}: ${(e as Error).message}`, e);
  }
  let subscriber: Client | undefined;

  const call = async <A>(what: string, f: () => Promise<A>): Promise<A> => {
    try {
      return await f();
    } catch (e) {
      throw new StoreError(`Redis at ${location}: cannot ${what}: ${(e as Error).message}`, e);
    }
  };
  const command = (args: ReadonlyArray<string>): Promise<unknown> => client.sendCommand([...args]);
  const rev = async (): Promise<number> => Number((await command(['GET', 'catalog:rev'])) ?? 0);

  const readRecords = async (kind: RecordKind, ids: ReadonlyArray<string>): Promise<RecordRead[]> => {
    const out: RecordRead[] = [];
    for (let i = 0; i < ids.length; i += 1000) {
      const batch = ids.slice(i, i + 1000);
      if (batch.length === 0) continue;
      const values = (await command(['MGET', ...batch.map((id) => `${kind}:${id}`)])) as ReadonlyArray<string | null>;
      batch.forEach((id, j) => {
        const v = values[j];
        let json: unknown;
        if (v !== null && v !== undefined) {
          try {
            json = JSON.parse(v);
          } catch (e) {
            json = { __corrupt: (e as Error).message };
          }
        }
        out.push({ kind, id, json });
      });
    }
    return out;
  };

  const load = (): Promise<LoadedRecords> =>
    call('load the catalog', async () => {
      const cursor = String(await rev());
      const records: RecordRead[] = [];
      for (const kind of ['bundle', 'tool'] as const) {
        const ids = (await command(['SMEMBERS', kind === 'tool' ? 'tools:registry' : 'bundles:registry'])) as ReadonlyArray<string>;
        records.push(...(await readRecords(kind, ids)).filter((r) => r.json !== undefined));
      }
      return { records, cursor };
    });

  const changesSince = (cursor: string): Promise<JournalChanges> =>
    call('read the journal', async () => {
      const from = Number(cursor);
      const now = await rev();
      if (now === from) return { reset: false, changes: [], cursor };
      if (now < from) return { reset: true };
      const entries = (await command(['XRANGE', 'catalog:journal', `${from + 1}-0`, '+'])) as ReadonlyArray<readonly [string, ReadonlyArray<string>]>;
      const first = entries[0];
      if (first === undefined || Number(first[0].split('-')[0]) !== from + 1) return { reset: true };
      const byKind = new Map<RecordKind, Set<string>>([['bundle', new Set()], ['tool', new Set()]]);
      let last = from;
      for (const [id, fields] of entries) {
        last = Number(id.split('-')[0]);
        const kind = fields[1] === 'bundle' ? 'bundle' : 'tool';
        byKind.get(kind)?.add(fields[3] as string);
      }
      const changes = [...(await readRecords('bundle', [...(byKind.get('bundle') ?? [])])), ...(await readRecords('tool', [...(byKind.get('tool') ?? [])]))];
      return { reset: false, changes, cursor: String(last) };
    });

  const transact = async <A>(body: () => Promise<Decision<A>>): Promise<Committed<A>> => {
    for (let attempt = 0; attempt < MAX_RETRIES; attempt++) {
      const decision = await body();
      if (decision.writes.length === 0) return { result: decision.result };
      const args = [decision.basedOn, String(decision.writes.length), String(JOURNAL_MAXLEN)];
      for (const w of decision.writes) args.push(w.kind, w.id, w.record === undefined ? '' : JSON.stringify(w.record));
      const r = Number(await call('write', () => command(['EVAL', COMMIT, '0', ...args])));
      if (r >= 0) return { result: decision.result, cursor: String(r) };
      // another server wrote first: decide again on the new state
      await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * Math.min(50, 2 ** attempt))));
    }
    throw new StoreError(`Redis at ${location}: the write kept conflicting with other servers' writes (${MAX_RETRIES} attempts)`);
  };

  const recordUsage = (deltas: ReadonlyArray<UsageDelta>, entries: ReadonlyArray<UsageEntry>, cap: number): Promise<void> =>
    call('record usage', async () => {
      if (deltas.length === 0 && entries.length === 0) return;
      const m = client.multi();
      for (const d of deltas) m.addCommand(['HINCRBY', 'tools:usage:count', d.toolID, String(d.calls)]);
      if (deltas.length > 0) m.addCommand(['EVAL', LAST_CALLED, '0', ...deltas.flatMap((d) => [d.toolID, d.lastCalledAt])]);
      const lists = new Map<string, string[]>();
      for (const e of entries) {
        const json = JSON.stringify(e);
        lists.set(GLOBAL_HISTORY, [...(lists.get(GLOBAL_HISTORY) ?? []), json]);
        if (e.agent_id !== undefined) lists.set(agentHistoryKey(e.agent_id), [...(lists.get(agentHistoryKey(e.agent_id)) ?? []), json]);
      }
      for (const [key, values] of lists) {
        m.addCommand(['LPUSH', key, ...values]);
        m.addCommand(['LTRIM', key, '0', String(cap - 1)]);
        if (key !== GLOBAL_HISTORY) m.addCommand(['EXPIRE', key, String(AGENT_HISTORY_TTL_S)]);
      }
      await m.exec();
    });

  const readUsage = (ids: ReadonlyArray<string>): Promise<ReadonlyMap<string, UsageCount>> =>
    call('read usage', async () => {
      const out = new Map<string, UsageCount>();
      if (ids.length === 0) return out;
      const counts = (await command(['HMGET', 'tools:usage:count', ...ids])) as ReadonlyArray<string | null>;
      const last = (await command(['HMGET', 'tools:usage:last', ...ids])) as ReadonlyArray<string | null>;
      ids.forEach((id, i) => {
        const c = counts[i];
        if (c !== null && c !== undefined) out.set(id, { callCount: Number(c), lastCalledAt: last[i] ?? null });
      });
      return out;
    });

  const readHistory = (agentId: string | undefined, limit: number): Promise<ReadonlyArray<UsageEntry>> =>
    call('read the usage history', async () => {
      const key = agentId === undefined ? GLOBAL_HISTORY : agentHistoryKey(agentId);
      const values = (await command(['LRANGE', key, '0', String(Math.max(0, limit - 1))])) as ReadonlyArray<string>;
      const out: UsageEntry[] = [];
      for (const v of values) {
        try {
          out.push(JSON.parse(v) as UsageEntry);
        } catch {
          // not ours
        }
      }
      return out;
    });

  return {
    kind: 'redis',
    location,
    load,
    changesSince,
    transact,
    recordUsage,
    readUsage,
    readHistory,
    publish: async (event: JsonObject) => {
      await call('publish an event', () => command(['PUBLISH', CHANNEL, JSON.stringify(event)]));
    },
    onPublished: async (listener) => {
      if (subscriber === undefined) {
        subscriber = client.duplicate();
        // a lost connection is an 'error' event: without a listener it would end the process
        // (the client reconnects, and subscribes again, by itself)
        subscriber.on('error', () => undefined);
      }
      const sub = subscriber;
      if (!sub.isOpen) await call('subscribe to events', () => sub.connect());
      const handler = (message: string): void => {
        try {
          listener(JSON.parse(message) as JsonObject);
        } catch {
          // not ours
        }
      };
      await call('subscribe to events', () => sub.subscribe(CHANNEL, handler));
      return async () => {
        await sub.unsubscribe(CHANNEL, handler).catch(() => undefined);
      };
    },
    close: async () => {
      if (subscriber?.isOpen === true) await subscriber.close().catch(() => undefined);
      if (client.isOpen) await client.close().catch(() => undefined);
    },
  };
};
