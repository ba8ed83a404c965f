/**
 * `offline`: gramkit's embedded demo model, so an agent runs on a fresh machine with no key and
 * no network. It is deterministic and is **not** a language model nor a fake of one: it picks the
 * tool whose name and description best match the user's last message (`offline-words.ts`), fills
 * the arguments from the message and the schema (`offline-args.ts`), calls the tool, and when the
 * results come back answers with them (text as is, JSON briefly, errors explained). With no
 * matching tool it says plainly that it is a demo model and which tools it has.
 *
 * `agent with sayHello(personName::String)`, "Hello, I'm Alice" → calls sayHello with
 * `{"personName":"Alice"}`, then answers with the greeting the tool returned.
 */
import type { Message, ToolMessage } from '../agent/messages.js';
import type { Model, ModelRequest, ModelResult, ToolDefinition } from '../agent/model.js';
import { codeInfo } from '../core/codes.js';
import { ToolCodes } from '../library/codes.js';
import { fillArguments, unfilled } from './offline-args.js';
import { bestTool, contentStems, wordsOf } from './offline-words.js';
import { callSafely, cancelledError, configurationError, failure, success } from './model-error.js';
import { textDeltas } from './text-deltas.js';

// -------------------------------------------------------------------------------------------------
// rendering results
// -------------------------------------------------------------------------------------------------

const MAX_ANSWER = 600;

const cut = (s: string, max = MAX_ANSWER): string => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

const scalar = (v: unknown): string => (typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v)));

/** A short rendering of a JSON result: text as is, objects as `key: value` pairs, lists joined. */
export const renderResult = (v: unknown, depth = 0): string => {
  if (v === null || v === undefined) return 'done (no result)';
  if (typeof v !== 'object') return scalar(v);
  if (Array.isArray(v)) {
    if (v.length === 0) return 'nothing (an empty list)';
    const shown = v.slice(0, 10).map((x) => (depth > 0 || typeof x !== 'object' || x === null ? scalar(x) : renderResult(x, depth + 1)));
    const more = v.length > 10 ? `, … and ${v.length - 10} more` : '';
    return v.every((x) => typeof x !== 'object' || x === null) ? `${shown.join(', ')}${more}` : `${v.length} items: ${shown.join('; ')}${more}`;
  }
  const entries = Object.entries(v as Record<string, unknown>);
  if (entries.length === 0) return 'done (an empty object)';
  return entries.map(([k, x]) => `${k}: ${typeof x === 'object' && x !== null ? cut(JSON.stringify(x), 120) : scalar(x)}`).join(', ');
};

const ERROR_HINTS: Readonly<Record<string, string>> = {
  [ToolCodes.INVALID_ARGUMENTS]: 'As a demo model I fill arguments from the words of your message; try writing the values out, for example `name: value`.',
  [ToolCodes.NOT_BOUND]: 'The tool is not available in this library.',
  [ToolCodes.TIMEOUT]: 'It took too long; trying again may help.',
  [ToolCodes.RATE_LIMITED]: 'The tool is being called too often; wait a moment.',
};

/** What the demo model adds after a failure: its own words for some codes; any policy's refusal is one. */
const hintFor = (code: string): string | undefined => ERROR_HINTS[code] ?? (codeInfo(code)?.layer === 'policy' ? 'The call was not allowed.' : undefined);

/** The error of a failed tool call, from `{code, message}` JSON or `CODE: message` text. */
const readToolError = (content: string): { code?: string; message: string } => {
  try {
    const v = JSON.parse(content) as unknown;
    if (typeof v === 'object' && v !== null) {
      const o = ((v as Record<string, unknown>)['error'] ?? v) as Record<string, unknown>;
      const code = typeof o['reason'] === 'string' ? o['reason'] : o['code'];
      if (typeof o['message'] === 'string') return { ...(typeof code === 'string' ? { code } : {}), message: o['message'] };
    }
    if (typeof v === 'string') return { message: v };
  } catch {
    // not JSON
  }
  const m = /^([A-Z][A-Z0-9_]+):\s*([\s\S]*)$/.exec(content.trim());
  return m !== null ? { code: m[1] as string, message: m[2] as string } : { message: content };
};

const renderToolMessage = (m: ToolMessage): string => {
  if (m.isError === true) {
    const e = readToolError(m.content);
    const hint = e.code !== undefined ? hintFor(e.code) : undefined;
    const message = cut(e.message.trim(), 300);
    const stop = /[.!?…]$/.test(message) ? '' : '.';
    return `The tool ${m.toolName} failed${e.code !== undefined ? ` (${e.code})` : ''}: ${message}${stop}${hint !== undefined ? ` ${hint}` : ''}`;
  }
  let v: unknown;
  try {
    v = JSON.parse(m.content);
  } catch {
    return cut(m.content);
  }
  // a result whose arguments a person changed before the call: `{arguments, argumentsChangedBy, result}`
  if (typeof v === 'object' && v !== null && 'argumentsChangedBy' in v && 'result' in v) {
    const o = v as { argumentsChangedBy: unknown; result: unknown };
    return cut(`${renderResult(o.result)} (the ${String(o.argumentsChangedBy)} changed the arguments)`);
  }
  return cut(renderResult(v));
};

