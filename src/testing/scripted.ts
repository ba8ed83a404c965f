/**
 * A scripted mock model for tests (the AI SDK's mock model is the model): it answers with the
 * turns it is given, in order (or from a function of the request), records every request, and
 * behaves like a provider otherwise — text deltas when streaming, `CANCELLED` on abort, errors as
 * results. It is a testing helper, not a provider.
 */
import type { ToolCall } from '../agent/messages.js';
import type { FinishReason, Model, ModelErrorCode, ModelRequest, ModelResult, Usage } from '../agent/model.js';
import { callSafely, cancelledError, configurationError, failure, modelError, success } from '../providers/model-error.js';
import { sleep } from '../core/abort.js';
import { textDeltas } from '../providers/text-deltas.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface ScriptedToolCall {
  /** The tool name as gramkit knows it. */
  readonly name: string;
  /** An object or array (serialized), or JSON text as is (which may be broken on purpose). */
  readonly arguments?: unknown;
  /** Default: `call_s<request>_<position>`. */
  readonly id?: string;
}

export type ScriptedTurn =
  | { readonly text: string; readonly finishReason?: FinishReason; readonly usage?: Usage }
  | { readonly toolCalls: ReadonlyArray<ScriptedToolCall>; readonly text?: string; readonly usage?: Usage }
  | { readonly error: { readonly code: ModelErrorCode; readonly message: string; readonly status?: number; readonly retryable?: boolean } }
  /** Waits (abortable) before the turn. */
  | { readonly delayMs: number; readonly then: ScriptedTurn };

export type ScriptedScript = ReadonlyArray<ScriptedTurn> | ((request: ModelRequest, index: number) => ScriptedTurn);

export interface ScriptedModel extends Model {
  /** Every request, in order. */
  readonly requests: ReadonlyArray<ModelRequest>;
  /** Turns not yet used (infinite for a function script). */
  remaining(): number;
}

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

const wordCount = (s: string): number => (s.match(/\S+/g) ?? []).length;

/** A model answering with `script`'s turns. */
export const scriptedModel = (script: ScriptedScript, options: { readonly id?: string } = {}): ScriptedModel => {
  const requests: ModelRequest[] = [];
  let next = 0;

  const turnFor = (request: ModelRequest, index: number): ScriptedTurn | undefined => {
    if (typeof script === 'function') return script(request, index);
    return script[index];
  };

  const play = async (turn: ScriptedTurn, request: ModelRequest, index: number): Promise<ModelResult> => {
    if ('delayMs' in turn) {
      if (!(await sleep(turn.delayMs, request.signal))) return failure(cancelledError('the scripted model call'));
      return play(turn.then, request, index);
    }
    if ('error' in turn) {
      return failure(
        modelError(turn.error.code, turn.error.message, {
          ...(turn.error.status !== undefined ? { status: turn.error.status } : {}),
          retryable: turn.error.retryable ?? false,
        }),
      );
    }
    const text = turn.text ?? '';
    const calls: ToolCall[] =
      'toolCalls' in turn
        ? turn.toolCalls.map((c, i) => ({
            id: c.id ?? `call_s${index}_${i}`,
            name: c.name,
            arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments ?? {}),
          }))
        : [];
    if (request.onTextDelta !== undefined) {
      for (const d of textDeltas(text)) {
        const err = callSafely(request.onTextDelta, d);
        if (err !== undefined) return failure(err);
      }
    }
    const inputWords = request.messages.reduce((n, m) => n + wordCount(m.content), wordCount(request.system ?? ''));
    return success({
      message: calls.length > 0 ? { role: 'assistant', content: text, toolCalls: calls } : { role: 'assistant', content: text },
      finishReason: calls.length > 0 ? 'tool_calls' : 'text' in turn && 'finishReason' in turn && turn.finishReason !== undefined ? turn.finishReason : 'stop',
      usage: turn.usage ?? { inputTokens: inputWords, outputTokens: wordCount(text) + calls.reduce((n, c) => n + Math.ceil(c.arguments.length / 4), 0) },
    });
  };

  return {
    id: options.id ?? 'scripted',
    requests,
    remaining: () => (typeof script === 'function' ? Number.POSITIVE_INFINITY : Math.max(0, script.length - next)),
    generate: async (request) => {
      if (request.signal?.aborted === true) return failure(cancelledError('the scripted model call'));
      requests.push(request);
      const index = next++;
      let turn: ScriptedTurn | undefined;
      try {
        turn = turnFor(request, index);
      } catch (e) {
        return failure(configurationError(`the script function threw: ${e instanceof Error ? e.message : String(e)}`));
      }
      if (turn === undefined) {
        return failure(
          configurationError(`the scripted model has no turn left: ${typeof script === 'function' ? 0 : script.length} scripted, this is request ${index + 1}`),
        );
      }
      return play(turn, request, index);
    },
  };
};
