/**
 * The replay file: a recorded exchange with a model, as JSON. Each exchange holds the request
 * (what the model was asked: system, messages, tools, options) and the result it gave (an answer
 * or an error), with the text deltas when the call was streamed.
 *
 * ```json
 * {"format": "gramkit-replay", "version": 1, "model": "openai/gpt-4o-mini",
 *  "exchanges": [{"request": {"messages": [...], "tools": [...]}, "response": {"ok": true, "value": {...}}}]}
 * ```
 * Decoded with io-ts; a malformed file is an `AGENT_CONFIGURATION_ERROR` that says where.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { type Either, left, right, isLeft } from '../core/either.js';
import * as t from 'io-ts';
import type { ModelError, ModelRequest, ModelResult } from '../agent/model.js';
import { AgentCodes, type ModelErrorCode } from '../agent/codes.js';
import { configurationError, modelError } from './model-error.js';
import { diffJson } from '../core/json-diff.js';
import { displayPath } from '../types/describe-value.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** A request as recorded: `ModelRequest` without the signal and the delta callback. */
export type RecordedModelRequest = Omit<ModelRequest, 'signal' | 'onTextDelta'>;

export interface RecordedExchange {
  readonly request: RecordedModelRequest;
  readonly response: ModelResult;
  /** The deltas a streamed answer came in. */
  readonly textDeltas?: ReadonlyArray<string>;
}

export interface Recording {
  readonly format: 'gramkit-replay';
  readonly version: 1;
  /** The model that answered (`openai/gpt-4o-mini`). */
  readonly model?: string;
  readonly exchanges: ReadonlyArray<RecordedExchange>;
}

// -------------------------------------------------------------------------------------------------
// codec
// -------------------------------------------------------------------------------------------------

const ToolCallC = t.type({ id: t.string, name: t.string, arguments: t.string });
const MessageC = t.union([
  t.type({ role: t.literal('system'), content: t.string }),
  t.type({ role: t.literal('user'), content: t.string }),
  t.intersection([t.type({ role: t.literal('assistant'), content: t.string }), t.partial({ toolCalls: t.array(ToolCallC) })]),
  t.intersection([t.type({ role: t.literal('tool'), toolCallId: t.string, toolName: t.string, content: t.string }), t.partial({ isError: t.boolean })]),
]);
const AssistantC = t.intersection([t.type({ role: t.literal('assistant'), content: t.string }), t.partial({ toolCalls: t.array(ToolCallC) })]);
const ToolDefinitionC = t.type({ name: t.string, description: t.string, inputSchema: t.UnknownRecord });
const ToolChoiceC = t.union([t.literal('auto'), t.literal('none'), t.literal('required'), t.type({ tool: t.string })]);
const RequestC = t.intersection([
  t.type({ messages: t.array(MessageC), tools: t.array(ToolDefinitionC) }),
  t.partial({ system: t.string, toolChoice: ToolChoiceC, parallelToolCalls: t.boolean, maxTokens: t.number, temperature: t.number }),
]);
const FinishC = t.keyof({ stop: null, tool_calls: null, length: null, content_filter: null, other: null });
const ResponseC = t.intersection([
  t.type({ message: AssistantC, finishReason: FinishC, usage: t.type({ inputTokens: t.number, outputTokens: t.number }) }),
  t.partial({ id: t.string, model: t.string }),
]);
const MODEL_ERROR_CODES: ReadonlyArray<ModelErrorCode> = [
  AgentCodes.LLM_API_ERROR,
  AgentCodes.CONFIGURATION_ERROR,
  AgentCodes.CANCELLED,
  AgentCodes.TIMEOUT,
  AgentCodes.RATE_LIMITED,
  AgentCodes.INVALID_RESPONSE,
  AgentCodes.REPLAY_MISMATCH,
];
const ErrorCodeC = t.keyof(Object.fromEntries(MODEL_ERROR_CODES.map((c) => [c, null])) as Record<ModelErrorCode, null>);
const ErrorC = t.intersection([t.type({ code: ErrorCodeC, message: t.string, retryable: t.boolean }), t.partial({ status: t.number, details: t.unknown })]);
const ResultC = t.union([t.type({ ok: t.literal(true), value: ResponseC }), t.type({ ok: t.literal(false), error: ErrorC })]);
const ExchangeC = t.intersection([t.type({ request: RequestC, response: ResultC }), t.partial({ textDeltas: t.array(t.string) })]);
const RecordingC = t.intersection([
  t.type({ format: t.literal('gramkit-replay'), version: t.literal(1), exchanges: t.array(ExchangeC) }),
  t.partial({ model: t.string }),
]);

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

