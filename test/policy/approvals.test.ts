import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { approveAll, approverFrom, checkApproval, denyAll, terminalApprover, type ApprovalRequest } from '../../src/entries/policy.js';

const request: ApprovalRequest = { stepId: 'step-1', tool: 'delete_file', args: { path: 'notes.txt' }, reason: 'delete_file always asks for approval' };

/** A terminal approver over streams: `type` sends lines, `shown` is everything written. */
const harness = () => {
  const input = new PassThrough();
  let shown = '';
  const approver = terminalApprover({ input, output: (t) => void (shown += t) });
  return { approver, type: (line: string) => input.write(`${line}\n`), end: () => input.end(), shown: () => shown };
};

describe('approval requirements', () => {
  it('auto allows, confirm asks, a predicate decides from the arguments', async () => {
    expect((await checkApproval(undefined, { tool: 't', args: {}, annotations: { approval: 'auto' } })).kind).toBe('allow');
    expect(await checkApproval(undefined, { tool: 'delete_file', args: {}, annotations: { approval: 'confirm' } })).toEqual({
      kind: 'ask',
      reason: 'delete_file always asks for approval (it deletes files)',
    });
    const predicate = (args: unknown) => (args as { path: string }).path === 'exists.txt';
    expect((await checkApproval(undefined, { tool: 'write_file', args: { path: 'new.txt' }, annotations: { approval: predicate } })).kind).toBe('allow');
    const asked = await checkApproval(undefined, { tool: 'write_file', args: { path: 'exists.txt' }, annotations: { approval: predicate } });
    expect(asked).toEqual({ kind: 'ask', reason: 'write_file asks for approval of this call: it would overwrite an existing file' });
  });
  it('a policy overrides the tool, and has a default for tools that say nothing', async () => {
    expect((await checkApproval({ tools: { delete_file: 'auto' } }, { tool: 'delete_file', args: {}, annotations: { approval: 'confirm' } })).kind).toBe(
      'allow',
    );
    expect((await checkApproval({ default: 'confirm' }, { tool: 'plain', args: {} })).kind).toBe('ask');
    expect((await checkApproval(undefined, { tool: 'plain', args: {} })).kind).toBe('allow');
  });
  it('a predicate that throws or rejects asks (fail safe)', async () => {
    const d = await checkApproval(undefined, { tool: 't', args: {}, annotations: { approval: async () => Promise.reject(new Error('disk gone')) } });
    expect(d.kind).toBe('ask');
    if (d.kind === 'ask') expect(d.reason).toContain('disk gone');
  });
});

describe('scripted approvers', () => {
  it('--yes and --deny', async () => {
    expect(await approveAll(request)).toEqual({ approved: true });
    expect((await denyAll(request)).approved).toBe(false);
  });
  it('approverFrom turns a throw into a refusal', async () => {
    const a = approverFrom(() => {
      throw new Error('nope');
    });
    expect(await a(request)).toEqual({ approved: false, message: 'the approver failed: nope' });
  });
});

describe('terminal approver', () => {
  it('shows the request and approves on y', async () => {
    const h = harness();
    const answer = h.approver(request);
    h.type('y');
    expect(await answer).toEqual({ approved: true });
    expect(h.shown()).toContain('delete_file needs your approval: delete_file always asks for approval');
    expect(h.shown()).toContain('"path": "notes.txt"');
    expect(h.shown()).toContain('step: step-1');
    h.end();
  });
  it('refuses on n and on an empty line', async () => {
    const h = harness();
    const a = h.approver(request);
    h.type('n');
    expect((await a).approved).toBe(false);
    const b = h.approver(request);
    h.type('');
    expect((await b).approved).toBe(false);
    h.end();
  });
  it('edit: approves with new arguments, re-asking until they are a JSON object', async () => {
    const h = harness();
    const a = h.approver(request);
    h.type('e');
    h.type('{not json');
    h.type('[1, 2]');
    h.type('{"path": "other.txt"}');
    expect(await a).toEqual({ approved: true, modifiedArgs: { path: 'other.txt' } });
    expect(h.shown()).toContain('not JSON');
    expect(h.shown()).toContain('must be a JSON object');
    h.end();
  });
  it('re-asks on an unknown answer, refuses at the end of the input', async () => {
    const h = harness();
    const a = h.approver(request);
    h.type('maybe');
    h.end();
    expect((await a).approved).toBe(false);
    expect(h.shown()).toContain('please answer y, n or e');
  });
  it('asks requests made together one after the other, answers read ahead are kept', async () => {
    const h = harness();
    h.type('y');
    h.type('n');
    const [a, b] = await Promise.all([h.approver({ ...request, stepId: 's1' }), h.approver({ ...request, stepId: 's2' })]);
    expect(a.approved).toBe(true);
    expect(b.approved).toBe(false);
    expect(h.shown().indexOf('step: s1')).toBeLessThan(h.shown().indexOf('step: s2'));
    h.end();
  });
  it('cuts long arguments for display only', async () => {
    const h = harness();
    const a = h.approver({ ...request, tool: 'write_file', args: { path: 'a', content: 'x'.repeat(5000) } });
    h.type('y');
    await a;
    expect(h.shown()).toContain('(3000 more characters)');
    h.end();
  });
  it('an aborted signal refuses without waiting', async () => {
    const h = harness();
    const c = new AbortController();
    const a = h.approver(request, { signal: c.signal });
    c.abort();
    expect((await a).approved).toBe(false);
    h.end();
  });
});
