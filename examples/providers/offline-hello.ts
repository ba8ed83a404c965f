/**
 * The offline demo model, step by step, without the agent loop: it picks `sayHello` for
 * "Hello, I'm Alice", fills `personName` from the message, and answers with the tool's result.
 *
 *   npx tsx examples/providers/offline-hello.ts "Hello, I'm Alice"
 */
import { pathToFileURL } from 'node:url';
import { offlineModel } from 'gramkit/providers';
import { type Message, type ModelRequest, type ToolDefinition } from 'gramkit';

export const sayHelloTool: ToolDefinition = {
  name: 'sayHello',
  description: 'Returns a friendly greeting for the given name',
  inputSchema: { type: 'object', properties: { personName: { type: 'string', description: 'Who to greet' } }, required: ['personName'] },
};

const sayHello = (args: { personName: string }): string => `Hello, ${args.personName}! Nice to meet you.`;

export const offlineHello = async (text = "Hello, I'm Alice"): Promise<ReadonlyArray<string>> => {
  const out: string[] = [];
  const model = offlineModel();
  const request: ModelRequest = { system: 'Greet people with the sayHello tool.', messages: [{ role: 'user', content: text }], tools: [sayHelloTool] };

  // 1. the model chooses a tool and its arguments
  const first = await model.generate(request);
  if (!first.ok) return [`${first.error.reason}: ${first.error.message}`];
  const calls = first.value.message.toolCalls ?? [];
  if (calls.length === 0) return [`answer: ${first.value.message.content}`];
  const results: Message[] = calls.map((c) => {
    out.push(`call: ${c.name} ${c.arguments}`);
    return { role: 'tool', toolCallId: c.id, toolName: c.name, content: JSON.stringify(sayHello(JSON.parse(c.arguments) as { personName: string })) };
  });

  // 2. the results go back, paired with their calls; the model answers with them
  const second = await model.generate({ ...request, messages: [...request.messages, first.value.message, ...results] });
  out.push(second.ok ? `answer: ${second.value.message.content}` : `${second.error.reason}: ${second.error.message}`);
  return out;
};

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const line of await offlineHello(process.argv[2])) console.log(line);
}
