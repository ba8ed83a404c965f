import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  approveAll,
  approverFrom,
  defaultRuleEngine,
  deniedResult,
  denyAll,
  evaluatePolicies,
  withPolicies,
  type ApprovalRequest,
  type Policies,
  type PolicyDecision,
} from '../../src/entries/policy.js';
import { bindTool, createTool, invoke, toolLibrary, type SafetyLevel, type Tool, type ToolSpecification } from '../../src/index.js';

const schema = { type: 'object', properties: { command: { type: 'string', minLength: 1 } }, required: ['command'], additionalProperties: false } as const;

/** A tool that records what it ran. */
const recordingTool = (annotations: Tool['annotations']): { tool: Tool; ran: unknown[] } => {
  const ran: unknown[] = [];
  const tool = createTool(
    'shell',
    'runs a command',
    schema,
    async (args: unknown) => {
      ran.push(args);
      return { ok: true };
    },
    { annotations },
  );
  return { tool, ran };
};

const spec = (tool: Tool): ToolSpecification => ({
  name: tool.name,
  description: tool.description,
  typeSignature: '(command::Text)==>(::Any)',
  schema: tool.schema as ToolSpecification['schema'],
  outputSchema: {},
});

const ctx = { signal: new AbortController().signal, toolName: 'shell' };

describe('evaluatePolicies', () => {
  const annotations = { permissions: ['proc:exec'], safetyLevel: 'high' as const, approval: 'confirm' as const };
  it('permissions first, then rules, then approval', async () => {
    const all: Policies = { permissions: { allowed: ['fs:read'] }, rules: defaultRuleEngine, approvals: {} };
    expect(await evaluatePolicies(all, { tool: 'shell', args: { command: 'rm -rf /' }, annotations })).toMatchObject({ kind: 'deny', source: 'permissions' });
    expect(await evaluatePolicies({ ...all, permissions: {} }, { tool: 'shell', args: { command: 'rm -rf /' }, annotations })).toMatchObject({
      kind: 'deny',
      code: 'POLICY_DENIED',
      source: 'rules',
      rules: ['no-recursive-delete-of-root', 'no-rm-rf'],
    });
    expect(await evaluatePolicies({ rules: defaultRuleEngine }, { tool: 'shell', args: { command: 'ls' }, annotations })).toMatchObject({ kind: 'ask' });
    expect(
      await evaluatePolicies({ rules: defaultRuleEngine }, { tool: 'shell', args: { command: 'ls' }, annotations: { ...annotations, approval: 'auto' } }),
    ).toEqual({
      kind: 'allow',
    });
  });
  it('no policies allow everything', async () => {
    expect(await evaluatePolicies({}, { tool: 'x', args: { anything: 1 } })).toEqual({ kind: 'allow' });
  });
  it('a denial becomes a POLICY_DENIED result with the reason', async () => {
    const d = await evaluatePolicies({ rules: defaultRuleEngine }, { tool: 'shell', args: { command: 'mkfs.ext4 /dev/sda' } });
    expect(d.kind).toBe('deny');
    if (d.kind !== 'deny') return;
    const r = deniedResult(d);
    expect(r).toMatchObject({ ok: false, error: { reason: 'POLICY_DENIED', retryable: false, details: { source: 'rules', rules: ['no-filesystem-format'] } } });
    if (!r.ok) expect(r.error.message).toContain('mkfs.ext4 /dev/sda');
  });
  it('law: the decision is deny exactly when a permission, the level or a rule refuses', async () => {
    const level = fc.constantFrom<SafetyLevel>('low', 'medium', 'high');
    await fc.assert(
      fc.asyncProperty(
        fc.boolean(),
        level,
        level,
        fc.constantFrom('ls -la', 'rm -rf /', 'cat ~/.ssh/id_rsa', 'echo hi'),
        fc.constantFrom<'auto' | 'confirm'>('auto', 'confirm'),
        async (allowExec, toolLevel, max, command, approval) => {
          const d: PolicyDecision = await evaluatePolicies(
            { permissions: { allowed: allowExec ? ['proc:exec'] : [], maxSafetyLevel: max }, rules: defaultRuleEngine },
            { tool: 'shell', args: { command }, annotations: { permissions: ['proc:exec'], safetyLevel: toolLevel, approval } },
          );
          const order = ['low', 'medium', 'high'];
          const refused = !allowExec || order.indexOf(toolLevel) > order.indexOf(max) || command.startsWith('rm') || command.includes('.ssh');
          expect(d.kind).toBe(refused ? 'deny' : approval === 'confirm' ? 'ask' : 'allow');
        },
      ),
    );
  });
});

