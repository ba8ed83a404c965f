/**
 * The approval queue (`approvalQueue` of gramkit/policy): a call waits until a person decides, the
 * timeout or the call's signal refuses it, or the queue closes; at most `maxPending` wait. A manual
 * clock and scheduler stand in for time, so nothing here waits. The property runs random sequences
 * of requests, decisions, timeouts, aborts and a close against a model of what each call must get.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { approvalQueue, passGate, type ApprovalEvent, type ApprovalQueue, type ApprovalRequest, type ApprovalResponse } from '../../src/entries/policy.js';

/** A scheduler run by hand: `fire(k)` runs the k-th timer still set. */
const manualTime = () => {
  let t = Date.UTC(2026, 0, 1);
  const timers: Array<{ f: () => void; at: number; live: boolean }> = [];
  return {
    now: () => t,
    schedule: (f: () => void, ms: number) => {
      const timer = { f, at: t + ms, live: true };
      timers.push(timer);
      return () => void (timer.live = false);
    },
    /** Moves the clock to the earliest live timer and runs it. */
    fireNext: () => {
      const next = timers.filter((x) => x.live).sort((a, b) => a.at - b.at)[0];
      if (next === undefined) return false;
      t = next.at;
      next.live = false;
      next.f();
      return true;
    },
    live: () => timers.filter((x) => x.live).length,
  };
};

const request = (n: number): ApprovalRequest => ({
  stepId: `step-${n}`,
  tool: 'write_file',
  args: { path: `f${n}.txt`, content: String(n) },
  reason: 'write_file asks for approval of this call: it would overwrite an existing file',
});

/** Resolves to the response, or `undefined` if the promise is still pending after the microtasks run. */
const settled = async <A>(p: Promise<A>): Promise<A | undefined> => {
  let out: A | undefined;
  void p.then((v) => (out = v));
  for (let i = 0; i < 5; i++) await Promise.resolve();
  return out;
};

