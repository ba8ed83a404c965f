/**
 * gramkit tools in a Vercel AI SDK agent: the specifications of examples/ab/capitals.gram, bound
 * to a library, become AI SDK tools (`toAISDKTools`) that `generateText` runs. The model here is the
 * AI SDK's mock model, scripted to call the tool twice, so the example needs no key; with a real
 * one, pass e.g. `openai('gpt-4o-mini')` from `@ai-sdk/openai` as `model`.
 * Run it: `npx tsx examples/ecosystem/ai-sdk-tools.ts`.
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { bindAll, parseSpecifications } from 'gramkit';
import { toAISDKTools } from 'gramkit/ai-sdk';
import library from '../ab/fast-library.js';

const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } };

/** The model: first it calls capital_of for France and for Atlantis, then it answers from the results it was sent. */
const scriptedModel = () =>
  new MockLanguageModelV3({
    doGenerate: async ({ prompt }) => {
      const results = prompt.flatMap((m) => (m.role === 'tool' ? m.content : [])).filter((p) => p.type === 'tool-result');
      if (results.length === 0) {
        return {
          content: [
            { type: 'tool-call', toolCallId: 'c1', toolName: 'capital_of', input: '{"country": "France"}' },
            { type: 'tool-call', toolCallId: 'c2', toolName: 'capital_of', input: '{"country": "Atlantis"}' },
          ],
          finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
          usage,
          warnings: [],
        };
      }
      const said = results.map((r) => JSON.stringify('value' in r.output ? r.output.value : r.output.type)).join('; ');
      return { content: [{ type: 'text', text: `The tools said: ${said}` }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
    },
  });

export const aiSdkTools = async (): Promise<string[]> => {
  const specs = parseSpecifications(readFileSync(new URL('../ab/capitals.gram', import.meta.url), 'utf8'));
  if (specs._tag === 'Left') return specs.left.map((d) => d.message);
  const bound = bindAll(specs.right.tools, library);
  if (bound._tag === 'Left') return bound.left.map((e) => e.message);

  // the tools: gramkit's JSON Schema as input schema, execute through invoke
  const tools = toAISDKTools(bound.right);
  const result = await generateText({ model: scriptedModel(), tools, prompt: 'Capitals of France and Atlantis?', stopWhen: stepCountIs(3) });

  const out: string[] = [];
  for (const part of result.steps[0]?.content ?? []) {
    if (part.type === 'tool-result') out.push(`${part.toolName} ${JSON.stringify(part.input)} → ${JSON.stringify(part.output)}`);
    if (part.type === 'tool-error') out.push(`${part.toolName} ${JSON.stringify(part.input)} → tool error: ${String(part.error)}`);
  }
  out.push(`answer: ${result.text}`);
  return out;
};

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const line of await aiSdkTools()) console.log(line);
}
