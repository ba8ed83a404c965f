import { describe, expect, it } from 'vitest';
import {
  type AgentEvent,
  type AgentResult,
  continueConversation,
  createTool,
  emptyToolLibrary,
  type Message,
  type Model,
  runAgent,
  runAgentTask,
  stopWhen,
  toolLibrary,
  unionLibraries,
} from '../../src/index.js';
import { approverFrom, defaultRuleEngine, forbiddenPatternsRule, addRule } from '../../src/entries/policy.js';
import { offlineModel } from '../../src/entries/providers.js';
import { scriptedModel } from '../../src/entries/testing.js';
import { agentNamed, deferred, recordingLibrary, specNamed } from './support.js';

const helper = agentNamed('helper');

const okRun = (r: AgentResult) => {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
};

const errorOf = (r: AgentResult) => {
  if (r.ok) throw new Error(`expected a failure, got the answer ${JSON.stringify(r.value.content)}`);
  return r.error;
};

const toolContents = (messages: ReadonlyArray<Message>) => messages.filter((m) => m.role === 'tool');

describe('runAgent: the loop', () => {
  it('runs the hello flow with the offline model: call, result, answer', async () => {
    const { library, calls } = recordingLibrary();
    const r = okRun(await runAgent(helper, library, 'echo text: hello there', { model: offlineModel() }));
    expect(calls).toEqual([{ tool: 'echo', args: { text: expect.any(String) }, context: undefined }]);
    expect(r.toolsUsed).toHaveLength(1);
    expect(r.toolsUsed[0]).toMatchObject({ name: 'echo', step: 1, result: { ok: true } });
    expect(r.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(r.content).toBe(r.messages[3]?.content);
    expect(r.steps).toBe(2);
    expect(r.usage.modelCalls).toBe(2);
    expect(r.usage.toolCalls).toBe(1);
    expect(r.finishReason).toBe('stop');
    expect(r.model).toBe('offline');
  });

  it('sends the instruction as system, the conversation and the tool definitions from the specifications', async () => {
    const model = scriptedModel([{ text: 'done' }]);
    okRun(await runAgent(helper, recordingLibrary().library, 'hi', { model }));
    const request = model.requests[0];
    expect(request?.system).toBe('Use the tools.');
    expect(request?.messages).toEqual([{ role: 'user', content: 'hi' }]);
    expect(request?.tools.map((t) => t.name)).toEqual(['echo', 'add', 'slow', 'boom']);
    expect(request?.tools[1]).toEqual({ name: 'add', description: 'Adds two integers', inputSchema: specNamed('add').schema });
  });

  it('runs the calls of one turn concurrently and returns their results in the order asked, paired by id', async () => {
    // slow "first" finishes after "second": if calls ran one after the other, the order of the
    // recorded calls would still be first, second, but "first" would be awaited before "second" starts
    const started = deferred<void>();
    let secondStarted = false;
    const library = toolLibrary([
      createTool('echo', specNamed('echo').description, specNamed('echo').schema, async ({ text }: { text: string }) => {
        if (text === 'first') {
          await started.promise; // only resolves once "second" has started: proves overlap
          return 'first done';
        }
        secondStarted = true;
        started.resolve();
        return 'second done';
      }),
      ...['add', 'slow', 'boom'].map((n) => createTool(n, specNamed(n).description, specNamed(n).schema, () => 0)),
    ]);
    const model = scriptedModel([
      {
        toolCalls: [
          { name: 'echo', arguments: { text: 'first' }, id: 'call_a' },
          { name: 'echo', arguments: { text: 'second' }, id: 'call_b' },
        ],
      },
      { text: 'both done' },
    ]);
    const r = okRun(await runAgent(helper, library, 'go', { model }));
    expect(secondStarted).toBe(true);
    const tools = toolContents(r.messages);
    expect(tools.map((m) => (m.role === 'tool' ? [m.toolCallId, m.content] : []))).toEqual([
      ['call_a', '"first done"'],
      ['call_b', '"second done"'],
    ]);
    expect(r.toolsUsed.map((u) => u.id)).toEqual(['call_a', 'call_b']);
    // the model's second request carries the results in that order after its own turn
    const second = model.requests[1]?.messages ?? [];
    expect(second.slice(1).map((m) => m.role)).toEqual(['assistant', 'tool', 'tool']);
  });

  it('turns every tool failure into a result the model reads, and goes on', async () => {
    const model = scriptedModel([
      {
        toolCalls: [
          { name: 'nope', arguments: {} },
          { name: 'add', arguments: '{"a": 1, "b":' },
          { name: 'add', arguments: { a: 'one', b: 2 } },
          { name: 'boom', arguments: { why: 'oops' } },
          { name: 'boom', arguments: { why: 'failure' } },
          { name: 'slow', arguments: { label: 'late', ms: 5000 } },
          { name: 'add', arguments: { a: 2, b: 3 } },
        ],
      },
      { text: 'I tried' },
    ]);
    const r = okRun(await runAgent(helper, recordingLibrary().library, 'try everything', { model, toolTimeoutMs: 50 }));
    expect(r.content).toBe('I tried');
    const results = r.toolsUsed.map((u) => (u.result.ok ? 'ok' : u.result.error.reason));
    expect(results).toEqual(['TOOL_NOT_BOUND', 'TOOL_INVALID_ARGUMENTS', 'TOOL_INVALID_ARGUMENTS', 'TOOL_EXECUTION_ERROR', 'NOT_FOUND', 'TOOL_TIMEOUT', 'ok']);
    const tools = toolContents(r.messages);
    expect(tools).toHaveLength(7);
    const first = JSON.parse(tools[0]?.content ?? '');
    expect(first.error.reason).toBe('TOOL_NOT_BOUND');
    expect(first.error.message).toContain('echo, add, slow, boom');
    expect(tools[0]).toMatchObject({ isError: true, toolName: 'nope' });
    expect(JSON.parse(tools[3]?.content ?? '').error.message).toBe('boom: oops');
    expect(JSON.parse(tools[4]?.content ?? '').error).toEqual({
      code: 'NOT_FOUND',
      reason: 'NOT_FOUND',
      message: 'nothing there',
      retryable: false,
      details: { why: 'failure' },
    });
    expect(tools[6]).toMatchObject({ content: '5' });
    expect(tools[6]?.role === 'tool' && tools[6].isError).toBeFalsy();
    // the text that was not JSON is kept as the call's args
    expect(r.toolsUsed[1]?.args).toBe('{"a": 1, "b":');
  });

  it('passes the context to implementations', async () => {
    const { library, calls } = recordingLibrary();
    const model = scriptedModel([{ toolCalls: [{ name: 'echo', arguments: { text: 'x' } }] }, { text: 'ok' }]);
    okRun(await runAgent(helper, library, 'go', { model, context: { user: 'u1' } }));
    expect(calls[0]?.context).toEqual({ user: 'u1' });
  });

  it('gives calls with missing or repeated ids unique ids, so results pair with their calls', async () => {
    const model = scriptedModel([
      {
        toolCalls: [
          { name: 'add', arguments: { a: 1, b: 1 }, id: 'same' },
          { name: 'add', arguments: { a: 2, b: 2 }, id: 'same' },
        ],
      },
      { toolCalls: [{ name: 'add', arguments: { a: 3, b: 3 }, id: 'same' }] },
      { text: 'done' },
    ]);
    const r = okRun(await runAgent(helper, recordingLibrary().library, 'go', { model }));
    const ids = r.toolsUsed.map((u) => u.id);
    expect(new Set(ids).size).toBe(3);
    expect(ids[0]).toBe('same');
    for (const m of r.messages) {
      if (m.role === 'assistant') for (const c of m.toolCalls ?? []) expect(ids).toContain(c.id);
    }
    expect(toolContents(r.messages).map((m) => (m.role === 'tool' ? m.toolCallId : ''))).toEqual(ids);
  });
});

describe('runAgent: errors that end a run', () => {
  it('reports every tool that does not bind, at once, as AGENT_CONFIGURATION_ERROR', async () => {
    const library = toolLibrary([createTool('echo', 'Returns text', { type: 'object', properties: { text: { type: 'integer' } } }, () => 1)]);
    const e = errorOf(await runAgent(agentNamed('greedy'), library, 'hi', { model: offlineModel() }));
    expect(e.reason).toBe('AGENT_CONFIGURATION_ERROR');
    expect(e.message).toContain('2 of its 2 tools do not bind');
    const bindErrors = (e.details as { bindErrors: Array<{ code: string; toolName: string }> }).bindErrors;
    expect(bindErrors.map((b) => [b.toolName, b.code])).toEqual([
      ['echo', 'TOOL_MISMATCH'],
      ['missing', 'TOOL_NOT_IN_LIBRARY'],
    ]);
  });

  it('ends with the model error code and keeps what was done (AGENT_LLM_API_ERROR)', async () => {
    const model = scriptedModel([
      { toolCalls: [{ name: 'add', arguments: { a: 1, b: 2 } }] },
      { error: { code: 'AGENT_LLM_API_ERROR', message: 'server said 500', status: 500, retryable: true } },
    ]);
    const e = errorOf(await runAgent(helper, recordingLibrary().library, 'go', { model }));
    expect(e).toMatchObject({ reason: 'AGENT_LLM_API_ERROR', status: 500, retryable: true });
    expect(e.partial?.toolsUsed.map((u) => u.result)).toEqual([{ ok: true, value: 3 }]);
    expect(e.partial?.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(e.partial?.trace.spans.some((s) => s.kind === 'model' && s.status === 'error' && s.error === 'AGENT_LLM_API_ERROR')).toBe(true);
  });

  it('stops with AGENT_MAX_STEPS when the model never answers', async () => {
    const model = scriptedModel(() => ({ toolCalls: [{ name: 'add', arguments: { a: 1, b: 1 } }] }));
    const e = errorOf(await runAgent(helper, recordingLibrary().library, 'loop', { model, maxSteps: 3 }));
    expect(e.reason).toBe('AGENT_MAX_STEPS');
    expect(e.partial?.steps).toBe(3);
    expect(e.partial?.toolsUsed).toHaveLength(3);
    expect(model.requests).toHaveLength(3);
  });

  it('stops with AGENT_TIMEOUT after maxDurationMs, aborting the model call in flight', async () => {
    const model = scriptedModel([{ delayMs: 10_000, then: { text: 'too late' } }]);
    const t0 = Date.now();
    const e = errorOf(await runAgent(helper, recordingLibrary().library, 'go', { model, maxDurationMs: 50 }));
    expect(e.reason).toBe('AGENT_TIMEOUT');
    expect(e.retryable).toBe(true);
    expect(Date.now() - t0).toBeLessThan(5000);
  });

  it('stops with AGENT_TIMEOUT when a running tool outlives the run', async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'slow', arguments: { label: 'x', ms: 10_000 } }] }, { text: 'never' }]);
    const e = errorOf(await runAgent(helper, recordingLibrary().library, 'go', { model, maxDurationMs: 50 }));
    expect(e.reason).toBe('AGENT_TIMEOUT');
    // the cancelled call is paired with its result, so the conversation can be continued
    expect(e.partial?.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(e.partial?.toolsUsed[0]?.result).toMatchObject({ ok: false, error: { reason: 'TOOL_CANCELLED' } });
  });

  it('stops with AGENT_CANCELLED when the caller aborts', async () => {
    const controller = new AbortController();
    const model = scriptedModel([{ toolCalls: [{ name: 'slow', arguments: { label: 'x', ms: 10_000 } }] }, { text: 'never' }]);
    const running = runAgent(helper, recordingLibrary().library, 'go', { model, signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    const e = errorOf(await running);
    expect(e.reason).toBe('AGENT_CANCELLED');
    expect(model.requests).toHaveLength(1);
  });

  it('does not start when the signal is already aborted', async () => {
    const model = scriptedModel([{ text: 'never' }]);
    const e = errorOf(await runAgent(helper, recordingLibrary().library, 'go', { model, signal: AbortSignal.abort() }));
    expect(e.reason).toBe('AGENT_CANCELLED');
    expect(model.requests).toHaveLength(0);
  });

  it("honours the caller's stop conditions (AGENT_STOPPED)", async () => {
    const model = scriptedModel(() => ({ toolCalls: [{ name: 'add', arguments: { a: 1, b: 1 } }] }));
    const e = errorOf(
      await runAgent(helper, recordingLibrary().library, 'go', { model, stopWhen: [stopWhen((s) => s.toolCalls >= 2, 'two calls are enough')] }),
    );
    expect(e).toMatchObject({ reason: 'AGENT_STOPPED', message: 'two calls are enough' });
    expect(e.partial?.toolsUsed).toHaveLength(2);
  });

  it('checks its options: AGENT_CONFIGURATION_ERROR names the bad one', async () => {
    const lib = recordingLibrary().library;
    expect(errorOf(await runAgent(helper, lib, 'x', { model: offlineModel(), maxSteps: 0 })).message).toContain('maxSteps');
    expect(errorOf(await runAgent(helper, lib, 'x', { model: offlineModel(), maxDurationMs: -1 })).message).toContain('maxDurationMs');
    expect(errorOf(await runAgent(helper, lib, 'x', { model: {} as Model })).reason).toBe('AGENT_CONFIGURATION_ERROR');
    expect(errorOf(await runAgent(helper, lib, '   ', { model: offlineModel() })).reason).toBe('AGENT_INVALID_CONVERSATION');
  });

  it('survives a model that rejects or returns garbage (contract breaches are errors, not crashes)', async () => {
    const rejecting: Model = { id: 'bad', generate: () => Promise.reject(new Error('kaput')) };
    expect(errorOf(await runAgent(helper, recordingLibrary().library, 'x', { model: rejecting }))).toMatchObject({ reason: 'AGENT_LLM_API_ERROR' });
    const garbage = { id: 'worse', generate: async () => 42 } as unknown as Model;
    expect(errorOf(await runAgent(helper, recordingLibrary().library, 'x', { model: garbage })).reason).toBe('AGENT_INVALID_RESPONSE');
  });

  it('is available as a TaskEither', async () => {
    const r = await runAgentTask(helper, recordingLibrary().library, 'x', { model: scriptedModel([{ text: 'fine' }]) })();
    expect(r._tag === 'Right' && r.right.content).toBe('fine');
    const l = await runAgentTask(helper, emptyToolLibrary, 'x', { model: scriptedModel([{ text: 'fine' }]) })();
    expect(l._tag === 'Left' && l.left.reason).toBe('AGENT_CONFIGURATION_ERROR');
  });
});

