import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkConversation, conversationProblems } from '../../src/agent/conversation.js';
import { continueConversation, type Message, runAgent, runExperiment, type ToolCall } from '../../src/index.js';
import { latencyStats, normalizeAnswer, percentile } from '../../src/agent/experiment-stats.js';
import { scriptedModel, type ScriptedToolCall } from '../../src/entries/testing.js';
import { agentNamed, recordingLibrary } from './support.js';

const helper = agentNamed('helper');

/** A tool call a model might send: a known tool with good or bad arguments, an unknown tool, broken JSON. */
const callArb: fc.Arbitrary<ScriptedToolCall> = fc.oneof(
  fc.record({ name: fc.constant('add'), arguments: fc.record({ a: fc.integer({ min: -1000, max: 1000 }), b: fc.integer({ min: -1000, max: 1000 }) }) }),
  fc.record({ name: fc.constant('echo'), arguments: fc.record({ text: fc.string({ maxLength: 20 }) }) }),
  fc.record({ name: fc.constant('slow'), arguments: fc.record({ label: fc.string({ maxLength: 5 }), ms: fc.integer({ min: 0, max: 8 }) }) }),
  fc.record({ name: fc.constant('boom'), arguments: fc.record({ why: fc.constantFrom('x', 'failure') }) }),
  fc.record({ name: fc.constantFrom('nope', 'Echo', ''), arguments: fc.constant({}) }),
  fc.record({ name: fc.constant('add'), arguments: fc.constantFrom('{"a": 1,', 'not json', '[1,2]', '{"a":"x","b":1}') }),
);

const idArb = fc.option(fc.constantFrom('dup', 'call_1', ''), { nil: undefined });

describe('laws of the loop', () => {
  it('every call gets exactly one result, in the order asked, paired by id; the conversation stays continuable', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(fc.tuple(callArb, idArb), { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 3 }), async (turns) => {
        const model = scriptedModel([
          ...turns.map((calls) => ({ toolCalls: calls.map(([c, id]) => (id === undefined ? c : { ...c, id })) })),
          { text: 'done' },
        ]);
        const r = await runAgent(helper, recordingLibrary().library, 'go', { model });
        if (!r.ok) throw new Error(r.error.message);
        const asked: ToolCall[] = [];
        const answered: string[] = [];
        r.value.messages.forEach((m) => {
          if (m.role === 'assistant') asked.push(...(m.toolCalls ?? []));
          if (m.role === 'tool') answered.push(m.toolCallId);
        });
        expect(answered).toEqual(asked.map((c) => c.id));
        expect(new Set(answered).size).toBe(answered.length);
        expect(r.value.toolsUsed.map((u) => [u.id, u.name])).toEqual(asked.map((c) => [c.id, c.name]));
        expect(r.value.toolsUsed.length).toBe(turns.flat().length);
        // results are data: a failed call is an error message, a good one is not
        r.value.messages.forEach((m) => {
          if (m.role !== 'tool') return;
          const use = r.value.toolsUsed.find((u) => u.id === m.toolCallId);
          expect(m.isError === true).toBe(use?.result.ok === false);
        });
        expect(checkConversation(continueConversation(r.value, 'and now?')).ok).toBe(true);
        expect(JSON.parse(JSON.stringify(r.value))).toEqual(r.value);
      }),
      { numRuns: 60 },
    );
  });

  it('a valid conversation has no problems; dropping a result from a finished turn is one', () => {
    const turnArb = fc.array(fc.constantFrom('add', 'echo'), { minLength: 0, maxLength: 3 });
    fc.assert(
      fc.property(fc.array(turnArb, { minLength: 1, maxLength: 4 }), fc.nat(), (turns, pick) => {
        const messages: Message[] = [{ role: 'user', content: 'start' }];
        let n = 0;
        const removable: number[] = [];
        for (const names of turns) {
          const calls = names.map((name) => ({ id: `c${n++}`, name, arguments: '{}' }));
          messages.push({ role: 'assistant', content: calls.length === 0 ? 'text' : '', ...(calls.length > 0 ? { toolCalls: calls } : {}) });
          for (const c of [...calls].reverse()) {
            removable.push(messages.length);
            messages.push({ role: 'tool', toolCallId: c.id, toolName: c.name, content: '1' });
          }
          messages.push({ role: 'user', content: 'next' });
        }
        expect(conversationProblems(messages)).toEqual([]);
        if (removable.length > 0) {
          const i = removable[pick % removable.length] as number;
          const broken = messages.filter((_, k) => k !== i);
          expect(conversationProblems(broken).length).toBeGreaterThan(0);
        }
      }),
    );
  });

  it('percentiles lie between the extremes, are values of the sample, and are ordered', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1e6, noNaN: true }), { minLength: 1, maxLength: 200 }), (values) => {
        const sorted = [...values].sort((a, b) => a - b);
        const p50 = percentile(sorted, 0.5);
        const p95 = percentile(sorted, 0.95);
        expect(values).toContain(p50);
        expect(values).toContain(p95);
        expect(p50).toBeLessThanOrEqual(p95);
        const s = latencyStats(values);
        expect(s.min).toBeLessThanOrEqual(s.p50);
        expect(s.p95).toBeLessThanOrEqual(s.max);
        expect(s.mean).toBeGreaterThanOrEqual(s.min - 0.001);
        expect(s.mean).toBeLessThanOrEqual(s.max + 0.001);
      }),
    );
  });

  it('answers are compared modulo layout: normalizing is idempotent and ignores whitespace runs', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        expect(normalizeAnswer(normalizeAnswer(a))).toBe(normalizeAnswer(a));
        expect(normalizeAnswer(` ${a}\n\t${b} `)).toBe(normalizeAnswer(`${a} ${b}`));
      }),
    );
  });

  it('experiments: results come in (input, repetition, variant) order whatever the concurrency; identical libraries never differ', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.string({ minLength: 1, maxLength: 12 }).filter((s) => s.trim() !== ''),
          { minLength: 1, maxLength: 4 },
        ),
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 1, max: 6 }),
        async (inputs, runs, concurrency) => {
          const script = () =>
            scriptedModel((request) => {
              const last = request.messages[request.messages.length - 1];
              return last?.role === 'tool' ? { text: `echoed ${last.content}` } : { toolCalls: [{ name: 'echo', arguments: { text: last?.content ?? '' } }] };
            });
          const variants = { a: recordingLibrary().library, b: recordingLibrary().library };
          const r = await runExperiment({ agent: helper, variants, inputs, runs, concurrency, model: () => script() });
          if (!r.ok) throw new Error(r.error.message);
          const keys = r.value.results.map((x) => `${x.input}/${x.repetition}/${x.variant}`);
          const expected: string[] = [];
          for (let i = 0; i < inputs.length; i++) for (let k = 0; k < runs; k++) for (const v of ['a', 'b']) expected.push(`${i}/${k}/${v}`);
          expect(keys).toEqual(expected);
          expect(r.value.differences).toEqual([]);
          for (const s of r.value.summaries) {
            expect(s.runs).toBe(inputs.length * runs);
            expect(s.successRate).toBe(1);
            expect(s.toolCalls).toBe(inputs.length * runs);
            expect(s.differingAnswers).toBe(0);
          }
        },
      ),
      { numRuns: 25 },
    );
  });
});
