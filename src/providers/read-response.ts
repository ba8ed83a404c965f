/**
 * Reading a provider's successful HTTP response into a model turn: one JSON body, or an SSE stream
 * when text deltas were asked for and the server streams. What differs between providers is how a
 * body or an event is read (`readers`); the rest (size cap, invalid JSON, text callbacks that throw)
 * is the same for all.
 */
import type { EventSourceMessage } from 'eventsource-parser';
import type { ModelError, ModelResult } from '../agent/model.js';
import { readText, type SuccessResponse } from './http.js';
import { callSafely, failure, invalidResponse } from './model-error.js';
import { readSse } from './sse.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** An accumulator of stream events into a model turn. */
export interface StreamAccumulator {
  readonly event: (event: EventSourceMessage) => void;
  readonly result: () => ModelResult;
}

export interface ResponseReaders {
  /** The provider as messages name it (`OpenAI`, `Anthropic`). */
  readonly provider: string;
  /** A whole JSON body (and its text, for error details) to a model turn. */
  readonly fromJson: (json: unknown, text: string) => ModelResult;
  /** A new accumulator; `onDelta` receives each piece of text as it arrives. */
  readonly stream: (onDelta: (delta: string) => void) => StreamAccumulator;
}

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

/**
 * The model turn of a successful response. `onText` given: an SSE response is streamed to it; a
 * JSON body (a server that ignored `stream: true`) gives its whole text to it at once.
 */
export const readModelResponse = async (
  res: SuccessResponse,
  maxResponseBytes: number,
  onText: ((delta: string) => void) | undefined,
  readers: ResponseReaders,
): Promise<ModelResult> => {
  const type = String(res.headers['content-type'] ?? '');
  if (onText === undefined || !type.includes('text/event-stream')) {
    const text = await readText(res.body, maxResponseBytes);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return failure(invalidResponse(`${readers.provider} answered ${res.status} with a body that is not JSON`, text));
    }
    const result = readers.fromJson(json, text);
    if (result.ok && onText !== undefined && result.value.message.content.length > 0) {
      const err = callSafely(onText, result.value.message.content);
      if (err !== undefined) return failure(err);
    }
    return result;
  }
  let callbackError: ModelError | undefined;
  const acc = readers.stream((delta) => {
    callbackError ??= callSafely(onText, delta);
  });
  await readSse(res.body, acc.event);
  return callbackError !== undefined ? failure(callbackError) : acc.result();
};
