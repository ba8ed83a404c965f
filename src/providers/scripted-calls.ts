/**
 * A model whose first steps in a conversation are given tool calls, and which then lets another
 * model (the offline model by default in the CLI, or a real one) answer from their results. An
 * A/B experiment over libraries uses it to make the same calls on each library without a paid
 * model: the calls are fixed, the results and the answer come from each library.
 *
 * The steps count from the conversation's last user message: the request after it with no
 * assistant turn gets the first step's calls, the next the second's, and so on; after the last
 * step, `then` answers.
 */
import type { ToolCall } from '../agent/messages.js';
import type { Model } from '../agent/model.js';
import { cancelledError, failure, success } from './model-error.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** A call to make: the tool's name and its arguments (an object, serialized as JSON). */
export interface ScriptedCall {
  readonly name: string;
  readonly arguments: Readonly<Record<string, unknown>>;
}

/** The calls of each step, in order: the calls of one step are made together. */
export type ScriptedSteps = ReadonlyArray<ReadonlyArray<ScriptedCall>>;

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

/** `then`, preceded in each conversation by the tool calls of `steps`. */
export const withScriptedCalls = (steps: ScriptedSteps, then: Model): Model => ({
  id: then.id,
  generate: async (request) => {
    if (request.signal?.aborted === true) return failure(cancelledError('the scripted model call'));
    const lastUser = request.messages.map((m) => m.role).lastIndexOf('user');
    const step = request.messages.slice(lastUser + 1).filter((m) => m.role === 'assistant').length;
    const calls = steps[step];
    if (calls === undefined || calls.length === 0) return then.generate(request);
    const toolCalls: ReadonlyArray<ToolCall> = calls.map((c, i) => ({
      id: `call_script_${step + 1}_${i + 1}`,
      name: c.name,
      arguments: JSON.stringify(c.arguments),
    }));
    return success({
      message: { role: 'assistant', content: '', toolCalls },
      finishReason: 'tool_calls',
      usage: { inputTokens: 0, outputTokens: 0 },
    });
  },
});
