/**
 * Provider benchmarks:
 * - adapter work per step (no I/O): building the OpenAI / Anthropic request body for a 3-turn
 *   conversation with 10 tools and reading the answer, against the floor of the same work
 *   (`JSON.stringify` of the body it sends + `JSON.parse` of the body it reads);
 * - a round trip over HTTP to the local fake server: `generate` against a raw undici POST of the
 *   same bytes to the same server (JSON.stringify of the body, JSON.parse of the answer, both
 *   keep-alive), so the difference is what the provider adds (building the body from the
 *   conversation, timers, retry bookkeeping, reading the answer);
 * - streaming: reading a tool call streamed in 40 SSE chunks, against `JSON.parse` of each chunk;
 * - exporting 1,000 tools to each dialect (µs per tool).
 */
import { Agent, request } from 'undici';
import { type ModelRequest, type ToolDefinition } from '../src/index.js';
import { exportTools, openAIModel, DIALECTS, type ExportableTool } from '../src/entries/providers.js';
import { anthropicRequestBody, anthropicResponse } from '../src/providers/anthropic-wire.js';
import { openAIRequestBody, openAIResponse, openAIStream } from '../src/providers/openai-wire.js';
import { prepareTools } from '../src/providers/prepared-tools.js';
import { startFakeServer } from '../test/support/fake-llm-server.js';
import { formatNs, measure, ratio, report } from './harness.js';

const tools: ReadonlyArray<ToolDefinition> = Array.from({ length: 10 }, (_, i) => ({
  name: `tool.number${i}`,
  description: `Tool number ${i}: does something useful with a city and a count`,
  inputSchema: {
    type: 'object',
    properties: {
      city: { type: 'string', description: 'A city' },
      count: { type: 'integer', minimum: 1, default: 3 },
      unit: { type: 'string', enum: ['c', 'f'] },
    },
    required: ['city'],
  },
}));

const conversation: ModelRequest = {
  system: 'You are a helpful assistant that uses tools.',
  messages: [
    { role: 'user', content: 'What is the weather in Paris and in Rome, in celsius?' },
    {
      role: 'assistant',
      content: '',
      toolCalls: [
        { id: 'call_1', name: 'tool.number1', arguments: '{"city":"Paris","unit":"c"}' },
        { id: 'call_2', name: 'tool.number1', arguments: '{"city":"Rome","unit":"c"}' },
      ],
    },
    { role: 'tool', toolCallId: 'call_1', toolName: 'tool.number1', content: '{"temp":21,"sky":"clear"}' },
    { role: 'tool', toolCallId: 'call_2', toolName: 'tool.number1', content: '{"temp":25,"sky":"sunny"}' },
  ],
  tools,
};

const openAIAnswer = JSON.stringify({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  model: 'gpt-test',
  choices: [
    {
      index: 0,
      message: {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_3', type: 'function', function: { name: 'tool_number2', arguments: '{"city":"Oslo","count":2}' } }],
      },
      finish_reason: 'tool_calls',
    },
  ],
  usage: { prompt_tokens: 120, completion_tokens: 20, total_tokens: 140 },
});
const anthropicAnswer = JSON.stringify({
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'claude-test',
  content: [{ type: 'tool_use', id: 'toolu_3', name: 'tool_number2', input: { city: 'Oslo', count: 2 } }],
  stop_reason: 'tool_use',
  usage: { input_tokens: 120, output_tokens: 20 },
});

const adapterWork = async (): Promise<void> => {
  const openAITools = prepareTools(tools, 'openai');
  const strictTools = prepareTools(tools, 'openai-strict');
  const anthropicTools = prepareTools(tools, 'anthropic');
  const wire = { model: 'gpt-test', legacyFunctions: false, maxTokensField: 'max_tokens', streamUsage: true } as const;
  const openAIBody = openAIRequestBody(conversation, wire, openAITools, false);
  const anthropicBody = anthropicRequestBody(conversation, { model: 'claude-test', defaultMaxTokens: 1024 }, anthropicTools, false);

  const floorOpenAI = await measure('floor', () => {
    JSON.stringify(openAIBody);
    JSON.parse(openAIAnswer);
  });
  const openAI = await measure('openai', () => {
    JSON.stringify(openAIRequestBody(conversation, wire, prepareTools(conversation.tools, 'openai'), false));
    openAIResponse(JSON.parse(openAIAnswer), conversation, openAITools, openAIAnswer);
  });
  const strict = await measure('openai strict', () => {
    JSON.stringify(openAIRequestBody(conversation, wire, prepareTools(conversation.tools, 'openai-strict'), false));
    openAIResponse(JSON.parse(openAIAnswer), conversation, strictTools, openAIAnswer);
  });
  const floorAnthropic = await measure('floor', () => {
    JSON.stringify(anthropicBody);
    JSON.parse(anthropicAnswer);
  });
  const anthropic = await measure('anthropic', () => {
    JSON.stringify(anthropicRequestBody(conversation, { model: 'claude-test', defaultMaxTokens: 1024 }, prepareTools(conversation.tools, 'anthropic'), false));
    anthropicResponse(JSON.parse(anthropicAnswer), anthropicTools, anthropicAnswer);
  });
  report('adapter work per step (3-turn conversation, 10 tools, no I/O)', [
    ['JSON floor (OpenAI bytes)', formatNs(floorOpenAI.nsPerOp)],
    ['OpenAI build + read', `${formatNs(openAI.nsPerOp)}  ${ratio(openAI.nsPerOp / floorOpenAI.nsPerOp, { max: 3 })}`],
    ['OpenAI strict build + read', `${formatNs(strict.nsPerOp)}  ${ratio(strict.nsPerOp / floorOpenAI.nsPerOp, { max: 3 })}`],
    ['JSON floor (Anthropic bytes)', formatNs(floorAnthropic.nsPerOp)],
    ['Anthropic build + read', `${formatNs(anthropic.nsPerOp)}  ${ratio(anthropic.nsPerOp / floorAnthropic.nsPerOp, { max: 3 })}`],
  ]);
};

