/**
 * `ModelError` values: constructors for each code, and the reading of a provider's HTTP error
 * (status, `Retry-After`, the provider's own message from its error body).
 */
import { isRecord } from '../core/json.js';
import { codedError, err, ok } from '../core/result.js';
import { AgentCodes } from '../agent/codes.js';
import type { ModelError, ModelErrorCode, ModelResponse, ModelResult } from '../agent/model.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** The error body of a provider, as far as it could be read. */
export interface ProviderErrorBody {
  readonly message: string;
  /** `invalid_request_error`, `rate_limit_error`, `server_error`, Google's `RESOURCE_EXHAUSTED`, ... */
  readonly type?: string;
  /** OpenAI's `code` (`invalid_api_key`, `model_not_found`, ...). */
  readonly code?: string;
  /** OpenAI's `param`. */
  readonly param?: string;
  /** Google's machine-readable reason (`API_KEY_INVALID`), from the `ErrorInfo` of `error.details`. */
  readonly reason?: string;
}

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

export const modelError = (
  code: ModelErrorCode,
  message: string,
  options: { readonly status?: number; readonly retryable?: boolean; readonly details?: unknown; readonly hint?: string } = {},
): ModelError => ({
  ...codedError(code, message, options),
  ...(options.status !== undefined ? { status: options.status } : {}),
});

export const failure = (error: ModelError): ModelResult => err(error);
export const success = (value: ModelResponse): ModelResult => ok(value);

export const cancelledError = (what = 'the request'): ModelError => modelError(AgentCodes.CANCELLED, `${what} was cancelled`);

export const timeoutError = (what: string): ModelError => modelError(AgentCodes.TIMEOUT, what, { retryable: true });

/** A stream that ended before the provider's end marker (`what`): one code for every provider. */
export const streamInterrupted = (provider: string, what: string): ModelError =>
  modelError(
    AgentCodes.STREAM_INTERRUPTED,
    `the ${provider} stream ended before ${what}: the connection was probably cut; the partial answer is dropped and no tool is called`,
    { retryable: true },
  );

export const configurationError = (message: string, details?: unknown, hint?: string): ModelError =>
  modelError(AgentCodes.CONFIGURATION_ERROR, message, { ...(details !== undefined ? { details } : {}), ...(hint !== undefined ? { hint } : {}) });

/**
 * A missing API key, said where it is detected: `details.option` is `apiKey` (callers that know
 * where keys come from, like the CLI, match on it), and the hint says how to give one.
 */
export const missingKeyError = (message: string, variable: string): ModelError =>
  configurationError(
    message,
    { option: 'apiKey', variable },
    `set ${variable} in the environment (or pass apiKey), or use the offline demo model (--model offline)`,
  );

export const invalidResponse = (message: string, body?: string): ModelError =>
  modelError(AgentCodes.INVALID_RESPONSE, message, body !== undefined ? { details: { body: snippet(body) } } : {});

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

/** The start of a body, for messages and details. */
export const snippet = (text: string, max = 300): string => (text.length > max ? `${text.slice(0, max)}…` : text);

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);

/**
 * The provider's message from an error body: OpenAI `{error: {message, type, code, param}}`,
 * Anthropic `{type: "error", error: {type, message}}`, Google `{error: {code, message, status}}`,
 * Ollama and others `{error: "..."}`, or the text itself.
 */
export const readErrorBody = (text: string): ProviderErrorBody => {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { message: text.trim().length > 0 ? snippet(text.trim()) : '(empty body)' };
  }
  if (typeof json === 'object' && json !== null) {
    const e = (json as Record<string, unknown>)['error'];
    if (typeof e === 'string') return { message: e };
    if (typeof e === 'object' && e !== null) {
      const o = e as Record<string, unknown>;
      // Google APIs name the kind of error in `status` (`RESOURCE_EXHAUSTED`, `INVALID_ARGUMENT`)
      const type = str(o['type']) ?? str(o['status']);
      const code = str(o['code']) ?? (typeof o['code'] === 'number' ? String(o['code']) : undefined);
      const param = str(o['param']);
      const reason = googleReason(o['details']);
      return {
        message: str(o['message']) ?? snippet(text),
        ...(type !== undefined ? { type } : {}),
        ...(code !== undefined ? { code } : {}),
        ...(param !== undefined ? { param } : {}),
        ...(reason !== undefined ? { reason } : {}),
      };
    }
    const m = str((json as Record<string, unknown>)['message']) ?? str((json as Record<string, unknown>)['detail']);
    if (m !== undefined) return { message: m };
  }
  return { message: snippet(text) };
};

/** The `reason` of the first `google.rpc.ErrorInfo` in a Google error's `details`. */
const googleReason = (details: unknown): string | undefined => {
  if (!Array.isArray(details)) return undefined;
  for (const d of details)
    if (isRecord(d) && d['@type'] === 'type.googleapis.com/google.rpc.ErrorInfo' && str(d['reason']) !== undefined) return d['reason'] as string;
  return undefined;
};

/** Google's reasons for a key it does not accept (Gemini answers them with 400, not 401). */
const BAD_KEY_REASONS: ReadonlySet<string> = new Set(['API_KEY_INVALID', 'API_KEY_EXPIRED']);

/**
 * The error for an HTTP status the provider answered with: `RATE_LIMITED` for 429 (once retries
 * are spent), `LLM_API_ERROR` otherwise, with the status and the provider's own message.
 */
export const httpError = (provider: string, status: number, bodyText: string, extra: Record<string, unknown> = {}): ModelError => {
  const body = readErrorBody(bodyText);
  const kind = body.type ?? body.code;
  const label = `${provider} API error ${status}${kind !== undefined ? ` (${kind})` : ''}`;
  const hint =
    status === 401 || status === 403 || (body.reason !== undefined && BAD_KEY_REASONS.has(body.reason))
      ? ' (check the API key)'
      : status === 404
        ? ' (check the model name and the base URL)'
        : '';
  const retryable = status === 429 || status >= 500;
  return modelError(status === 429 ? AgentCodes.RATE_LIMITED : AgentCodes.LLM_API_ERROR, `${label}: ${body.message}${hint}`, {
    status,
    retryable,
    details: { provider, ...body, ...extra },
  });
};

/** Calls the caller's delta callback; what it throws becomes an error instead of a crash. */
export const callSafely = (f: (delta: string) => void, delta: string): ModelError | undefined => {
  try {
    f(delta);
    return undefined;
  } catch (e) {
    return configurationError(`the onTextDelta callback threw: ${e instanceof Error ? e.message : String(e)}`);
  }
};