/** The answer once tool results are back: one result as it is, several one per line. */
const answerFromResults = (results: ReadonlyArray<ToolMessage>): string => {
  const only = results[0];
  if (results.length === 1 && only !== undefined) return renderToolMessage(only);
  return results.map((r) => `${r.toolName}: ${renderToolMessage(r)}`).join('\n');
};

// -------------------------------------------------------------------------------------------------
// plain answers
// -------------------------------------------------------------------------------------------------

const toolList = (tools: ReadonlyArray<ToolDefinition>): string =>
  tools.map((t) => `${t.name}${t.description.length > 0 ? ` (${cut(t.description, 80)})` : ''}`).join(', ');

const demoAnswer = (tools: ReadonlyArray<ToolDefinition>, said: string, forbidden: boolean): string => {
  const intro =
    "I am gramkit's offline demo model, not a language model: I pick a tool by matching the words of your message against the tools' names and descriptions, and fill its arguments from your message.";
  const quoted = said.trim().length > 0 ? ` “${cut(said.trim(), 80)}”` : '';
  const what =
    tools.length === 0
      ? ` This agent has no tools, so there is nothing I can do with${quoted.length > 0 ? quoted : ' that'}.`
      : forbidden
        ? ` Tools are switched off for this request. Tools: ${toolList(tools)}.`
        : ` No tool matched${quoted}. Tools I have: ${toolList(tools)}.`;
  return `${intro}${what} For real conversations, use a real model such as openai/gpt-4o-mini with an API key.`;
};

// -------------------------------------------------------------------------------------------------
// the model
// -------------------------------------------------------------------------------------------------

const words = (m: ReadonlyArray<Message>, system?: string): number =>
  m.reduce((n, x) => n + wordsOf(x.content).length, system !== undefined ? wordsOf(system).length : 0);

const trailingToolMessages = (messages: ReadonlyArray<Message>): ToolMessage[] => {
  const out: ToolMessage[] = [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role !== 'tool') break;
    out.unshift(m);
  }
  return out;
};

const respond = (request: ModelRequest): ModelResult => {
  const messages = request.messages;
  const last = messages[messages.length - 1];
  const tools = request.tools;
  const usageOf = (out: string): { inputTokens: number; outputTokens: number } => ({
    inputTokens: words(messages, request.system),
    outputTokens: wordsOf(out).length,
  });
  const answer = (text: string): ModelResult => {
    if (request.onTextDelta !== undefined) {
      for (const d of textDeltas(text)) {
        const err = callSafely(request.onTextDelta, d);
        if (err !== undefined) return failure(err);
      }
    }
    return success({ message: { role: 'assistant', content: text }, finishReason: 'stop', usage: usageOf(text) });
  };

  if (last?.role === 'tool') return answer(answerFromResults(trailingToolMessages(messages)));
  const said = last?.role === 'user' ? last.content : '';
  const choice = request.toolChoice ?? 'auto';
  if (last?.role !== 'user' || tools.length === 0 || choice === 'none') return answer(demoAnswer(tools, said, choice === 'none' && tools.length > 0));

  let tool: ToolDefinition | undefined;
  let stems: ReadonlySet<string> = new Set();
  if (typeof choice === 'object') {
    tool = tools.find((t) => t.name === choice.tool);
    if (tool === undefined)
      return failure(configurationError(`toolChoice names "${choice.tool}", which is not among the request's tools (${tools.map((t) => t.name).join(', ')})`));
    stems = contentStems(wordsOf(said));
  } else {
    const best = bestTool(tools, said);
    if (best !== undefined) {
      tool = best.tool;
      stems = best.matched;
    } else if (choice === 'required') tool = tools[0];
  }
  if (tool === undefined) return answer(demoAnswer(tools, said, false));
  const args = fillArguments(tool.inputSchema, said, stems);
  const missing = unfilled(tool.inputSchema, args);
  if (missing.length > 0) {
    return answer(
      `I would call ${tool.name}, but I could not fill ${missing.join(', ')} from your message. Write ${missing.length === 1 ? 'it' : 'them'} out, e.g. \`${missing[0]?.split(' ')[0]}: a, b\`. (I am the offline demo model: I fill arguments from the words of the message, not from understanding it.)`,
    );
  }
  const argsText = JSON.stringify(args);
  return success({
    message: { role: 'assistant', content: '', toolCalls: [{ id: `call_offline_${messages.length}`, name: tool.name, arguments: argsText }] },
    finishReason: 'tool_calls',
    usage: { inputTokens: words(messages, request.system), outputTokens: Math.ceil(argsText.length / 4) },
  });
};

/** The offline demo model; `id` is `offline` or `offline/<anything>`. */
export const offlineModel = (options: { readonly id?: string } = {}): Model => ({
  id: options.id ?? 'offline',
  generate: async (request) => {
    if (request.signal?.aborted === true) return failure(cancelledError('the offline model call'));
    try {
      return respond(request);
    } catch (e) {
      return failure(configurationError(`the offline model failed: ${e instanceof Error ? e.message : String(e)}`));
    }
  },
});
