/**
 * The Redis store: any number of servers share one catalog. Keys, seed 002's layout first (what a
 * program reading Redis directly, such as the seed's Monitor, depends on):
 *
 * ```
 * tools:registry                     set of the registry ids of the stored tools (tool_http_get, or
 *                                    a toolID for a tool the registry API did not name)
 * tool:<id>                          that tool as seed 002's Tool JSON (id, name, description,
 *                                    input_schema, output_schema, permissions, safety_level,
 *                                    created_by, created_at, exec when it runs a command)
 * tools:<agent_id>:usage_history     an agent's recent calls, newest first ({ts, type, tool, …};
 *                                    capped; expires 30 days after the agent's last call; the id
 *                                    `global`, and ids beginning with `~`, get a `~` before them)
 * tools:global:usage_history         every call, newest first (capped)
 * ```
 *
 * and gramkit's own records beside them, under `catalog:`:
 *
 * ```
 * catalog:tools, catalog:tool:<toolID>       the tool records (set of ids, JSON)
 * catalog:bundles, catalog:bundle:<id>       the same for bundles
 * catalog:rev                        the journal position: one more per record written
 * catalog:journal                    a stream, entry <rev>-1 = {k: kind, i: id}, trimmed to ~100,000
 * catalog:epoch                      this store's identity, set once: gone or changed = wiped
 * catalog:keys, catalog:rids         hashes: `<bundleID> <slug> <version>` → toolID, registry id →
 *                                    toolID (what the tools hold unique; catalog:indexed once built)
 * catalog:brev                       hash: bundleID → the revision the bundle last changed at
 * catalog:usage:count, catalog:usage:last    hashes by toolID: call counts, last call times
 * catalog:events                     pub/sub channel of the events, for the other servers
 * ```
 *
 * Writes are one Lua script: it checks that the store is the one this process loaded
 * (`catalog:epoch`) and that `catalog:rev` is still the position the decision was made at, then
 * writes the records, their registry views (`tool:<id>`, `tools:registry`), the journal entries
 * and the new position, atomically. If another server wrote in between, the script refuses and the
 * decision is made again on the new state (optimistic concurrency), so `<slug, version>`
 * uniqueness holds across servers, and a record and its registry view never disagree. A decision
 * that only creates tools is checked more narrowly: what they hold unique is free
 * (`catalog:keys`, `catalog:rids`) and their bundles did not change since (`catalog:brev`), so
 * servers writing different tools do not refuse each other. A process's own writes queue for the
 * script one at a time (they would only refuse each other).
 *
 * Other servers follow incrementally: a sync reads `catalog:rev` and `catalog:epoch` (one round
 * trip), then only the journal entries past its position and the records they name. When the
 * epoch is gone (`FLUSHALL`) the sync says `wiped`, and the catalog starts again from an empty
 * store (see synced-state.ts).
 *
 * A store laid out by an earlier release (records at `tool:<toolID>` in `tools:registry`) is moved
 * under `catalog:` when opened, and the registry views are written then.
 *
 * The client is `@redis/client`, the client of node-redis (the `redis` package adds modules for
 * Redis Stack that gramkit does not use).
 */
import { createClient } from '@redis/client';
import { createHash } from 'node:crypto';
import { callId } from '../../core/call-id.js';
import type { JsonObject } from '../../core/json-schema.js';
import {
  type CatalogBackend,
  type Committed,
  type Decision,
  type JournalChanges,
  type LoadedRecords,
  type RecordKind,
  type RecordRead,
  StoreError,
  type UsageDelta,
} from './backend.js';
import type { UsageCount, UsageEntry } from '../records/records.js';

type Client = ReturnType<typeof createClient>;

const GLOBAL_HISTORY = 'tools:global:usage_history';
/** An agent's history lives 30 days after its last call (one key per agent id would grow forever). */
const AGENT_HISTORY_TTL_S = 30 * 24 * 3600;
/**
 * Seed 002's key, `tools:<agent_id>:usage_history`. The agent id `global` (which would name the
 * global list) and ids that begin with `~` get a `~` before them: every agent keeps a list of its
 * own, and every other id its key to the letter.
 */
const agentHistoryKey = (agentId: string): string => `tools:${agentId === 'global' || agentId.startsWith('~') ? `~${agentId}` : agentId}:usage_history`;