describe('runAgent: conversations as data', () => {
  it('saves a conversation as JSON and continues it', async () => {
    const model = scriptedModel([
      { toolCalls: [{ name: 'echo', arguments: { text: 'Alice' } }] },
      { text: 'Hello Alice' },
      { text: 'You said your name is Alice' },
    ]);
    const lib = recordingLibrary().library;
    const first = okRun(await runAgent(helper, lib, "I'm Alice", { model }));
    const saved = JSON.stringify(first.messages);
    const restored = JSON.parse(saved) as Message[];
    expect(restored).toEqual(first.messages);
    const second = okRun(await runAgent(helper, lib, continueConversation(restored, 'What is my name?'), { model }));
    expect(second.content).toBe('You said your name is Alice');
    expect(model.requests[2]?.messages).toEqual([...first.messages, { role: 'user', content: 'What is my name?' }]);
    expect(second.messages.slice(0, first.messages.length)).toEqual(first.messages);
    // the whole result is JSON data
    expect(JSON.parse(JSON.stringify(second))).toEqual(second);
  });

  it('resumes an interrupted run: calls of the last turn without results run first', async () => {
    const { library, calls } = recordingLibrary();
    const conversation: Message[] = [
      { role: 'user', content: 'add things' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: 'c1', name: 'add', arguments: '{"a":1,"b":2}' },
          { id: 'c2', name: 'add', arguments: '{"a":3,"b":4}' },
        ],
      },
      { role: 'tool', toolCallId: 'c1', toolName: 'add', content: '3' },
    ];
    const model = scriptedModel([{ text: 'the sums are 3 and 7' }]);
    const r = okRun(await runAgent(helper, library, conversation, { model }));
    expect(calls).toEqual([{ tool: 'add', args: { a: 3, b: 4 } }]);
    expect(r.toolsUsed.map((u) => [u.id, u.step])).toEqual([['c2', 0]]);
    expect(model.requests[0]?.messages.slice(-2)).toEqual([conversation[2], { role: 'tool', toolCallId: 'c2', toolName: 'add', content: '7' }]);
  });

  it('refuses conversations a model cannot continue, saying where', async () => {
    const lib = recordingLibrary().library;
    const cases: Array<[unknown, string]> = [
      [[], 'empty'],
      [[{ role: 'robot', content: 'x' }], 'unknown role'],
      [
        [
          { role: 'user', content: 'x' },
          { role: 'assistant', content: 'answer' },
        ],
        'ends with the assistant',
      ],
      [
        [
          { role: 'user', content: 'x' },
          { role: 'tool', toolCallId: 'zz', toolName: 'add', content: '1' },
        ],
        'no earlier assistant turn',
      ],
      [
        [
          { role: 'user', content: 'x' },
          { role: 'assistant', content: '', toolCalls: [{ id: 'a', name: 'add', arguments: '{}' }] },
          { role: 'user', content: 'y' },
        ],
        'have no result',
      ],
      [{ not: 'an array' }, 'array of messages'],
    ];
    for (const [conversation, expected] of cases) {
      const e = errorOf(await runAgent(helper, lib, conversation as Message[], { model: offlineModel() }));
      expect(e.reason, JSON.stringify(conversation)).toBe('AGENT_INVALID_CONVERSATION');
      expect(e.message).toContain(expected);
    }
  });
});