const STRUCTURAL = new Set(['InterfaceType', 'PartialType', 'ArrayType', 'DictionaryType', 'ExactType', 'StrictType']);

/** Where a decoding failed (`exchanges[1].request.messages[0].role`) and what was there; the deepest failure is the telling one. */
const describeDecodeError = (errors: t.Errors): string => {
  const e = [...errors].sort((a, b) => b.context.length - a.context.length)[0];
  if (e === undefined) return 'invalid recording';
  let path = '';
  e.context.forEach((c, i) => {
    const parent = e.context[i - 1];
    if (i === 0 || !STRUCTURAL.has((parent?.type as { _tag?: string } | undefined)?._tag ?? '')) return;
    path += /^\d+$/.test(c.key) ? `[${c.key}]` : path === '' ? c.key : `.${c.key}`;
  });
  const value = JSON.stringify(e.value);
  const expected = e.context[e.context.length - 1]?.type.name ?? 'a valid value';
  return `${path.length > 0 ? `at ${path}: ` : ''}expected ${expected}, got ${value === undefined ? 'nothing' : value.length > 60 ? `${value.slice(0, 60)}…` : value}`;
};

/** A recording from its JSON text. */
export const parseRecording = (text: string, file = 'the recording'): Either<ModelError, Recording> => {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return left(configurationError(`${file} is not JSON: ${e instanceof Error ? e.message : String(e)}`));
  }
  const decoded = RecordingC.decode(json);
  if (isLeft(decoded)) return left(configurationError(`${file} is not a gramkit replay file (${describeDecodeError(decoded.left)})`));
  return right(withErrorCodes(decoded.right as unknown as Recording));
};

/** A recording's errors as run-time errors: the file keeps the precise code in `code`; a model error has both codes. */
const withErrorCodes = (r: Recording): Recording => ({
  ...r,
  exchanges: r.exchanges.map((x) => {
    if (x.response.ok) return x;
    const e = x.response.error;
    const options = {
      retryable: e.retryable,
      ...(e.status !== undefined ? { status: e.status } : {}),
      ...(e.details !== undefined ? { details: e.details } : {}),
    };
    const error = modelError(e.code as ModelErrorCode, e.message, options);
    return { ...x, response: { ok: false as const, error } };
  }),
});

/** The file form of an error: the precise code in `code`, as the format has always had it. */
const fileError = (e: ModelError): Record<string, unknown> => ({
  code: e.reason,
  message: e.message,
  retryable: e.retryable,
  ...(e.status !== undefined ? { status: e.status } : {}),
  ...(e.details !== undefined ? { details: e.details } : {}),
});

/** A recording from a file (`path` relative to `cwd` when given). */
export const loadRecording = (path: string, cwd?: string): Either<ModelError, Recording> => {
  const full = cwd === undefined ? resolve(path) : resolve(cwd, path);
  let text: string;
  try {
    text = readFileSync(full, 'utf8');
  } catch (e) {
    const code = (e as { code?: string }).code;
    return left(
      configurationError(
        code === 'ENOENT' ? `replay file ${path} does not exist` : `cannot read replay file ${path}: ${e instanceof Error ? e.message : String(e)}`,
      ),
    );
  }
  return parseRecording(text, `replay file ${path}`);
};

/** The recorded form of a request (no signal, no callback, no undefined fields). */
export const recordedRequest = (r: ModelRequest): RecordedModelRequest => ({
  ...(r.system !== undefined ? { system: r.system } : {}),
  messages: r.messages,
  tools: r.tools,
  ...(r.toolChoice !== undefined ? { toolChoice: r.toolChoice } : {}),
  ...(r.parallelToolCalls !== undefined ? { parallelToolCalls: r.parallelToolCalls } : {}),
  ...(r.maxTokens !== undefined ? { maxTokens: r.maxTokens } : {}),
  ...(r.temperature !== undefined ? { temperature: r.temperature } : {}),
});

/** The file's text: indented JSON, stable for review in version control. */
export const serializeRecording = (r: Recording): string =>
  `${JSON.stringify({ ...r, exchanges: r.exchanges.map((x) => (x.response.ok ? x : { ...x, response: { ok: false, error: fileError(x.response.error) } })) }, null, 2)}\n`;

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

export interface Difference {
  readonly path: string;
  readonly recorded: unknown;
  readonly got: unknown;
}

/** The first place where two JSON values differ (`messages[2].content`), or undefined when equal. */
export const firstDifference = (recorded: unknown, got: unknown): Difference | undefined => {
  const d = diffJson(recorded, got, {}, 1)[0];
  if (d === undefined) return undefined;
  const path = displayPath(d.pointer);
  return { path: path === '' ? '(the whole request)' : path, recorded: d.expected, got: d.actual };
};