const TOOLS = 'catalog:tools';
const BUNDLES = 'catalog:bundles';
const REV = 'catalog:rev';
const EPOCH = 'catalog:epoch';
const COUNT = 'catalog:usage:count';
const LAST = 'catalog:usage:last';
const recordKey = (kind: RecordKind, id: string): string => `catalog:${kind}:${id}`;

const JOURNAL_MAXLEN = 100_000;
const CHANNEL = 'catalog:events';
const MAX_RETRIES = 100;

/**
 * ARGV: epoch, maxlen, the number of decisions, then per decision: basedOn, keyed ('1'), n, then
 * per write: kind, id, json ('' deletes), view id ('' none), view json ('' deletes), unique key,
 * registry id, bundle ('' none). Returns {-2} when the store was wiped, else {rev at the start, then
 * per decision: the revision after its writes, or -1 (refused: decide again)}.
 *
 * Each decision is checked, then written, in order (a later one sees what an earlier one wrote):
 * against the store's revision, or, when it is `keyed` (new tools only) and the store is
 * indexed, against what it holds unique (its tools' ids are not stored; `catalog:keys`:
 * `<bundle> <slug> <version>` → toolID; `catalog:rids`: registry id → toolID) and the revision its
 * bundles last changed at (`catalog:brev`): writes to other tools do not refuse it, it may be
 * decided without a sync first (`checksKeyed`), and the keyed decisions waiting in a process go
 * together in one call (group commit).
 *
 * Sent as text the first time, then by its SHA-1 (`EVALSHA`, see `script`).
 */
const COMMIT = `
if redis.call('GET', 'catalog:epoch') ~= ARGV[1] then return {-2} end
local maxlen = ARGV[2]
local rev = tonumber(redis.call('GET', 'catalog:rev') or '0')
local out = {rev}
local indexed = redis.call('EXISTS', 'catalog:indexed') == 1
local i = 4
for d = 1, tonumber(ARGV[3]) do
  local based = tonumber(ARGV[i])
  local keyed = ARGV[i + 1] == '1' and indexed
  local n = tonumber(ARGV[i + 2])
  i = i + 3
  local ok = rev == based or keyed
  local k = i
  for j = 1, n do
    if ok and ARGV[k] == 'tool' and ARGV[k + 2] ~= '' then
      local id = ARGV[k + 1]
      if keyed and redis.call('EXISTS', 'catalog:tool:' .. id) == 1 then ok = false end
      if ok and ARGV[k + 5] ~= '' then
        local h = redis.call('HGET', 'catalog:keys', ARGV[k + 5])
        if h and h ~= id then ok = false end
      end
      if ok and ARGV[k + 6] ~= '' then
        local h = redis.call('HGET', 'catalog:rids', ARGV[k + 6])
        if h and h ~= id then ok = false end
      end
      if ok and keyed and ARGV[k + 7] ~= '' then
        if tonumber(redis.call('HGET', 'catalog:brev', ARGV[k + 7]) or '0') > based then ok = false end
      end
    end
    k = k + 8
  end
  if not ok then
    out[#out + 1] = -1
    i = i + 8 * n
  else
    for j = 1, n do
      local kind = ARGV[i]
      local id = ARGV[i + 1]
      local json = ARGV[i + 2]
      local view = ARGV[i + 3]
      local viewJson = ARGV[i + 4]
      local ukey = ARGV[i + 5]
      local urid = ARGV[i + 6]
      i = i + 8
      local set = 'catalog:bundles'
      if kind == 'tool' then set = 'catalog:tools' end
      if json == '' then
        redis.call('DEL', 'catalog:' .. kind .. ':' .. id)
        redis.call('SREM', set, id)
        if kind == 'tool' then
          redis.call('HDEL', 'catalog:usage:count', id)
          redis.call('HDEL', 'catalog:usage:last', id)
          if ukey ~= '' and redis.call('HGET', 'catalog:keys', ukey) == id then redis.call('HDEL', 'catalog:keys', ukey) end
          if urid ~= '' and redis.call('HGET', 'catalog:rids', urid) == id then redis.call('HDEL', 'catalog:rids', urid) end
        end
      else
        redis.call('SET', 'catalog:' .. kind .. ':' .. id, json)
        redis.call('SADD', set, id)
        if ukey ~= '' then redis.call('HSET', 'catalog:keys', ukey, id) end
        if urid ~= '' then redis.call('HSET', 'catalog:rids', urid, id) end
      end
      if view ~= '' then
        if viewJson == '' then
          redis.call('DEL', 'tool:' .. view)
          redis.call('SREM', 'tools:registry', view)
        else
          redis.call('SET', 'tool:' .. view, viewJson)
          redis.call('SADD', 'tools:registry', view)
        end
      end
      rev = rev + 1
      if kind == 'bundle' then redis.call('HSET', 'catalog:brev', id, rev) end
      redis.call('XADD', 'catalog:journal', 'MAXLEN', '~', maxlen, rev .. '-1', 'k', kind, 'i', id)
    end
    out[#out + 1] = rev
  end
end
redis.call('SET', 'catalog:rev', tostring(rev))
return out
`;

