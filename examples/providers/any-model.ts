/**
 * The same request to any model by id: `offline`, `openai/<model>` (or any compatible server with
 * a base URL: Ollama, vLLM, LM Studio, llama.cpp), `anthropic/<model>`, `replay:<file>`. Keys are
 * read here, at the edge, and passed in; asking for a real model without its key is an error,
 * never a silent switch to the offline model.
 *
 *   npx tsx examples/providers/any-model.ts offline
 *   OPENAI_API_KEY=sk-... npx tsx examples/providers/any-model.ts openai/gpt-4o-mini
 *   npx tsx examples/providers/any-model.ts openai/llama3.2 http://localhost:11434/v1
 */
import { pathToFileURL } from 'node:url';
import { createModel } from 'gramkit/providers';
import { sayHelloTool } from './offline-hello.js';

export const anyModel = async (id: string, keys: { openai?: string; anthropic?: string }, baseUrl?: string): Promise<ReadonlyArray<string>> => {
  const apiKey = id.startsWith('anthropic/') ? keys.anthropic : keys.openai;
  const model = createModel(id, { ...(apiKey !== undefined ? { apiKey } : {}), ...(baseUrl !== undefined ? { baseUrl } : {}), timeoutMs: 60_000 });
  if (model._tag === 'Left') return [`${model.left.reason}: ${model.left.message}`];
  const deltas: string[] = [];
  const r = await model.right.generate({
    system: 'When someone introduces themselves, greet them with sayHello.',
    messages: [{ role: 'user', content: "Hello, I'm Alice" }],
    tools: [sayHelloTool],
    onTextDelta: (d) => deltas.push(d),
  });
  if (!r.ok) return [`${r.error.reason}: ${r.error.message}`];
  const calls = (r.value.message.toolCalls ?? []).map((c) => `${c.name} ${c.arguments}`);
  return [`${model.right.id}: ${calls.length > 0 ? `calls ${calls.join(', ')}` : r.value.message.content}`, `streamed ${deltas.length} text deltas`];
};

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const keys = { openai: process.env['OPENAI_API_KEY'], anthropic: process.env['ANTHROPIC_API_KEY'] };
  for (const line of await anyModel(process.argv[2] ?? 'offline', keys, process.argv[3])) console.log(line);
}
