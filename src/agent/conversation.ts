/**
 * The conversation a run starts from, checked before anything is sent: plain data (a saved run's
 * `messages` read back from JSON), so it may be anything. A conversation a model can continue:
 *
 * - every message has a known role and text content; assistant tool calls have string ids, names
 *   and argument text;
 * - every tool message answers a call of an earlier assistant turn, once, before the next turn;
 * - every call is answered before the next user or assistant message (providers reject unpaired
 *   calls). Calls of the **last** assistant turn may be unanswered: the run executes them first,
 *   which is how an interrupted run is resumed;
 * - it does not end with the assistant's answer (there would be nothing to answer).
 */
import { AgentCodes } from './codes.js';
import { isRecord } from '../core/json.js';
import type { Result } from '../core/result.js';
import type { AssistantMessage, Message, ToolCall } from './messages.js';
import { agentError, type AgentError } from './agent-error.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface ConversationProblem {
  /** Index of the message (`-1` for the conversation as a whole). */
  readonly index: number;
  readonly message: string;
}

/** A checked conversation, with the calls of its last assistant turn that have no result yet. */
export interface CheckedConversation {
  readonly messages: ReadonlyArray<Message>;
  readonly pending: ReadonlyArray<ToolCall>;
  /** The assistant turn holding the pending calls, when there are some. */
  readonly pendingTurn?: AssistantMessage;
  /** Tool results already given in the last turn (pending calls are the others). */
  readonly answered: ReadonlySet<string>;
}

const ROLES = new Set(['system', 'user', 'assistant', 'tool']);

// -------------------------------------------------------------------------------------------------
// checking
// -------------------------------------------------------------------------------------------------

const shapeProblem = (m: unknown): string | undefined => {
  if (!isRecord(m)) return 'a message must be an object {role, content}';
  const role = m['role'];
  if (typeof role !== 'string' || !ROLES.has(role)) return `unknown role ${JSON.stringify(role)} (expected system, user, assistant or tool)`;
  if (typeof m['content'] !== 'string') return `the content of a ${role} message must be a string`;
  if (role === 'tool') {
    if (typeof m['toolCallId'] !== 'string' || m['toolCallId'] === '') return 'a tool message needs the toolCallId of the call it answers';
    if (typeof m['toolName'] !== 'string') return 'a tool message needs the toolName of the call it answers';
    if (m['isError'] !== undefined && typeof m['isError'] !== 'boolean') return 'isError must be a boolean';
  }
  if (role === 'assistant' && m['toolCalls'] !== undefined) {
    const calls = m['toolCalls'];
    if (!Array.isArray(calls)) return 'toolCalls must be an array';
    for (const [i, c] of calls.entries()) {
      if (!isRecord(c) || typeof c['id'] !== 'string' || c['id'] === '' || typeof c['name'] !== 'string' || typeof c['arguments'] !== 'string') {
        return `toolCalls[${i}] must be {id, name, arguments} with a non-empty id and the arguments as JSON text`;
      }
    }
  }
  return undefined;
};

/** Every problem of a conversation (empty when a model can continue it). */
export const conversationProblems = (messages: unknown): ReadonlyArray<ConversationProblem> => {
  if (!Array.isArray(messages)) return [{ index: -1, message: 'a conversation is an array of messages' }];
  if (messages.length === 0) return [{ index: -1, message: 'the conversation is empty: give at least one user message' }];
  const problems: ConversationProblem[] = [];
  const seenIds = new Set<string>();
  let open = new Map<string, string>(); // call id → tool name, calls of the current assistant turn without a result
  let lastAssistantIndex = -1;
  messages.forEach((m: unknown, index) => {
    const shape = shapeProblem(m);
    if (shape !== undefined) {
      problems.push({ index, message: shape });
      return;
    }
    const msg = m as Message;
    if (msg.role === 'tool') {
      const name = open.get(msg.toolCallId);
      if (name === undefined) {
        problems.push({
          index,
          message: seenIds.has(msg.toolCallId)
            ? `tool result for call "${msg.toolCallId}" given twice, or after a later turn`
            : `tool result for call "${msg.toolCallId}", which no earlier assistant turn made`,
        });
      } else {
        open.delete(msg.toolCallId);
      }
      return;
    }
    if (open.size > 0) {
      problems.push({
        index,
        message: `the calls ${[...open.keys()].map((k) => `"${k}"`).join(', ')} of the assistant turn at ${lastAssistantIndex} have no result before this message`,
      });
      open = new Map();
    }
    if (msg.role === 'assistant') {
      lastAssistantIndex = index;
      for (const c of msg.toolCalls ?? []) {
        if (seenIds.has(c.id)) problems.push({ index, message: `tool call id "${c.id}" is used twice in the conversation` });
        seenIds.add(c.id);
        open.set(c.id, c.name);
      }
    }
  });
  const last = messages[messages.length - 1] as Message | undefined;
  if (problems.length === 0 && last?.role === 'assistant' && (last.toolCalls === undefined || last.toolCalls.length === 0)) {
    problems.push({ index: messages.length - 1, message: "the conversation ends with the assistant's answer: add a user message to continue it" });
  }
  if (problems.length === 0 && !messages.some((m: Message) => m.role === 'user')) {
    problems.push({ index: -1, message: 'the conversation has no user message' });
  }
  return problems;
};

/**
 * The conversation checked, with the calls still waiting for a result, or an
 * `INVALID_CONVERSATION` error listing every problem.
 */
export const checkConversation = (messages: unknown): Result<CheckedConversation, AgentError> => {
  const problems = conversationProblems(messages);
  if (problems.length > 0) {
    const shown = problems.slice(0, 5).map((p) => (p.index >= 0 ? `message ${p.index}: ${p.message}` : p.message));
    return {
      ok: false,
      error: agentError(
        AgentCodes.INVALID_CONVERSATION,
        `the conversation cannot be continued: ${shown.join('; ')}${problems.length > 5 ? `; and ${problems.length - 5} more` : ''}`,
        {
          details: { problems },
        },
      ),
    };
  }
  const list = messages as ReadonlyArray<Message>;
  // the calls of the last assistant turn that have no result yet
  let turn = -1;
  for (let i = list.length - 1; i >= 0; i--) {
    const m = list[i] as Message;
    if (m.role === 'assistant') {
      turn = i;
      break;
    }
    if (m.role !== 'tool') break;
  }
  const turnMessage = turn >= 0 ? (list[turn] as AssistantMessage) : undefined;
  const answered = new Set<string>();
  for (let i = turn + 1; turn >= 0 && i < list.length; i++) {
    const m = list[i] as Message;
    if (m.role === 'tool') answered.add(m.toolCallId);
  }
  const pending = (turnMessage?.toolCalls ?? []).filter((c) => !answered.has(c.id));
  return {
    ok: true,
    value: { messages: list, pending, answered, ...(pending.length > 0 && turnMessage !== undefined ? { pendingTurn: turnMessage } : {}) },
  };
};

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

/** A saved conversation (a run's `messages`) with the user's next message, ready for `runAgent`. */
export const continueConversation = (
  previous: ReadonlyArray<Message> | { readonly messages: ReadonlyArray<Message> },
  text: string,
): ReadonlyArray<Message> => {
  const messages = Array.isArray(previous) ? (previous as ReadonlyArray<Message>) : (previous as { readonly messages: ReadonlyArray<Message> }).messages;
  return [...messages, { role: 'user', content: text }];
};