/** Indexes what the stored tools hold unique (`catalog:keys`, `catalog:rids`), once per store: a store written before the index existed. */
const INDEX = `
if redis.call('EXISTS', 'catalog:indexed') == 1 then return 0 end
for _, id in ipairs(redis.call('SMEMBERS', 'catalog:tools')) do
  local v = redis.call('GET', 'catalog:tool:' .. id)
  if v then
    local ok, r = pcall(cjson.decode, v)
    if ok and type(r) == 'table' and type(r.bundleID) == 'string' and type(r.slug) == 'string' and type(r.version) == 'string' then
      redis.call('HSET', 'catalog:keys', r.bundleID .. ' ' .. r.slug .. ' ' .. r.version, id)
      if type(r.registryId) == 'string' then redis.call('HSET', 'catalog:rids', r.registryId, id) end
    end
  end
end
redis.call('SET', 'catalog:indexed', '1')
return 1
`;

/**
 * Moves a store laid out by an earlier release (records at tool:<toolID>, bundle:<id>) under
 * catalog:, once; returns the number of tools moved (-1: nothing to move).
 */
const MIGRATE = `
if redis.call('EXISTS', 'catalog:tools') == 1 or redis.call('EXISTS', 'catalog:bundles') == 1 then return -1 end
if redis.call('EXISTS', 'bundles:registry') == 0 then return -1 end
local n = 0
for _, id in ipairs(redis.call('SMEMBERS', 'tools:registry')) do
  local v = redis.call('GET', 'tool:' .. id)
  if v and string.find(v, '"toolID"', 1, true) then
    redis.call('SET', 'catalog:tool:' .. id, v)
    redis.call('DEL', 'tool:' .. id)
    redis.call('SREM', 'tools:registry', id)
    redis.call('SADD', 'catalog:tools', id)
    n = n + 1
  end
end
for _, id in ipairs(redis.call('SMEMBERS', 'bundles:registry')) do
  local v = redis.call('GET', 'bundle:' .. id)
  if v then
    redis.call('SET', 'catalog:bundle:' .. id, v)
    redis.call('DEL', 'bundle:' .. id)
    redis.call('SADD', 'catalog:bundles', id)
  end
end
redis.call('DEL', 'bundles:registry')
if redis.call('EXISTS', 'tools:usage:count') == 1 then redis.call('RENAME', 'tools:usage:count', 'catalog:usage:count') end
if redis.call('EXISTS', 'tools:usage:last') == 1 then redis.call('RENAME', 'tools:usage:last', 'catalog:usage:last') end
return n
`;

/**
 * One flush of usage, in one script call (by its SHA-1, see `script`). ARGV: the history cap, the
 * agents' histories' TTL, the number of tools, then per tool: toolID, calls, last call time; then
 * per history list: its key, the number of entries, the entries (oldest first). Counts add up, a
 * last call time only moves forward, each list gets its entries at its head and is capped, and
 * an agent's list expires `ttl` after its last call (the global one never).
 */
