/**
 * Bound tools as AI SDK tools, run by the AI SDK's own `generateText` against its mock model
 * (`ai/test`): the model sees gramkit's JSON Schema, calls go through `invoke`, and failures come
 * back to the model as results.
 */
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { ToolCodes, ToolFailure } from '../../src/index.js';
import { toAISDKTools } from '../../src/entries/ai-sdk.js';
import { fixtureTools } from '../mcp/support.js';

type Call = { readonly toolName: string; readonly input: unknown };

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };

/** A mock model: the first turn calls `calls`, the next answers with what it was sent. Records every prompt. */
const scripted = (calls: ReadonlyArray<Call>) => {
  const prompts: unknown[] = [];
  const tools: unknown[] = [];
  const model = new MockLanguageModelV3({
    doGenerate: async (options) => {
      prompts.push(options.prompt);
      tools.push(options.tools);
      if (prompts.length === 1) {
        return {
          content: calls.map((c, i) => ({ type: 'tool-call' as const, toolCallId: `call-${i}`, toolName: c.toolName, input: JSON.stringify(c.input) })),
          finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' },
          usage,
          warnings: [],
        };
      }
      return { content: [{ type: 'text' as const, text: 'done' }], finishReason: { unified: 'stop' as const, raw: 'stop' }, usage, warnings: [] };
    },
  });
  return { model, prompts, tools };
};

/** The tool results the model was sent in its second prompt. */
const toolResultsSent = (prompts: unknown[]): Array<{ toolName: string; output: { type: string; value: unknown } }> => {
  const second = prompts[1] as Array<{ role: string; content: Array<{ type: string; toolName: string; output: { type: string; value: unknown } }> }>;
  return second.filter((m) => m.role === 'tool').flatMap((m) => m.content.filter((p) => p.type === 'tool-result'));
};

describe('toAISDKTools with generateText', () => {
  it('offers gramkit’s JSON Schema and runs calls through invoke (defaults applied)', async () => {
    const { model, prompts, tools } = scripted([{ toolName: 'get_weather', input: { city: 'Paris' } }]);
    const bound = fixtureTools();
    const r = await generateText({ model, tools: toAISDKTools(bound), prompt: 'Weather in Paris?', stopWhen: stepCountIs(3) });
    const offered = tools[0] as Array<{ name: string; inputSchema: unknown }>;
    expect(offered.map((t) => t.name)).toEqual(['get_weather', 'shout', 'lookup', 'erase', 'wait_for_cancel']);
    expect(offered[0]?.inputSchema).toEqual(bound.byName.get('get_weather')?.spec.schema);
    expect(r.steps[0]?.toolResults.map((t) => t.output)).toEqual([{ city: 'Paris', days: 1, conditions: 'sunny' }]);
    expect(toolResultsSent(prompts)[0]?.output).toEqual({ type: 'json', value: { city: 'Paris', days: 1, conditions: 'sunny' } });
    expect(r.text).toBe('done');
  });

  it('a failure is a tool error the model reads, with gramkit’s code and message', async () => {
    const { model, prompts } = scripted([
      { toolName: 'get_weather', input: { city: 'Paris', days: 30 } },
      { toolName: 'lookup', input: { word: 'gram' } },
    ]);
    const r = await generateText({ model, tools: toAISDKTools(fixtureTools()), prompt: 'x', stopWhen: stepCountIs(3) });
    const errors = r.steps[0]?.content.filter((p) => p.type === 'tool-error') as Array<{ error: unknown }>;
    expect(errors).toHaveLength(2);
    expect(errors[0]?.error).toBeInstanceOf(ToolFailure);
    expect((errors[0]?.error as ToolFailure).reason).toBe(ToolCodes.INVALID_ARGUMENTS);
    const sent = toolResultsSent(prompts);
    expect(sent[0]?.output.type).toBe('error-text');
    expect(String(sent[0]?.output.value)).toContain(
      `${ToolCodes.INVALID_ARGUMENTS}: invalid arguments for "get_weather": argument "days" must be at most 7, got 30`,
    );
    expect(sent[1]?.output.value).toBe('NOT_FOUND: no word "gram" in the dictionary');
    expect(r.text).toBe('done');
  });

  it('with failures: "result" the failure is the tool’s output', async () => {
    const { model, prompts } = scripted([{ toolName: 'lookup', input: { word: 'gram' } }]);
    await generateText({ model, tools: toAISDKTools(fixtureTools(), { failures: 'result' }), prompt: 'x', stopWhen: stepCountIs(3) });
    expect(toolResultsSent(prompts)[0]?.output).toEqual({
      type: 'json',
      value: { error: { code: 'NOT_FOUND', reason: 'NOT_FOUND', message: 'no word "gram" in the dictionary', retryable: false } },
    });
  });

  it('a tool that asks for approval is not run without it (needsApproval)', async () => {
    const { model } = scripted([{ toolName: 'erase', input: { path: 'a.txt' } }]);
    const r = await generateText({ model, tools: toAISDKTools(fixtureTools()), prompt: 'x', stopWhen: stepCountIs(3) });
    expect(r.steps[0]?.content.map((p) => p.type)).toEqual(['tool-call', 'tool-approval-request']);
    expect(r.steps[0]?.toolResults).toEqual([]);
  });
});
