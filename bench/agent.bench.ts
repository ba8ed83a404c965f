/**
 * Agent benchmarks (issue 5), against the local fake LLM server (OpenAI wire format, HTTP on
 * 127.0.0.1):
 * - the loop's own overhead per tool-calling step: a run (model → tool call → result → model →
 *   answer, two HTTP exchanges) against the same exchanges made directly (`generate`, `invoke`,
 *   `generate`, the messages built by hand), in the same process; target < 1 ms per step. The
 *   same comparison without HTTP (a scripted model) isolates the loop's cost from the network's
 *   noise;
 * - 50 concurrent conversations over HTTP: errors (target 0) and wall time. They run first: the
 *   timing loops below keep the event loop busy with microtasks, so keep-alive timers fire late
 *   and an idle connection may be closed by the server as the client reuses it (a dropped
 *   connection, which the providers retry).
 */
import {
  type AssistantMessage,
  bindAgent,
  bindTool,
  createTool,
  invoke,
  type Message,
  type Model,
  type ModelRequest,
  parseSpecifications,
  runBoundAgent,
  toolLibrary,
} from '../src/index.js';
import { openAIModel } from '../src/entries/providers.js';
import { scriptedModel } from '../src/entries/testing.js';
import { lastUserText, startFakeServer, toolResults } from '../test/support/fake-llm-server.js';
import { formatNs, measure, report } from './harness.js';

const GRAM = `
[echo:Tool {description: "Returns its text"} | (text::String {description: "What to return"})==>(::String)]
[echoer:Agent {description: "Echoes", instruction: "Call echo with the user's text, then answer with its result."} | echo]
`;

const setup = () => {
  const specs = parseSpecifications(GRAM);
  if (specs._tag === 'Left') throw new Error(JSON.stringify(specs.left));
  const agent = specs.right.agents[0];
  const spec = specs.right.tools[0];
  if (agent === undefined || spec === undefined) throw new Error('no agent');
  const library = toolLibrary([createTool(spec.name, spec.description, spec.schema, (a: { text: string }) => a.text, { outputSchema: spec.outputSchema })]);
  const bound = bindAgent(agent, library);
  const tool = bindTool(spec, library);
  if (bound._tag === 'Left' || tool._tag === 'Left') throw new Error('does not bind');
  return { agent, bound: bound.right, tool: tool.right, definitions: bound.right.definitions };
};

/** The exchanges of one run, made by hand: what the loop does, minus the loop. */
const directRun = async (model: Model, s: ReturnType<typeof setup>, text: string): Promise<void> => {
  const base: Omit<ModelRequest, 'messages'> = { system: s.agent.instruction, tools: s.definitions };
  const messages: Message[] = [{ role: 'user', content: text }];
  const first = await model.generate({ ...base, messages });
  if (!first.ok) throw new Error(first.error.message);
  const turn: AssistantMessage = first.value.message;
  const call = turn.toolCalls?.[0];
  if (call === undefined) throw new Error('no tool call');
  const result = await invoke(s.tool, JSON.parse(call.arguments), { callId: call.id });
  if (!result.ok) throw new Error(result.error.message);
  const second = await model.generate({
    ...base,
    messages: [...messages, turn, { role: 'tool', toolCallId: call.id, toolName: call.name, content: JSON.stringify(result.value) }],
  });
  if (!second.ok) throw new Error(second.error.message);
};

const loopRun = async (model: Model, s: ReturnType<typeof setup>, text: string): Promise<void> => {
  const r = await runBoundAgent(s.bound, text, { model });
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
};

/** The smallest of `rounds` alternating measurements of each (robust against drift and noise). */
const alternate = async (rounds: number, ms: number, a: () => Promise<void>, b: () => Promise<void>): Promise<{ a: number; b: number }> => {
  let bestA = Number.POSITIVE_INFINITY;
  let bestB = Number.POSITIVE_INFINITY;
  for (let i = 0; i < rounds; i++) {
    bestA = Math.min(bestA, (await measure('a', a, { ms, warmupMs: i === 0 ? 300 : 50 })).nsPerOp);
    bestB = Math.min(bestB, (await measure('b', b, { ms, warmupMs: i === 0 ? 300 : 50 })).nsPerOp);
  }
  return { a: bestA, b: bestB };
};