const USAGE = `
local cap = tonumber(ARGV[1])
local ttl = ARGV[2]
local i = 4
for d = 1, tonumber(ARGV[3]) do
  local id = ARGV[i]
  redis.call('HINCRBY', 'catalog:usage:count', id, ARGV[i + 1])
  local old = redis.call('HGET', 'catalog:usage:last', id)
  if (not old) or old < ARGV[i + 2] then redis.call('HSET', 'catalog:usage:last', id, ARGV[i + 2]) end
  i = i + 3
end
while i <= #ARGV do
  local key = ARGV[i]
  local last = i + 1 + tonumber(ARGV[i + 1])
  for j = i + 2, last, 1000 do redis.call('LPUSH', key, unpack(ARGV, j, math.min(j + 999, last))) end
  redis.call('LTRIM', key, 0, cap - 1)
  if key ~= '${GLOBAL_HISTORY}' then redis.call('EXPIRE', key, ttl) end
  i = last + 1
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

/** How long a command waits for Redis's reply before it fails (the client's own default). */
const COMMAND_TIMEOUT_MS = 5000;
/** A command's options: no timeout of the client's (`command` keeps its own). */
const NO_CLIENT_TIMEOUT = { timeout: 0 };

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
  /**
   * The commands waiting for a reply, each failed once it waited 5 seconds (a Redis that
   * stopped answering: a 503, not a request that hangs). One timer for all of them, checking every
   * second, instead of the client's own timeout (an `AbortSignal.timeout` and its listeners per
   * command: about a tenth of a REST write's CPU).
   */
  const unanswered = new Set<{ readonly at: number; readonly reject: (e: Error) => void }>();
  const watchdog = setInterval(() => {
    const now = Date.now();
    for (const w of unanswered)
      if (now - w.at >= COMMAND_TIMEOUT_MS) {
        unanswered.delete(w);
        w.reject(new Error(`no reply in ${COMMAND_TIMEOUT_MS} ms`));
      }
  }, 1000);
  watchdog.unref();
  const command = (args: ReadonlyArray<string>): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const w = { at: Date.now(), reject };
      unanswered.add(w);
      client.sendCommand([...args], NO_CLIENT_TIMEOUT).then(
        (v) => {
          unanswered.delete(w);
          resolve(v);
        },
        (e: unknown) => {
          unanswered.delete(w);
          reject(e);
        },
      );
    });
  /**
   * Runs a Lua script by its SHA-1 (`EVALSHA`: a write sends its arguments, not the script); the
   * first time, and again after Redis forgot it (a restart, `SCRIPT FLUSH`), as text (`EVAL`
   * caches it).
   */
  const script = (source: string): ((args: ReadonlyArray<string>) => Promise<unknown>) => {
    const sha = createHash('sha1').update(source).digest('hex');
    let loaded = false;
    return async (args) => {
      if (loaded) {
        try {
          return await command(['EVALSHA', sha, '0', ...args]);
        } catch (e) {
          if (!String((e as Error).message).startsWith('NOSCRIPT')) throw e;
        }
      }
      const r = await command(['EVAL', source, '0', ...args]);
      loaded = true;
      return r;
    };
  };
  const commit = script(COMMIT);
  /** The identity of the store this process loaded (see `catalog:epoch`). */
  let epoch = '';

  const readRecords = async (kind: RecordKind, ids: ReadonlyArray<string>): Promise<RecordRead[]> => {
    const batches: Array<ReadonlyArray<string>> = [];
    for (let i = 0; i < ids.length; i += 1000) batches.push(ids.slice(i, i + 1000));
    // the batches are pipelined: one round trip's wait for all of them
    const replies = (await Promise.all(batches.map((batch) => command(['MGET', ...batch.map((id) => recordKey(kind, id))])))) as ReadonlyArray<
      ReadonlyArray<string | null>
    >;
    const out: RecordRead[] = [];
    batches.forEach((batch, b) => {
      const values = replies[b] ?? [];
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
    });
    return out;
  };

  const load = (): Promise<LoadedRecords> =>
    call('load the catalog', async () => {
      const moved = Number(await command(['EVAL', MIGRATE, '0']));
      await command(['EVAL', INDEX, '0']);
      await command(['SET', EPOCH, callId(), 'NX']);
      const [rev, e] = (await command(['MGET', REV, EPOCH])) as ReadonlyArray<string | null>;
      epoch = e ?? '';
      const records: RecordRead[] = [];
      for (const kind of ['bundle', 'tool'] as const) {
        const ids = (await command(['SMEMBERS', kind === 'tool' ? TOOLS : BUNDLES])) as ReadonlyArray<string>;
        records.push(...(await readRecords(kind, ids)).filter((r) => r.json !== undefined));
      }
      return { records, cursor: String(Number(rev ?? 0)), ...(moved > 0 ? { missingViews: true } : {}) };
    });

  const changesSince = (cursor: string): Promise<JournalChanges> =>
    call('read the journal', async () => {
      const from = Number(cursor);
      const [rev, e] = (await command(['MGET', REV, EPOCH])) as ReadonlyArray<string | null>;
      if (e !== epoch) return { reset: true, wiped: true };
      const now = Number(rev ?? 0);
      if (now === from) return { reset: false, changes: [], cursor };
      if (now < from) return { reset: true };
      const entries = (await command(['XRANGE', 'catalog:journal', `${from + 1}-0`, '+'])) as ReadonlyArray<readonly [string, ReadonlyArray<string>]>;
      const first = entries[0];
      if (first === undefined || Number(first[0].split('-')[0]) !== from + 1) return { reset: true };
      const byKind = new Map<RecordKind, Set<string>>([
        ['bundle', new Set()],
        ['tool', new Set()],
      ]);
      let last = from;
      for (const [id, fields] of entries) {
        last = Number(id.split('-')[0]);
        const kind = fields[1] === 'bundle' ? 'bundle' : 'tool';
        byKind.get(kind)?.add(fields[3] as string);
      }
      const changes = [...(await readRecords('bundle', [...(byKind.get('bundle') ?? [])])), ...(await readRecords('tool', [...(byKind.get('tool') ?? [])]))];
      return { reset: false, changes, cursor: String(last) };
    });

  /** The script's arguments for these decisions. */
  const commitArgs = (decisions: ReadonlyArray<Decision<unknown>>): string[] => {
    const args = [epoch, String(JOURNAL_MAXLEN), String(decisions.length)];
    for (const decision of decisions) {
      args.push(decision.basedOn, decision.keyed === true ? '1' : '0', String(decision.writes.length));
      for (const w of decision.writes) {
        args.push(w.kind, w.id, w.record === undefined ? '' : JSON.stringify(w.record));
        args.push(w.registry?.id ?? '', w.registry?.record === undefined ? '' : JSON.stringify(w.registry.record));
        args.push(w.unique?.key ?? '', w.unique?.registryId ?? '', w.unique?.bundleID ?? '');
      }
    }
    return args;
  };

  /**
   * Commits decisions in one script call: for each, what it committed, or `undefined` when it was
   * refused (decide again). A decision is contiguous when the store was at its `basedOn` when the
   * call began: the writes since are this call's, which the caller applies in order.
   */
  const commitAll = async <A>(decisions: ReadonlyArray<Decision<A>>): Promise<ReadonlyArray<Committed<A> | undefined>> => {
    const reply = ((await call('write', () => commit(commitArgs(decisions)))) as ReadonlyArray<number>).map(Number);
    const start = reply[0] as number;
    // wiped (-2): every decision is made again, the body's sync starting from the empty store
    if (start < 0) return decisions.map(() => undefined);
    return decisions.map((d, i) => {
      const r = reply[i + 1] as number;
      if (r < 0) return undefined;
      return start === Number(d.basedOn) ? { result: d.result, cursor: String(r) } : { result: d.result, behind: true };
    });
  };

  /** One body, decided and committed until the store takes it (another server wrote first: decide again). */
  const attempt = async <A>(body: () => Promise<Decision<A>>, first?: Decision<A>): Promise<Committed<A>> => {
    for (let n = 0; n < MAX_RETRIES; n++) {
      const decision = n === 0 && first !== undefined ? first : await body();
      if (decision.writes.length === 0) return { result: decision.result };
      const [committed] = await commitAll([decision]);
      if (committed !== undefined) return committed;
      await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * Math.min(50, 2 ** n))));
    }
    throw new StoreError(`Redis at ${location}: the write kept conflicting with other servers' writes (${MAX_RETRIES} attempts)`);
  };

  interface Waiting {
    readonly body: () => Promise<Decision<unknown>>;
    readonly resolve: (c: Committed<unknown>) => void;
    readonly reject: (e: unknown) => void;
  }
  /** Bodies waiting while a commit is in flight (this process's writes would only refuse each other). */
  const waiting: Waiting[] = [];
  let running = false;

  /**
   * The waiting bodies, decided in order; the keyed decisions among them committed together in one
   * script call (group commit: one round trip for all the writes that queued meanwhile), each
   * other one alone. Resolved in order, so their callers apply them in order.
   */
  const runGroup = async (group: ReadonlyArray<Waiting>): Promise<void> => {
    const keyed: Array<{ readonly w: Waiting; readonly d: Decision<unknown> }> = [];
    const alone: Array<{ readonly w: Waiting; readonly d?: Decision<unknown> }> = [];
    for (const w of group) {
      try {
        const d = await w.body();
        if (d.writes.length === 0) w.resolve({ result: d.result });
        else if (d.keyed === true) keyed.push({ w, d });
        else alone.push({ w, d });
      } catch (e) {
        w.reject(e);
      }
    }
    if (keyed.length > 0) {
      try {
        const results = await commitAll(keyed.map((k) => k.d));
        keyed.forEach((k, i) => {
          const c = results[i];
          if (c !== undefined) k.w.resolve(c);
          else alone.push({ w: k.w });
        });
      } catch (e) {
        for (const k of keyed) k.w.reject(e);
      }
    }
    // decided before the group's writes landed: a refused one is decided again
    for (const a of alone) await attempt(a.w.body, a.d).then(a.w.resolve, a.w.reject);
  };

  const transact = <A>(body: () => Promise<Decision<A>>): Promise<Committed<A>> =>
    new Promise<Committed<A>>((resolve, reject) => {
      waiting.push({ body, resolve: resolve as (c: Committed<unknown>) => void, reject });
      if (running) return;
      running = true;
      void (async () => {
        while (waiting.length > 0) await runGroup(waiting.splice(0));
        running = false;
      })();
    });

  const writeViews = (views: ReadonlyArray<{ readonly id: string; readonly record: JsonObject }>): Promise<void> =>
    call('write the registry views', async () => {
      for (let i = 0; i < views.length; i += 1000) {
        const m = client.multi();
        const batch = views.slice(i, i + 1000);
        for (const v of batch) m.addCommand(['SET', `tool:${v.id}`, JSON.stringify(v.record)]);
        if (batch.length > 0) m.addCommand(['SADD', 'tools:registry', ...batch.map((v) => v.id)]);
        await m.exec();
      }
    });

  const usage = script(USAGE);
  const recordUsage = (deltas: ReadonlyArray<UsageDelta>, entries: ReadonlyArray<UsageEntry>, cap: number): Promise<void> =>
    call('record usage', async () => {
      if (deltas.length === 0 && entries.length === 0) return;
      const args = [String(cap), String(AGENT_HISTORY_TTL_S), String(deltas.length)];
      for (const d of deltas) args.push(d.toolID, String(d.calls), d.lastCalledAt);
      const lists = new Map<string, string[]>();
      const add = (key: string, json: string): void => {
        const l = lists.get(key);
        if (l === undefined) lists.set(key, [json]);
        else l.push(json);
      };
      for (const e of entries) {
        const json = JSON.stringify(e);
        add(GLOBAL_HISTORY, json);
        if (e.agent_id !== undefined) add(agentHistoryKey(e.agent_id), json);
      }
      for (const [key, values] of lists) args.push(key, String(values.length), ...values);
      await usage(args);
    });

  const readUsage = (ids: ReadonlyArray<string>): Promise<ReadonlyMap<string, UsageCount>> =>
    call('read usage', async () => {
      const out = new Map<string, UsageCount>();
      if (ids.length === 0) return out;
      const counts = (await command(['HMGET', COUNT, ...ids])) as ReadonlyArray<string | null>;
      const last = (await command(['HMGET', LAST, ...ids])) as ReadonlyArray<string | null>;
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
    checksKeyed: true,
    load,
    changesSince,
    transact,
    recordUsage,
    readUsage,
    readHistory,
    writeViews,
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
      clearInterval(watchdog);
      if (subscriber?.isOpen === true) await subscriber.close().catch(() => undefined);
      if (client.isOpen) await client.close().catch(() => undefined);
    },
  };
};