describe('withPolicies', () => {
  it('runs allowed calls, refuses denied ones with POLICY_DENIED through invoke', async () => {
    const { tool, ran } = recordingTool({ permissions: ['proc:exec'], safetyLevel: 'high', approval: 'auto' });
    const guarded = withPolicies(tool, { policies: { rules: defaultRuleEngine } });
    const bound = bindTool(spec(guarded), toolLibrary([guarded]));
    expect(bound._tag).toBe('Right');
    if (bound._tag !== 'Right') return;
    expect(await invoke(bound.right, { command: 'ls -la' })).toEqual({ ok: true, value: { ok: true } });
    const denied = await invoke(bound.right, { command: 'sudo rm -rf --no-preserve-root /' });
    expect(denied.ok).toBe(false);
    if (!denied.ok) {
      expect(denied.error.reason).toBe('POLICY_DENIED');
      expect(denied.error.message).toContain('no-recursive-delete-of-root');
    }
    expect(ran).toEqual([{ command: 'ls -la' }]);
  });
  it('the tool gets its whole context with the rules: signal, name, context (invoke with a timeout gives a lazy one)', async () => {
    const seen: unknown[] = [];
    const tool = createTool('shell', 'runs a command', schema, (_args: unknown, c) => {
      seen.push({ toolName: c.toolName, signal: c.signal instanceof AbortSignal, context: c.context, rules: c.rules === defaultRuleEngine });
      return { ok: true };
    });
    const guarded = withPolicies(tool, { policies: { rules: defaultRuleEngine } });
    const bound = bindTool(spec(guarded), toolLibrary([guarded]));
    if (bound._tag !== 'Right') throw new Error('not bound');
    expect(await invoke(bound.right, { command: 'ls' }, { timeoutMs: 5000, context: { stepId: 's1' } })).toEqual({ ok: true, value: { ok: true } });
    expect(seen).toEqual([{ toolName: 'shell', signal: true, context: { stepId: 's1' }, rules: true }]);
  });
  it('asks the approver with the step id of the context, and honours its answer', async () => {
    const { tool, ran } = recordingTool({ approval: 'confirm' });
    const seen: ApprovalRequest[] = [];
    const yes = withPolicies(tool, { policies: {}, approver: approverFrom((r) => (seen.push(r), { approved: true })) });
    await yes.invoke({ command: 'ls' }, { ...ctx, context: { stepId: 'step-7' } });
    expect(seen).toEqual([{ stepId: 'step-7', tool: 'shell', args: { command: 'ls' }, reason: 'shell always asks for approval' }]);
    expect(ran).toEqual([{ command: 'ls' }]);
    const no = withPolicies(tool, { policies: {}, approver: denyAll });
    await expect(no.invoke({ command: 'ls' }, ctx)).rejects.toMatchObject({ reason: 'POLICY_DENIED' });
    expect(ran).toHaveLength(1);
  });
  it('without an approver, a call that needs approval is denied', async () => {
    const { tool } = recordingTool({ approval: 'confirm' });
    await expect(withPolicies(tool, { policies: {} }).invoke({ command: 'ls' }, ctx)).rejects.toMatchObject({
      reason: 'POLICY_APPROVAL_REQUIRED',
      details: { source: 'approval' },
    });
  });
  it('modified arguments are validated and checked by the rules again', async () => {
    const { tool, ran } = recordingTool({ approval: 'confirm' });
    const edit = (modifiedArgs: Record<string, unknown>) =>
      withPolicies(tool, { policies: { rules: defaultRuleEngine }, approver: approverFrom(() => ({ approved: true, modifiedArgs })) });
    await edit({ command: 'ls -l' }).invoke({ command: 'ls' }, ctx);
    expect(ran).toEqual([{ command: 'ls -l' }]);
    await expect(edit({ command: '' }).invoke({ command: 'ls' }, ctx)).rejects.toMatchObject({ reason: 'TOOL_INVALID_ARGUMENTS' });
    await expect(edit({ command: 'ls', extra: 1 }).invoke({ command: 'ls' }, ctx)).rejects.toMatchObject({ reason: 'TOOL_INVALID_ARGUMENTS' });
    await expect(edit({ command: 'rm -rf /' }).invoke({ command: 'ls' }, ctx)).rejects.toMatchObject({ reason: 'POLICY_DENIED' });
    expect(ran).toHaveLength(1);
  });
  it('reports every decision', async () => {
    const { tool } = recordingTool({ approval: 'confirm' });
    const decisions: string[] = [];
    await withPolicies(tool, { policies: {}, approver: approveAll, onDecision: (_c, d) => decisions.push(d.kind) }).invoke({ command: 'ls' }, ctx);
    expect(decisions).toEqual(['ask']);
  });
  it('keeps the tool name, schemas, limits and annotations', () => {
    const { tool } = recordingTool({ approval: 'confirm', safetyLevel: 'high' });
    const g = withPolicies(tool, { policies: {} });
    expect([g.name, g.description, g.schema, g.annotations]).toEqual([tool.name, tool.description, tool.schema, tool.annotations]);
  });
});