describe('runAgent: policies and approvals', () => {
  const denyEcho = { rules: addRule(defaultRuleEngine, forbiddenPatternsRule({ name: 'no-secrets', tools: ['echo'], patterns: ['secret'] })) };

  it('a policy denial is a POLICY_DENIED result with the reason, and the tool does not run', async () => {
    const { library, calls } = recordingLibrary();
    const model = scriptedModel([{ toolCalls: [{ name: 'echo', arguments: { text: 'the secret plan' } }] }, { text: 'ok' }]);
    const r = okRun(await runAgent(helper, library, 'go', { model, policies: denyEcho }));
    expect(calls).toEqual([]);
    expect(r.toolsUsed[0]?.result).toMatchObject({ ok: false, error: { reason: 'POLICY_DENIED', details: { source: 'rules', rules: ['no-secrets'] } } });
    expect((r.toolsUsed[0]?.result as { error: { message: string } }).error.message).toContain('no-secrets');
  });

  const asking = { approvals: { tools: { echo: 'confirm' as const } } };

  it('without an approve hook, a call that needs approval is POLICY_APPROVAL_REQUIRED, saying approval was needed', async () => {
    const { library, calls } = recordingLibrary();
    const model = scriptedModel([{ toolCalls: [{ name: 'echo', arguments: { text: 'hi' } }] }, { text: 'ok' }]);
    const r = okRun(await runAgent(helper, library, 'go', { model, policies: asking }));
    expect(calls).toEqual([]);
    const e = r.toolsUsed[0]?.result;
    expect(e).toMatchObject({
      ok: false,
      error: { code: 'APPROVAL_REQUIRED', reason: 'POLICY_APPROVAL_REQUIRED', details: { source: 'approval', approvalNeeded: true } },
    });
    expect((e as { error: { message: string } }).error.message).toMatch(/always asks for approval.*no approver/);
    expect(r.toolsUsed[0]?.approval).toMatchObject({ approved: false });
  });

  it('the approve hook allows, refuses, or changes the arguments (then checked again by the rules)', async () => {
    const { library, calls } = recordingLibrary();
    const events: AgentEvent[] = [];
    const approve = approverFrom((request) => {
      const text = String(request.args['text']);
      if (text === 'yes') return { approved: true };
      if (text === 'change') return { approved: true, modifiedArgs: { text: 'changed' } };
      if (text === 'sneak') return { approved: true, modifiedArgs: { text: 'a secret' } };
      return { approved: false, message: 'not this one' };
    });
    const model = scriptedModel([
      {
        toolCalls: ['yes', 'no', 'change', 'sneak'].map((text) => ({ name: 'echo', arguments: { text } })),
      },
      { text: 'done' },
    ]);
    const r = okRun(await runAgent(helper, library, 'go', { model, approve, policies: { ...asking, ...denyEcho }, onEvent: (e) => events.push(e) }));
    expect(calls.map((c) => c.args)).toEqual([{ text: 'yes' }, { text: 'changed' }]);
    const outcome = r.toolsUsed.map((u) => (u.result.ok ? `ok ${String(u.result.value)}` : `${u.result.error.reason} ${u.result.error.message}`));
    expect(outcome[0]).toBe('ok yes');
    expect(outcome[1]).toBe('POLICY_DENIED echo was not approved: not this one');
    expect(outcome[2]).toBe('ok changed');
    expect(outcome[3]).toMatch(/^POLICY_DENIED the changed arguments are refused: .*no-secrets/);
    expect(r.toolsUsed[2]).toMatchObject({ args: { text: 'changed' }, approval: { approved: true, requestedArgs: { text: 'change' } } });
    // the model is told the arguments changed
    const changedMessage = toolContents(r.messages)[2];
    expect(JSON.parse(changedMessage?.content ?? '')).toEqual({ arguments: { text: 'changed' }, argumentsChangedBy: 'approver', result: 'changed' });
    expect(events.filter((e) => e.type === 'approval-asked')).toHaveLength(4);
    expect(events.filter((e) => e.type === 'approval-answered').map((e) => (e.type === 'approval-answered' ? e.response.approved : null))).toEqual([
      true,
      false,
      true,
      true,
    ]);
  });

  it('does not ask about a call whose arguments do not validate (nothing would run)', async () => {
    let asked = 0;
    const approve = approverFrom(() => {
      asked++;
      return { approved: true };
    });
    const model = scriptedModel([{ toolCalls: [{ name: 'echo', arguments: { text: 7 } }] }, { text: 'ok' }]);
    const r = okRun(await runAgent(helper, recordingLibrary().library, 'go', { model, approve, policies: asking }));
    expect(asked).toBe(0);
    expect(r.toolsUsed[0]?.result).toMatchObject({ ok: false, error: { reason: 'TOOL_INVALID_ARGUMENTS' } });
  });

  it('honours the approval annotations of tools (built-in style) with no policies given', async () => {
    const s = specNamed('echo');
    let ran = 0;
    const guarded = createTool(
      s.name,
      s.description,
      s.schema,
      ({ text }: { text: string }) => {
        ran++;
        return text;
      },
      { annotations: { approval: (args) => (args as { text: string }).text === 'overwrite' } },
    );
    const lib = unionLibraries(recordingLibrary().library, toolLibrary([guarded]));
    const model = scriptedModel([
      {
        toolCalls: [
          { name: 'echo', arguments: { text: 'fine' } },
          { name: 'echo', arguments: { text: 'overwrite' } },
        ],
      },
      { text: 'ok' },
    ]);
    const r = okRun(await runAgent(helper, lib, 'go', { model }));
    expect(ran).toBe(1);
    expect(r.toolsUsed.map((u) => (u.result.ok ? 'ok' : u.result.error.reason))).toEqual(['ok', 'POLICY_APPROVAL_REQUIRED']);
  });
});

