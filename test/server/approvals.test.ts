/**
 * The approval routes: a call that needs approval waits in the service's queue; `GET
 * /api/v1/approvals` lists it with its arguments, the reason and the caller; `POST …/approve` (with
 * changed arguments, which the gate judges again) and `POST …/deny` decide it; a decided or
 * unknown id is a problem; each route needs `approve_tool` under `--require-scopes`; the events
 * stream tells when an approval is requested and decided. Through `service.fetch`, no socket.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ToolCodes } from 'gramkit';
import { approvalQueue, type ApprovalQueue, PolicyCodes } from 'gramkit/policy';
import { Scopes, ServiceCodes } from 'gramkit/server';
import { type Answer, type Harness, harness, isProblem, readEvents } from './support.js';

let h: Harness | undefined;
let q: ApprovalQueue | undefined;
afterEach(async () => {
  q?.close();
  await h?.close();
  h = undefined;
  q = undefined;
});

const setUp = async (options: { readonly requireScopes?: boolean; readonly maxPending?: number } = {}): Promise<{ h: Harness; q: ApprovalQueue }> => {
  q = approvalQueue(options.maxPending !== undefined ? { maxPending: options.maxPending } : {});
  h = await harness({ approvals: q, ...(options.requireScopes === true ? { requireScopes: true } : {}) });
  writeFileSync(join(h.dir, 'notes.txt'), 'original\n');
  return { h, q };
};

/** Resolves once the queue holds `n` calls. */
const queued = (queue: ApprovalQueue, n: number): Promise<void> =>
  new Promise((resolve) => {
    if (queue.pending().length >= n) return resolve();
    const stop = queue.subscribe(() => {
      if (queue.pending().length >= n) {
        stop();
        resolve();
      }
    });
  });

const overwrite = (hh: Harness, content: string, headers: Record<string, string> = {}): Promise<Answer> =>
  hh.call('POST', '/api/v1/tools/write_file/invoke', { body: { path: 'notes.txt', content }, headers: { 'x-agent-id': 'agent-7', ...headers } });

