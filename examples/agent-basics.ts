/**
 * The agent runtime from code: load the hello agent, run it, continue the conversation from
 * saved JSON, watch events, and put a call to a person (the approve hook).
 *
 *   npx tsx examples/agent-basics.ts
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { type AgentEvent, continueConversation, formatDiagnostics, type Message, parseSpecifications, runAgent } from 'gramkit';
import { approverFrom } from 'gramkit/policy';
import { offlineModel } from 'gramkit/providers';
import { scriptedModel } from 'gramkit/testing';
import library from './hello-library.js';

export const agentBasics = async (): Promise<ReadonlyArray<string>> => {
  const out: string[] = [];
  const text = readFileSync(new URL('./helloAgent.gram', import.meta.url), 'utf8');
  const specs = parseSpecifications(text, { filename: 'helloAgent.gram' });
  if (specs._tag === 'Left') return [formatDiagnostics(specs.left, text)];
  const agent = specs.right.agents[0];
  if (agent === undefined) return ['no agent'];

  // one run: the model calls sayHello, the result goes back, the model answers
  const result = await runAgent(agent, library, "Hello, I'm Alice", { model: offlineModel() });
  if (!result.ok) return [`${result.error.reason}: ${result.error.message}`];
  out.push(result.value.content);
  // Hello, Alice! Nice to meet you.
  out.push(result.value.toolsUsed.map((u) => `${u.name} ${JSON.stringify(u.args)} → ${JSON.stringify(u.result)}`).join('\n'));
  // sayHello {"personName":"Alice"} → {"ok":true,"value":"Hello, Alice! Nice to meet you."}

  // the conversation is plain data: save it, read it back, continue it
  const saved = JSON.stringify(result.value.messages);
  const next = await runAgent(agent, library, continueConversation(JSON.parse(saved) as Message[], "Hello again, I'm Bob"), {
    model: offlineModel(),
  });
  if (next.ok) out.push(`${next.value.messages.length} messages: ${next.value.content}`);
  // 8 messages: Hello, Bob! Nice to meet you.

  // events as they happen (the trace holds the same, timed, after the run)
  const events: AgentEvent[] = [];
  await runAgent(agent, library, "Hi, I'm Carol", { model: offlineModel(), onEvent: (e) => events.push(e) });
  out.push(events.map((e) => e.type).join(', '));
  // run-started, model-request, model-response, tool-call-started, tool-call-finished, model-request, model-response, run-finished

  // approvals: this policy makes every sayHello call ask; the hook changes the arguments
  const approve = approverFrom((request) => ({ approved: true, modifiedArgs: { ...request.args, personName: 'Dr. Alice' } }));
  const asked = await runAgent(agent, library, "Hello, I'm Alice", {
    model: offlineModel(),
    policies: { approvals: { tools: { sayHello: 'confirm' } } },
    approve,
  });
  if (asked.ok) out.push(`${asked.value.toolsUsed[0]?.result.ok === true ? String(asked.value.toolsUsed[0].result.value) : 'refused'}`);
  // Hello, Dr. Alice! Nice to meet you.

  // errors end a run with a code, and keep what was done
  const looping = scriptedModel(() => ({ toolCalls: [{ name: 'sayHello', arguments: { personName: 'Alice' } }] }));
  const stopped = await runAgent(agent, library, 'Hello', { model: looping, maxSteps: 3 });
  if (!stopped.ok) out.push(`${stopped.error.reason}: ${stopped.error.partial?.toolsUsed.length} tool calls kept`);
  // AGENT_MAX_STEPS: 3 tool calls kept
  return out;
};

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const line of await agentBasics()) console.log(line);
}