const STEPS_PER_RUN = 2;

export default async (): Promise<void> => {
  const s = setup();
  const server = await startFakeServer({
    script: (r) => {
      const results = toolResults(r);
      if (results.length > 0) return { text: `echoed ${results[0]?.content ?? ''}` };
      return { toolCalls: [{ name: 'echo', arguments: { text: lastUserText(r) } }] };
    },
  });
  try {
    const made = openAIModel('gpt-bench', { baseUrl: server.openaiBaseUrl, maxRetries: 0 });
    if (made._tag === 'Left') throw new Error(made.left.message);
    const http = made.right;

    // 50 concurrent conversations over HTTP, with the provider's default retries (as users run it)
    let retries = 0;
    const withRetries = openAIModel('gpt-bench', { baseUrl: server.openaiBaseUrl, onRetry: () => void retries++ });
    if (withRetries._tag === 'Left') throw new Error(withRetries.left.message);
    const concurrentModel = withRetries.right;
    const before = server.requests.length;
    const t0 = performance.now();
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => runBoundAgent(s.bound, `conversation ${i}`, { model: concurrentModel })));
    const wall = performance.now() - t0;
    const errors = results.filter((r) => !r.ok);
    const crossed = results.filter((r, i) => r.ok && r.value.content !== `echoed "conversation ${i}"`);
    report('agent loop: 50 concurrent conversations (HTTP)', [
      ['conversations', '50'],
      ['HTTP exchanges', String(server.requests.length - before)],
      [
        'errors',
        `${errors.length} (target 0: ${errors.length === 0 ? 'met' : 'NOT MET'})${errors.length > 0 ? ` ${errors.map((r) => (r.ok ? '' : `${r.error.code}: ${r.error.message}`)).join(', ')}` : ''}`,
      ],
      ['answers crossed between conversations', String(crossed.length)],
      ['dropped connections retried by the provider', String(retries)],
      ['wall time', `${wall.toFixed(1)} ms (${(wall / 50).toFixed(2)} ms per conversation)`],
    ]);

    // over HTTP
    const overHttp = await alternate(
      5,
      600,
      () => directRun(http, s, 'hello there'),
      () => loopRun(http, s, 'hello there'),
    );
    const httpOverhead = (overHttp.b - overHttp.a) / STEPS_PER_RUN;

    // without HTTP: a scripted model that answers as the server does
    const scripted = scriptedModel((request) => {
      const last = request.messages[request.messages.length - 1];
      return last?.role === 'tool'
        ? { text: `echoed ${last.content}` }
        : { toolCalls: [{ name: 'echo', arguments: { text: last?.content ?? '' }, id: 'call_1' }] };
    });
    const local = await alternate(
      5,
      500,
      () => directRun(scripted, s, 'hello there'),
      () => loopRun(scripted, s, 'hello there'),
    );
    const localOverhead = (local.b - local.a) / STEPS_PER_RUN;

    const verdict = (ns: number): string => `${formatNs(Math.max(0, ns))} per step (target < 1 ms: ${ns < 1e6 ? 'met' : 'NOT MET'})`;
    report('agent loop: overhead per tool-calling step (a run = 2 steps)', [
      ['HTTP: exchanges made directly, per run', formatNs(overHttp.a)],
      ['HTTP: runBoundAgent, per run', `${formatNs(overHttp.b)} (${(overHttp.b / overHttp.a).toFixed(2)}×)`],
      ['HTTP: loop overhead', verdict(httpOverhead)],
      ['no HTTP: exchanges made directly, per run', formatNs(local.a)],
      ['no HTTP: runBoundAgent, per run', `${formatNs(local.b)} (${(local.b / local.a).toFixed(2)}×)`],
      ['no HTTP: loop overhead', verdict(localOverhead)],
    ]);
  } finally {
    await server.close();
  }
};