describe('runAgent: events and trace', () => {
  it('tells its listener what happens, in order, and records timed spans', async () => {
    const events: AgentEvent[] = [];
    const model = scriptedModel([{ toolCalls: [{ name: 'add', arguments: { a: 1, b: 2 } }], text: 'let me add' }, { text: 'it is 3' }]);
    const r = okRun(await runAgent(helper, recordingLibrary().library, 'add 1 and 2', { model, onEvent: (e) => events.push(e), stream: true }));
    expect(events.map((e) => e.type)).toEqual([
      'run-started',
      'model-request',
      'text-delta',
      'text-delta',
      'text-delta',
      'model-response',
      'tool-call-started',
      'tool-call-finished',
      'model-request',
      'text-delta',
      'text-delta',
      'text-delta',
      'model-response',
      'run-finished',
    ]);
    const deltas = events.filter((e) => e.type === 'text-delta' && e.step === 2).map((e) => (e.type === 'text-delta' ? e.delta : ''));
    expect(deltas.join('')).toBe(r.content);
    const spans = r.trace.spans;
    expect(spans.map((s) => `${s.kind}:${s.name}`)).toEqual(['run:helper', 'step:step 1', 'model:scripted', 'tool:add', 'step:step 2', 'model:scripted']);
    expect(spans[3]?.parentId).toBe(spans[1]?.id);
    for (const s of spans) {
      expect(s.durationMs).toBeGreaterThanOrEqual(0);
      expect(s.startMs).toBeGreaterThanOrEqual(0);
      expect(s.status).toBe('ok');
    }
    expect(r.trace.runId).toBe(r.runId);
  });

  it('a listener that throws does not break the run; the trace counts it', async () => {
    const model = scriptedModel([{ text: 'fine' }]);
    const r = okRun(
      await runAgent(helper, recordingLibrary().library, 'x', {
        model,
        onEvent: () => {
          throw new Error('listener bug');
        },
      }),
    );
    expect(r.content).toBe('fine');
    expect(r.trace.listenerErrors).toBe(4);
  });

  it('does not stream without stream: true', async () => {
    const events: AgentEvent[] = [];
    const model = scriptedModel([{ text: 'some words here' }]);
    okRun(await runAgent(helper, recordingLibrary().library, 'x', { model, onEvent: (e) => events.push(e) }));
    expect(events.some((e) => e.type === 'text-delta')).toBe(false);
    expect(model.requests[0]?.onTextDelta).toBeUndefined();
  });
});