describe('the approval routes', () => {
  it('a held call is listed with its arguments, reason and caller; approved with changed arguments, it runs with them', async () => {
    const { h, q } = await setUp();
    const call = overwrite(h, 'from the agent');
    await queued(q, 1);
    const list = await h.call('GET', '/api/v1/approvals');
    expect(list.status).toBe(200);
    expect(list.json).toMatchObject({ enabled: true, timeoutMs: 300_000, maxPending: 100 });
    const [pending] = list.json.approvals;
    expect(pending).toMatchObject({ tool: 'write_file', args: { path: 'notes.txt', content: 'from the agent' }, caller: { via: 'rest', agentId: 'agent-7' } });
    expect(pending.reason).toContain('overwrite an existing file');
    const approved = await h.call('POST', `/api/v1/approvals/${pending.id}/approve`, {
      body: { args: { path: 'notes.txt', content: 'as the person wrote it' } },
    });
    expect(approved.status, approved.text).toBe(200);
    expect(approved.json).toMatchObject({ outcome: 'approved', approval: { id: pending.id } });
    const result = await call;
    expect(result.status, result.text).toBe(200);
    expect(result.json.ok).toBe(true);
    expect(readFileSync(join(h.dir, 'notes.txt'), 'utf8')).toBe('as the person wrote it');
    expect((await h.call('GET', '/api/v1/approvals')).json.approvals).toEqual([]);
    // decided: a second decision is a conflict saying how it ended; an unknown id is not found
    const again = await h.call('POST', `/api/v1/approvals/${pending.id}/deny`, { body: {} });
    isProblem(again, 409, ServiceCodes.APPROVAL_ENDED);
    expect(again.json.outcome).toBe('approved');
    isProblem(await h.call('POST', '/api/v1/approvals/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b/approve'), 404, ServiceCodes.APPROVAL_NOT_FOUND);
    isProblem(await h.call('POST', '/api/v1/approvals/not-an-id/approve'), 404, ServiceCodes.APPROVAL_NOT_FOUND);
  });

  it('approved as it is, the call runs with its own arguments', async () => {
    const { h, q } = await setUp();
    const call = overwrite(h, 'unchanged');
    await queued(q, 1);
    const id = q.pending()[0]!.id;
    expect((await h.call('POST', `/api/v1/approvals/${id}/approve`)).status).toBe(200);
    expect((await call).json.ok).toBe(true);
    expect(readFileSync(join(h.dir, 'notes.txt'), 'utf8')).toBe('unchanged');
  });

  it("denied, the call is refused with the person's message and the file is untouched", async () => {
    const { h, q } = await setUp();
    const call = overwrite(h, 'never written');
    await queued(q, 1);
    const id = q.pending()[0]!.id;
    const denied = await h.call('POST', `/api/v1/approvals/${id}/deny`, { body: { message: 'keep my notes' } });
    expect(denied.json).toMatchObject({ outcome: 'denied' });
    const result = await call;
    isProblem(result, 403, PolicyCodes.DENIED);
    expect(result.json.detail).toContain('keep my notes');
    expect(readFileSync(join(h.dir, 'notes.txt'), 'utf8')).toBe('original\n');
  });

  it('changed arguments are judged again: ones that do not validate fail the call, the file untouched', async () => {
    const { h, q } = await setUp();
    const call = overwrite(h, 'x');
    await queued(q, 1);
    const id = q.pending()[0]!.id;
    expect((await h.call('POST', `/api/v1/approvals/${id}/approve`, { body: { args: { path: 'notes.txt' } } })).status).toBe(200);
    isProblem(await call, 400, ToolCodes.INVALID_ARGUMENTS);
    expect(readFileSync(join(h.dir, 'notes.txt'), 'utf8')).toBe('original\n');
  });

  it('a caller that goes away takes its call off the list', async () => {
    const { h, q } = await setUp();
    const controller = new AbortController();
    const call = h.service.fetch(
      new Request('http://127.0.0.1:8081/api/v1/tools/write_file/invoke', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ path: 'notes.txt', content: 'gone' }),
        signal: controller.signal,
      }),
    );
    await queued(q, 1);
    const id = q.pending()[0]!.id;
    controller.abort();
    await call.catch(() => undefined);
    while (q.pending().length > 0) await new Promise((r) => setImmediate(r));
    const late = await h.call('POST', `/api/v1/approvals/${id}/approve`);
    isProblem(late, 409, ServiceCodes.APPROVAL_ENDED);
    expect(late.json.outcome).toBe('cancelled');
    expect(readFileSync(join(h.dir, 'notes.txt'), 'utf8')).toBe('original\n');
  });

  it('over the cap, a call is refused at once, saying so', async () => {
    const { h, q } = await setUp({ maxPending: 1 });
    const first = overwrite(h, 'one');
    await queued(q, 1);
    const second = await overwrite(h, 'two');
    isProblem(second, 403, PolicyCodes.DENIED);
    expect(second.json.detail).toContain('1 calls are already waiting for approval');
    q.decide(q.pending()[0]!.id, { approved: false });
    isProblem(await first, 403, PolicyCodes.DENIED);
  });

  it('bodies are checked: args must be an object, nothing else is taken', async () => {
    const { h, q } = await setUp();
    const call = overwrite(h, 'x');
    await queued(q, 1);
    const id = q.pending()[0]!.id;
    isProblem(await h.call('POST', `/api/v1/approvals/${id}/approve`, { body: { args: 'rm -rf /' } }), 400, ServiceCodes.INVALID_REQUEST);
    isProblem(await h.call('POST', `/api/v1/approvals/${id}/deny`, { body: { args: {} } }), 400, ServiceCodes.INVALID_REQUEST);
    expect(q.pending()).toHaveLength(1);
    q.decide(id, { approved: false });
    await call;
  });

  it('under --require-scopes, listing and deciding need approve_tool; invoking does not give it', async () => {
    const { h, q } = await setUp({ requireScopes: true });
    const call = overwrite(h, 'scoped', { 'x-caller-scopes': Scopes.INVOKE });
    await queued(q, 1);
    const id = q.pending()[0]!.id;
    for (const [method, path] of [
      ['GET', '/api/v1/approvals'],
      ['POST', `/api/v1/approvals/${id}/approve`],
      ['POST', `/api/v1/approvals/${id}/deny`],
    ] as const) {
      const r = await h.call(method, path, { headers: { 'x-caller-scopes': `${Scopes.INVOKE},${Scopes.READ},${Scopes.WRITE}` } });
      isProblem(r, 403, ServiceCodes.MISSING_SCOPE);
      expect(r.json.scope).toBe('approve_tool');
    }
    expect(q.pending()).toHaveLength(1);
    const list = await h.call('GET', '/api/v1/approvals', { headers: { 'x-caller-scopes': Scopes.APPROVE } });
    expect(list.json.approvals).toHaveLength(1);
    expect((await h.call('POST', `/api/v1/approvals/${id}/deny`, { headers: { 'x-caller-scopes': Scopes.APPROVE } })).status).toBe(200);
    isProblem(await call, 403, PolicyCodes.DENIED);
  });

  it('a service without a queue lists nothing and decides nothing; its calls are refused as before', async () => {
    h = await harness();
    writeFileSync(join(h.dir, 'notes.txt'), 'original\n');
    expect((await h.call('GET', '/api/v1/approvals')).json).toEqual({ approvals: [], enabled: false });
    isProblem(await h.call('POST', '/api/v1/approvals/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b/approve'), 404, ServiceCodes.APPROVAL_NOT_FOUND);
    isProblem(await overwrite(h, 'x'), 403, PolicyCodes.APPROVAL_REQUIRED);
  });

  it('the events stream tells when an approval is requested and decided, without the arguments', async () => {
    const { h, q } = await setUp();
    const stream = await h.service.fetch(new Request('http://127.0.0.1:8081/api/v1/events?types=approval_requested,approval_decided'));
    const events = readEvents(stream, 2);
    const call = overwrite(h, 'secret content');
    await queued(q, 1);
    const id = q.pending()[0]!.id;
    await h.call('POST', `/api/v1/approvals/${id}/deny`, { body: { message: 'no' } });
    await call;
    const got = await events;
    expect(got.map((e) => e.event)).toEqual(['approval_requested', 'approval_decided']);
    expect(got[0]!.data).toMatchObject({ approvalId: id, tool: 'write_file', caller: { via: 'rest', agentId: 'agent-7' } });
    expect(got[1]!.data).toMatchObject({ approvalId: id, outcome: 'denied', message: 'no', argsChanged: false });
    expect(JSON.stringify(got)).not.toContain('secret content');
  });
});
