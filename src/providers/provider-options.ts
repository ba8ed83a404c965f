/**
 * Options shared by the HTTP providers, and their checking: a bad option is a
 * `CONFIGURATION_ERROR` when the model is created, not a failure at the first call.
 */
import type { HttpDispatcher } from '../net/dispatcher.js';
import type { ModelError } from '../agent/model.js';
import { configurationError } from './model-error.js';
import { DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUT_MS, type TransportOptions } from './http.js';
import { MODEL_RETRY, type RetryInfo, type RetryPolicy } from '../net/retry.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface ProviderOptions {
  /** The API key (the CLI reads it from `OPENAI_API_KEY` / `ANTHROPIC_API_KEY` / `GEMINI_API_KEY`; nothing here reads the environment). */
  readonly apiKey?: string;
  /** The API root: `https://api.openai.com/v1`, `http://localhost:11434/v1` (Ollama), `https://api.anthropic.com`, `https://generativelanguage.googleapis.com`. */
  readonly baseUrl?: string;
  /** Extra headers sent with every request. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Deadline of one attempt, from sending to the last byte (default 600 000 ms). */
  readonly timeoutMs?: number;
  /** Default 10 000 ms. */
  readonly connectTimeoutMs?: number;
  /** Longest wait for response headers (default: `timeoutMs`). */
  readonly headersTimeoutMs?: number;
  /** Longest silence while a body arrives (default: `timeoutMs`). */
  readonly bodyTimeoutMs?: number;
  /** Retries of 429, 5xx and dropped connections after the first attempt (default 2: `retry.maxAttempts` is this + 1). */
  readonly maxRetries?: number;
  /** Backoff details (base and maximum delay, the longest `Retry-After` honoured, the statuses retried). */
  readonly retry?: Partial<Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs' | 'maxRetryAfterMs' | 'retryOn'>>;
  /** Told before each retry. */
  readonly onRetry?: (info: RetryInfo) => void;
  /** An undici dispatcher to send through (a proxy agent, a MockAgent); a shared keep-alive Agent by default. */
  readonly dispatcher?: HttpDispatcher;
  /** Largest answer accepted (default 32 MiB). */
  readonly maxResponseBytes?: number;
}

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

const positive = (name: string, v: number | undefined): ModelError | undefined =>
  v === undefined || (Number.isFinite(v) && v > 0) ? undefined : configurationError(`${name} must be a positive number of milliseconds, got ${String(v)}`);

/** Checks the options and builds the transport; a `CONFIGURATION_ERROR` names the bad option. */
export const transportFrom = (provider: string, o: ProviderOptions): TransportOptions | ModelError => {
  for (const [name, v] of [
    ['timeoutMs', o.timeoutMs],
    ['connectTimeoutMs', o.connectTimeoutMs],
    ['headersTimeoutMs', o.headersTimeoutMs],
    ['bodyTimeoutMs', o.bodyTimeoutMs],
    ['maxResponseBytes', o.maxResponseBytes],
    ['retry.baseDelayMs', o.retry?.baseDelayMs],
    ['retry.maxDelayMs', o.retry?.maxDelayMs],
  ] as const) {
    const e = positive(name, v);
    if (e !== undefined) return e;
  }
  if (o.retry?.maxRetryAfterMs !== undefined && !(Number.isFinite(o.retry.maxRetryAfterMs) && o.retry.maxRetryAfterMs >= 0)) {
    return configurationError(`retry.maxRetryAfterMs must be a number of milliseconds ≥ 0, got ${String(o.retry.maxRetryAfterMs)}`);
  }
  if (o.maxRetries !== undefined && !(Number.isInteger(o.maxRetries) && o.maxRetries >= 0)) {
    return configurationError(`maxRetries must be a whole number ≥ 0, got ${String(o.maxRetries)}`);
  }
  return {
    provider,
    ...(o.dispatcher !== undefined ? { dispatcher: o.dispatcher } : {}),
    timeoutMs: o.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    connectTimeoutMs: o.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    ...(o.headersTimeoutMs !== undefined ? { headersTimeoutMs: o.headersTimeoutMs } : {}),
    ...(o.bodyTimeoutMs !== undefined ? { bodyTimeoutMs: o.bodyTimeoutMs } : {}),
    retry: { ...MODEL_RETRY, ...o.retry, maxAttempts: (o.maxRetries ?? MODEL_RETRY.maxAttempts - 1) + 1 },
    ...(o.onRetry !== undefined ? { onRetry: o.onRetry } : {}),
    maxResponseBytes: o.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
  };
};

/** The base URL without trailing slashes, checked to be http(s). */
export const checkBaseUrl = (url: string): string | ModelError => {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return configurationError(`baseUrl "${url}" is not a URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return configurationError(`baseUrl "${url}" must be an http or https URL`);
  return url.replace(/\/+$/, '');
};

const EXAMPLE_MODELS: Readonly<Record<string, string>> = {
  openai: 'gpt-4o-mini',
  'openai-responses': 'gpt-4.1-mini',
  anthropic: 'claude-sonnet-4-5',
  gemini: 'gemini-2.5-flash',
};

/** A model name the provider could know: non-empty, no spaces or control characters. */
export const checkModelName = (provider: string, name: string): ModelError | undefined =>
  name.length === 0
    ? configurationError(`no model name: write ${provider}/<model>, e.g. ${provider}/${EXAMPLE_MODELS[provider] ?? 'gpt-4o-mini'}`)
    : /[\s\u0000-\u001f]/.test(name)
      ? configurationError(`model name ${JSON.stringify(name)} contains spaces or control characters`)
      : undefined;

export const isModelError = (v: unknown): v is ModelError => typeof v === 'object' && v !== null && 'code' in v && 'retryable' in v && 'message' in v;