describe('the approval queue', () => {
  it('holds a call until a person approves it, with changed arguments, and tells listeners', async () => {
    const time = manualTime();
    const q = approvalQueue({ now: time.now, schedule: time.schedule });
    const events: ApprovalEvent[] = [];
    q.subscribe((e) => events.push(e));
    const answer = q.ask(request(1), { caller: { via: 'rest', agentId: 'agent-7' } });
    expect(await settled(answer)).toBeUndefined();
    const [p] = q.pending();
    expect(p).toMatchObject({
      tool: 'write_file',
      args: { path: 'f1.txt', content: '1' },
      stepId: 'step-1',
      caller: { via: 'rest', agentId: 'agent-7' },
      requestedAt: '2026-01-01T00:00:00.000Z',
      expiresAt: '2026-01-01T00:05:00.000Z',
    });
    const decided = q.decide(p!.id, { approved: true, modifiedArgs: { path: 'f1.txt', content: 'changed' } });
    expect(decided.ok).toBe(true);
    expect(await answer).toEqual({ approved: true, modifiedArgs: { path: 'f1.txt', content: 'changed' } });
    expect(q.pending()).toEqual([]);
    expect(time.live()).toBe(0);
    expect(events.map((e) => e.type)).toEqual(['approval_requested', 'approval_decided']);
    expect(events[1]).toMatchObject({ approvalId: p!.id, outcome: 'approved', argsChanged: true, tool: 'write_file', caller: { agentId: 'agent-7' } });
    expect(JSON.stringify(events[0])).not.toContain('f1.txt');
    // a second decision is told how the approval ended; an unknown id is unknown
    expect(q.decide(p!.id, { approved: false })).toEqual({ ok: false, error: { kind: 'ended', id: p!.id, outcome: 'approved' } });
    expect(q.decide('nope', { approved: true })).toEqual({ ok: false, error: { kind: 'unknown', id: 'nope' } });
  });

  it('a denial passes its message on; without one it says a person refused', async () => {
    const q = approvalQueue();
    const a = q.ask(request(1));
    const b = q.ask(request(2));
    const [pa, pb] = q.pending();
    q.decide(pa!.id, { approved: false, message: 'not that file' });
    q.decide(pb!.id, { approved: false });
    expect(await a).toEqual({ approved: false, message: 'not that file' });
    expect(await b).toEqual({ approved: false, message: 'a person refused the call' });
    q.close();
  });

  it('the timeout refuses the call and takes it off the list', async () => {
    const time = manualTime();
    const q = approvalQueue({ now: time.now, schedule: time.schedule, timeoutMs: 90_000 });
    const events: ApprovalEvent[] = [];
    q.subscribe((e) => events.push(e));
    const answer = q.ask(request(1));
    const id = q.pending()[0]!.id;
    expect(time.fireNext()).toBe(true);
    expect(await answer).toEqual({ approved: false, message: 'no one approved the call within 90 seconds, so it was refused' });
    expect(q.pending()).toEqual([]);
    expect(events[1]).toMatchObject({ type: 'approval_decided', outcome: 'expired', argsChanged: false });
    expect(q.decide(id, { approved: true })).toEqual({ ok: false, error: { kind: 'ended', id, outcome: 'expired' } });
  });

  it("the call's signal refuses it and takes it off the list; an aborted signal is never queued", async () => {
    const q = approvalQueue();
    const c = new AbortController();
    const answer = q.ask(request(1), { signal: c.signal });
    expect(q.pending()).toHaveLength(1);
    c.abort();
    expect(await answer).toEqual({ approved: false, message: 'the call was cancelled while it waited for approval' });
    expect(q.pending()).toEqual([]);
    expect((await q.ask(request(2), { signal: c.signal })).approved).toBe(false);
    expect(q.pending()).toEqual([]);
  });

  it('is bounded: one call over maxPending is refused at once, saying so', async () => {
    const q = approvalQueue({ maxPending: 2 });
    void q.ask(request(1));
    void q.ask(request(2));
    expect(await q.ask(request(3))).toEqual({
      approved: false,
      message: '2 calls are already waiting for approval, the most this server holds; try again once some are decided',
    });
    expect(q.pending().map((p) => p.stepId)).toEqual(['step-1', 'step-2']);
    q.close();
    expect(q.pending()).toEqual([]);
    expect((await q.ask(request(4))).message).toContain('stopping');
  });

  it('a listener that throws breaks nothing', async () => {
    const q = approvalQueue();
    q.subscribe(() => {
      throw new Error('listener bug');
    });
    const answer = q.ask(request(1));
    q.decide(q.pending()[0]!.id, { approved: true });
    expect(await answer).toEqual({ approved: true });
  });

  it("is an Approver the gate uses: a person's changes are validated and judged again by the gate", async () => {
    const q = approvalQueue();
    const schema = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false } as const;
    const call = { tool: 'delete_file', args: { path: 'a.txt' }, annotations: { approval: 'confirm' as const }, schema };
    const first = passGate(call, { policies: {}, approver: q.ask });
    while (q.pending().length === 0) await Promise.resolve();
    q.decide(q.pending()[0]!.id, { approved: true, modifiedArgs: { path: 'b.txt' } });
    expect(await first).toMatchObject({ args: { path: 'b.txt' }, approval: { approved: true, requestedArgs: { path: 'a.txt' } } });
    const second = passGate(call, { policies: {}, approver: q.ask });
    while (q.pending().length === 0) await Promise.resolve();
    q.decide(q.pending()[0]!.id, { approved: true, modifiedArgs: { where: 1 } });
    expect((await second).refused?.error.reason).toBe('TOOL_INVALID_ARGUMENTS');
  });
});

// -------------------------------------------------------------------------------------------------
// the property: random sequences against a model
// -------------------------------------------------------------------------------------------------

type Op =
  | { readonly kind: 'ask'; readonly withSignal: boolean }
  | { readonly kind: 'approve' | 'deny' | 'abort'; readonly pick: number; readonly changed: boolean }
  | { readonly kind: 'expire' }
  | { readonly kind: 'decideUnknown' };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('ask' as const), withSignal: fc.boolean() }),
  fc.record({ kind: fc.constantFrom('approve' as const, 'deny' as const, 'abort' as const), pick: fc.nat(20), changed: fc.boolean() }),
  fc.constant({ kind: 'expire' as const }),
  fc.constant({ kind: 'decideUnknown' as const }),
);

