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

/**
 * The indices of the calls some history keeps, oldest first: the last `cap` of all, and the last
 * `cap` of each agent. The others would be trimmed from every history at once, so they are never
 * written (at thousands of calls a second most of a flush's calls are such).
 */
export const keptIndices = (agents: ReadonlyArray<string | undefined>, cap: number): number[] => {
  const n = agents.length;
  const kept: number[] = [];
  if (n <= cap) {
    for (let i = 0; i < n; i++) kept.push(i);
    return kept;
  }
  const perAgent = new Map<string, number>();
  for (let i = n - 1; i >= 0; i--) {
    const agent = agents[i];
    let keep = n - 1 - i < cap;
    if (agent !== undefined) {
      const seen = perAgent.get(agent) ?? 0;
      perAgent.set(agent, seen + 1);
      keep ||= seen < cap;
    }
    if (keep) kept.push(i);
  }
  return kept.reverse();
};

/** The entries of `entries` some history keeps (`keptIndices`), oldest first. */
const keptEntries = (entries: ReadonlyArray<UsageEntry>, cap: number): UsageEntry[] =>
  keptIndices(
    entries.map((e) => e.agent_id),
    cap,
  ).map((i) => entries[i] as UsageEntry);

/**
 * The calls since the last flush, column by column: counting a call makes no object (objects kept
 * until the flush, one a call, were most of what usage cost a busy server). Failures keep their
 * codes, not the result (a value may be large).
 */
class CallColumns {
  readonly ts: string[] = [];
  readonly tools: ToolRecord[] = [];
  readonly codes: Array<string | undefined> = [];
  readonly reasons: Array<string | undefined> = [];
  readonly durations: number[] = [];
  readonly agents: Array<string | undefined> = [];
  readonly projects: Array<string | undefined> = [];

  get length(): number {
    return this.ts.length;
  }

  push(ts: string, t: ToolRecord, result: ToolResult, durationMs: number, agentId: string | undefined, projectId: string | undefined): void {
    this.ts.push(ts);
    this.tools.push(t);
    if (result.ok) {
      this.codes.push(undefined);
      this.reasons.push(undefined);
    } else {
      this.codes.push(result.error.code);
      this.reasons.push(String(result.error.reason));
    }
    this.durations.push(durationMs);
    this.agents.push(agentId);
    this.projects.push(projectId);
  }

  /** The history entries of the calls some history keeps, oldest first. */
  keptEntries(cap: number): UsageEntry[] {
    return keptIndices(this.agents, cap).map((i) => this.entry(i));
  }

  private entry(i: number): UsageEntry {
    const t = this.tools[i] as ToolRecord;
    const code = this.codes[i];
    const agentId = this.agents[i];
    const projectId = this.projects[i];
    return {
      ts: this.ts[i] as string,
      type: 'invoke',
      tool: registryIdOf(t),
      toolID: t.toolID,
      ok: code === undefined,
      ...(code === undefined ? {} : { code, reason: this.reasons[i] }),
      durationMs: Math.round((this.durations[i] as number) * 1000) / 1000,
      ...(agentId !== undefined ? { agent_id: agentId } : {}),
      ...(projectId !== undefined ? { project_id: projectId } : {}),
    };
  }
}

export class UsageRecorder {
  private pending = new Map<string, { calls: number; last: string }>();
  private calls = new CallColumns();
  /** Entries a flush could not write (the store was away), written first by the next. */
  private unwritten: UsageEntry[] = [];
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
    this.calls.push(ts, t, result, durationMs, agentId, projectId);
    // bounded while the store is away: only what a history keeps, then the newest half
    if (this.calls.length > PENDING_ENTRIES) this.keep(this.takeEntries());
    if (this.timer === undefined) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        void this.flush();
      }, this.options.flushMs);
      this.timer.unref?.();
    }
  }

  /** What the histories would keep of the unwritten entries and the calls since (the calls start again). */
  private takeEntries(): UsageEntry[] {
    const cap = this.options.historyCap;
    const fresh = this.calls.keptEntries(cap);
    this.calls = new CallColumns();
    const all = this.unwritten.length === 0 ? fresh : keptEntries([...this.unwritten, ...fresh], cap);
    this.unwritten = [];
    return all;
  }

  /** Keeps entries for the next flush, at most half the pending bound (the newest). */
  private keep(entries: UsageEntry[]): void {
    this.unwritten = entries.length > PENDING_ENTRIES / 2 ? entries.slice(-PENDING_ENTRIES / 2) : entries;
  }

  /** Writes what is pending to the store. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (this.pending.size === 0 && this.calls.length === 0 && this.unwritten.length === 0) return;
      const pending = this.pending;
      const entries = this.takeEntries();
      this.pending = new Map();
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
        this.keep(keptEntries([...entries, ...this.takeEntries()], this.options.historyCap));
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
