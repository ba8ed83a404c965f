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

/** History entries kept in memory until the next flush. */
const PENDING_ENTRIES = 10_000;

export interface CallFacts {
  readonly agentId?: string;
  readonly projectId?: string;
  readonly durationMs: number;
}

export class UsageRecorder {
  private pending = new Map<string, { calls: number; last: string }>();
  private entries: UsageEntry[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly backend: CatalogBackend,
    private readonly options: { readonly historyCap: number; readonly flushMs: number; readonly now: () => string },
  ) {}

  /** Counts a call and adds it to the histories (the global one, and its agent's). */
  record(t: ToolRecord, result: ToolResult, facts: CallFacts): void {
    if (this.closed) return;
    const ts = this.options.now();
    const p = this.pending.get(t.toolID);
    if (p === undefined) this.pending.set(t.toolID, { calls: 1, last: ts });
    else {
      p.calls++;
      if (ts > p.last) p.last = ts;
    }
    this.entries.push({
      ts,
      type: 'invoke',
      tool: registryIdOf(t),
      toolID: t.toolID,
      ok: result.ok,
      ...(result.ok ? {} : { code: result.error.code, reason: String(result.error.reason) }),
      durationMs: Math.round(facts.durationMs * 1000) / 1000,
      ...(facts.agentId !== undefined ? { agent_id: facts.agentId } : {}),
      ...(facts.projectId !== undefined ? { project_id: facts.projectId } : {}),
    });
    // bounded while the store is away (the oldest half dropped at once, not one entry per call)
    if (this.entries.length > PENDING_ENTRIES) this.entries.splice(0, PENDING_ENTRIES / 2);
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
      if (this.pending.size === 0 && this.entries.length === 0) return;
      const pending = this.pending;
      const entries = this.entries;
      this.pending = new Map();
      this.entries = [];
      try {
        await this.backend.recordUsage(
          [...pending].map(([toolID, p]) => ({ toolID, calls: p.calls, lastCalledAt: p.last })),
          entries,
          this.options.historyCap,
        );
      } catch {
        // the store is away: keep the counts for the next flush, and a bounded history
        for (const [id, p] of pending) {
          const q = this.pending.get(id);
          this.pending.set(id, q === undefined ? p : { calls: q.calls + p.calls, last: q.last > p.last ? q.last : p.last });
        }
        this.entries = [...entries, ...this.entries].slice(-PENDING_ENTRIES);
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