interface Call {
  readonly n: number;
  readonly answer: Promise<ApprovalResponse>;
  readonly controller?: AbortController;
  /** What the model says the call gets: undefined while it waits. */
  expected?: { readonly approved: boolean; readonly modifiedArgs?: unknown; readonly message?: RegExp };
  id?: string;
}

describe('the approval queue, as a property', () => {
  it('every call gets exactly the answer its fate says; the list is the calls still waiting, in order, never more than maxPending', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 40 }), fc.integer({ min: 1, max: 5 }), fc.boolean(), async (ops, maxPending, closeAtEnd) => {
        const time = manualTime();
        const q: ApprovalQueue = approvalQueue({ now: time.now, schedule: time.schedule, maxPending });
        const events: ApprovalEvent[] = [];
        q.subscribe((e) => events.push(e));
        const calls: Call[] = [];
        const waiting = (): Call[] => calls.filter((c) => c.expected === undefined);
        for (const o of ops) {
          if (o.kind === 'ask') {
            const n = calls.length;
            const controller = o.withSignal ? new AbortController() : undefined;
            const full = waiting().length >= maxPending;
            const call: Call = {
              n,
              answer: q.ask(request(n), controller !== undefined ? { signal: controller.signal } : {}),
              ...(controller !== undefined ? { controller } : {}),
            };
            if (full) call.expected = { approved: false, message: /already waiting/ };
            else call.id = q.pending().at(-1)?.id;
            calls.push(call);
          } else if (o.kind === 'expire') {
            const oldest = waiting()[0];
            expect(time.fireNext()).toBe(oldest !== undefined);
            if (oldest !== undefined) oldest.expected = { approved: false, message: /no one approved/ };
          } else if (o.kind === 'decideUnknown') {
            expect(q.decide('not-an-id', { approved: true }).ok).toBe(false);
          } else {
            const w = waiting();
            const target = w.length === 0 ? undefined : w[o.pick % w.length];
            if (target === undefined) continue;
            if (o.kind === 'abort') {
              if (target.controller === undefined) continue;
              target.controller.abort();
              target.expected = { approved: false, message: /cancelled/ };
            } else {
              const modifiedArgs = o.changed ? { path: `changed-${target.n}.txt` } : undefined;
              const r = q.decide(target.id as string, { approved: o.kind === 'approve', ...(modifiedArgs !== undefined ? { modifiedArgs } : {}) });
              expect(r.ok).toBe(true);
              target.expected =
                o.kind === 'approve' ? { approved: true, ...(modifiedArgs !== undefined ? { modifiedArgs } : {}) } : { approved: false, message: /refused/ };
            }
          }
          expect(q.pending().map((p) => p.stepId)).toEqual(waiting().map((c) => `step-${c.n}`));
          expect(q.pending().length).toBeLessThanOrEqual(maxPending);
        }
        if (closeAtEnd) {
          for (const c of waiting()) c.expected = { approved: false, message: /stopped/ };
          q.close();
          expect(q.pending()).toEqual([]);
          expect(time.live()).toBe(0);
        }
        for (const c of calls) {
          const got = await settled(c.answer);
          if (c.expected === undefined) {
            expect(got).toBeUndefined();
            continue;
          }
          expect(got?.approved).toBe(c.expected.approved);
          if (c.expected.modifiedArgs !== undefined) expect(got?.modifiedArgs).toEqual(c.expected.modifiedArgs);
          else expect(got?.modifiedArgs).toBeUndefined();
          if (c.expected.message !== undefined) expect(got?.message).toMatch(c.expected.message);
          // an ended approval cannot be decided again
          if (c.id !== undefined) expect(q.decide(c.id, { approved: true })).toMatchObject({ ok: false, error: { kind: 'ended' } });
        }
        // one requested event per queued call, one decided event per ended one, each once
        const queued = calls.filter((c) => c.id !== undefined);
        expect(events.filter((e) => e.type === 'approval_requested').map((e) => e.approvalId)).toEqual(queued.map((c) => c.id));
        const decidedIds = events.filter((e) => e.type === 'approval_decided').map((e) => e.approvalId);
        expect(new Set(decidedIds).size).toBe(decidedIds.length);
        expect(decidedIds.sort()).toEqual(
          queued
            .filter((c) => c.expected !== undefined)
            .map((c) => c.id)
            .sort(),
        );
        q.close();
      }),
      { numRuns: 200 },
    );
  });
});
