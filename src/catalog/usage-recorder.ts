/**
 * Usage of tools, recorded off the response path (a call never waits for its usage to be written):
 * a call adds to counters and a history list in memory, written to the store a moment later in one
 * batch. Reads add what is still pending, so a process sees its own calls at once. When the store
 * is down, counts are kept for the next flush and the history is bounded.
 */
import type { ToolResult } from '../library/result.js';
import type { CatalogBackend } from './stores/backend.js';
import { NO_USAGE, type ToolRecord, type UsageCount, type UsageEntry } from './records/records.js';
import { registryIdOf } from './records/registry-json.js';

/** History entries kept in memory until the next flush (past it, only those a history keeps). */
const PENDING_ENTRIES = 10_000;

/** A call as it is counted, made into a history entry at the flush (when a history keeps it). */
class PendingCall {
  constructor(
    readonly ts: string,
    readonly tool: ToolRecord,
    /** The failure's codes (not the result: a value may be large, and waits here until the flush). */
    readonly code: string | undefined,
    readonly reason: string | undefined,
    readonly durationMs: number,
    readonly agentId: string | undefined,
    readonly projectId: string | undefined,
  ) {}

  entry(): UsageEntry {
    const t = this.tool;
    return {
      ts: this.ts,
      type: 'invoke',
      tool: registryIdOf(t),
      toolID: t.toolID,
      ok: this.code === undefined,
      ...(this.code === undefined ? {} : { code: this.code, reason: this.reason }),
      durationMs: Math.round(this.durationMs * 1000) / 1000,
      ...(this.agentId !== undefined ? { agent_id: this.agentId } : {}),
      ...(this.projectId !== undefined ? { project_id: this.projectId } : {}),
    };
  }
}

/**
 * The calls some history keeps, oldest first: the last `cap` of all, and the last `cap` of each
 * agent. The others would be trimmed from every history at once, so they are never written (at
 * thousands of calls a second most of a flush's calls are such).
 */
export const keptCalls = <C extends { readonly agentId: string | undefined }>(calls: ReadonlyArray<C>, cap: number): C[] => {
  if (calls.length <= cap) return [...calls];
  const perAgent = new Map<string, number>();
  const kept: C[] = [];
  for (let i = calls.length - 1; i >= 0; i--) {
    const c = calls[i] as C;
    let keep = calls.length - 1 - i < cap;
    if (c.agentId !== undefined) {
      const n = perAgent.get(c.agentId) ?? 0;
      perAgent.set(c.agentId, n + 1);
      keep ||= n < cap;
    }
    if (keep) kept.push(c);
  }
  return kept.reverse();
};

export class UsageRecorder {
  private pending = new Map<string, { calls: number; last: string }>();
  private calls: PendingCall[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly backend: CatalogBackend,
    private readonly options: { readonly historyCap: number; readonly flushMs: number; readonly now: () => string },
  ) {}

  /** Counts a call and adds it to the histories (the global one, and its agent's). */
  record(t: ToolRecord, result: ToolResult, durationMs: number, agentId: string | undefined, projectId: string | undefined): void {
    if (this.closed) return;
    const ts = this.options.now();
    const p = this.pending.get(t.toolID);
    if (p === undefined) this.pending.set(t.toolID, { calls: 1, last: ts });
    else {
      p.calls++;
      if (ts > p.last) p.last = ts;
    }
    this.calls.push(
      result.ok
        ? new PendingCall(ts, t, undefined, undefined, durationMs, agentId, projectId)
        : new PendingCall(ts, t, result.error.code, String(result.error.reason), durationMs, agentId, projectId),
    );
    // bounded while the store is away: first what no history keeps, then the oldest half
    if (this.calls.length > PENDING_ENTRIES) {
      this.calls = keptCalls(this.calls, this.options.historyCap);
      if (this.calls.length > PENDING_ENTRIES / 2) this.calls.splice(0, this.calls.length - PENDING_ENTRIES / 2);
    }
    if (this.timer === undefined) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        void this.flush();
      }, this.options.flushMs);
      this.timer.unref?.();
    }
  }

  /** Writes what is pending to the store. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (this.pending.size === 0 && this.calls.length === 0) return;
      const pending = this.pending;
      const calls = keptCalls(this.calls, this.options.historyCap);
      this.pending = new Map();
      this.calls = [];
      try {
        await this.backend.recordUsage(
          [...pending].map(([toolID, p]) => ({ toolID, calls: p.calls, lastCalledAt: p.last })),
          calls.map((c) => c.entry()),
          this.options.historyCap,
        );
      } catch {
        // the store is away: keep the counts for the next flush, and a bounded history
        for (const [id, p] of pending) {
          const q = this.pending.get(id);
          this.pending.set(id, q === undefined ? p : { calls: q.calls + p.calls, last: q.last > p.last ? q.last : p.last });
        }
        this.calls = [...calls, ...this.calls].slice(-PENDING_ENTRIES);
      }
    });
    return this.flushing;
  }

  /** Stored usage plus what is pending. */
  async usageOf(ids: ReadonlyArray<string>): Promise<ReadonlyMap<string, UsageCount>> {
    let stored: ReadonlyMap<string, UsageCount>;
    try {
      stored = ids.length === 0 ? new Map() : await this.backend.readUsage(ids);
    } catch {
      stored = new Map();
    }
    const out = new Map<string, UsageCount>();
    for (const id of ids) {
      const s = stored.get(id) ?? NO_USAGE;
      const p = this.pending.get(id);
      out.set(
        id,
        p === undefined ? s : { callCount: s.callCount + p.calls, lastCalledAt: s.lastCalledAt !== null && s.lastCalledAt > p.last ? s.lastCalledAt : p.last },
      );
    }
    return out;
  }

  /** The newest entries of an agent's history (or the global one), everything pending included. */
  async history(agentId: string | undefined, limit: number): Promise<ReadonlyArray<UsageEntry>> {
    await this.flush();
    return this.backend.readHistory(agentId, Math.min(Math.max(1, Math.floor(limit)), this.options.historyCap));
  }

  async close(): Promise<void> {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    await this.flush();
    this.closed = true;
  }
}