const roundTrip = async (): Promise<void> => {
  const server = await startFakeServer({ script: () => ({ toolCalls: [{ name: 'tool.number2', arguments: { city: 'Oslo', count: 2 } }] }) });
  const dispatcher = new Agent({ keepAliveTimeout: 10_000 });
  try {
    const m = openAIModel('gpt-test', { baseUrl: server.openaiBaseUrl, dispatcher });
    if (m._tag === 'Left') throw new Error(m.left.message);
    const model = m.right;
    const bodyObject = openAIRequestBody(
      conversation,
      { model: 'gpt-test', legacyFunctions: false, maxTokensField: 'max_tokens', streamUsage: true },
      prepareTools(tools, 'openai'),
      false,
    );
    const rawPost = async (): Promise<void> => {
      const body = JSON.stringify(bodyObject);
      const res = await request(`${server.openaiBaseUrl}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        dispatcher,
      });
      JSON.parse(await res.body.text());
    };
    const viaGenerate = async (): Promise<void> => {
      const r = await model.generate(conversation);
      if (!r.ok) throw new Error(r.error.message);
    };
    // interleaved rounds, best of each: the server and the machine warm up and drift alike for both
    let raw = Number.POSITIVE_INFINITY;
    let viaModel = Number.POSITIVE_INFINITY;
    for (let round = 0; round < 3; round++) {
      raw = Math.min(raw, (await measure('raw undici POST', rawPost, { ms: 700 })).nsPerOp);
      viaModel = Math.min(viaModel, (await measure('generate', viaGenerate, { ms: 700 })).nsPerOp);
      server.requests.length = 0;
    }
    const overhead = viaModel - raw;
    report('round trip to the local fake server (keep-alive, same bytes; best of 3 interleaved rounds)', [
      ['raw undici POST (stringify + parse)', formatNs(raw)],
      ['openAIModel.generate', `${formatNs(viaModel)}  ${ratio(viaModel / raw, { max: 1.5 })}`],
      ['provider overhead per call', overhead > 0 ? formatNs(overhead) : 'below the noise of the measurement'],
    ]);
  } finally {
    await dispatcher.close();
    await server.close();
  }
};

const streaming = async (): Promise<void> => {
  const args = JSON.stringify({ city: 'Oslo', count: 2, note: 'a'.repeat(200) });
  const pieces = Array.from({ length: 40 }, (_, i) => args.slice((i * args.length) / 40, ((i + 1) * args.length) / 40));
  const chunks = [
    JSON.stringify({
      id: 'c',
      choices: [
        {
          index: 0,
          delta: { role: 'assistant', tool_calls: [{ index: 0, id: 'call_9', type: 'function', function: { name: 'tool_number2', arguments: '' } }] },
          finish_reason: null,
        },
      ],
    }),
    ...pieces.map((p) =>
      JSON.stringify({ id: 'c', choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: p } }] }, finish_reason: null }] }),
    ),
    JSON.stringify({ id: 'c', choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] }),
    '[DONE]',
  ];
  const p = prepareTools(tools, 'openai');
  const floor = await measure('floor', () => {
    for (const c of chunks) if (c !== '[DONE]') JSON.parse(c);
  });
  const acc = await measure('accumulate', () => {
    const s = openAIStream(conversation, p, () => undefined);
    for (const c of chunks) s.event(c);
    const r = s.result();
    if (!r.ok) throw new Error(r.error.message);
  });
  report('stream: a tool call in 40 argument deltas', [
    ['JSON.parse of each chunk', formatNs(floor.nsPerOp)],
    ['openAIStream accumulate + result', `${formatNs(acc.nsPerOp)}  ${ratio(acc.nsPerOp / floor.nsPerOp, { max: 2 })}`],
  ]);
};

const exporting = async (): Promise<void> => {
  const many: ExportableTool[] = Array.from({ length: 1000 }, (_, i) => ({
    name: `ns.tool ${i}`,
    description: `Tool ${i}`,
    schema: tools[i % 10]?.inputSchema ?? {},
  }));
  const rows: Array<readonly [string, string]> = [];
  for (const d of DIALECTS) {
    const m = await measure(d, () => exportTools(many, d), { ms: 500 });
    rows.push([d, `${formatNs(m.nsPerOp / many.length)} per tool`]);
  }
  report('exporting 1,000 tools', rows);
};

export default async (): Promise<void> => {
  await adapterWork();
  await streaming();
  await roundTrip();
  await exporting();
};
