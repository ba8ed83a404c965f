/**
 * The HTTP transport of the providers: one POST over undici with timeouts (connect, headers, an
 * idle body, and a deadline for the whole attempt), the caller's AbortSignal, and retries
 * (net/retry.ts, `MODEL_RETRY` by default). Never throws: every outcome is a `ModelResult`.
 */
import { AgentCodes } from '../agent/codes.js';
import type { Agent, Dispatcher } from 'undici';
import { loadUndici } from '../net/undici.js';
import { type HttpDispatcher, undiciDispatcher } from '../net/dispatcher.js';
import type { ModelError, ModelResult } from '../agent/model.js';
import { cancelledError, failure, httpError, modelError, snippet, timeoutError } from './model-error.js';
import { backoffDelay, MODEL_RETRY, mayRetry, retriesStatus, retryAfterMs, sleep, type RetryInfo, type RetryPolicy } from '../net/retry.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface TransportOptions {
  /** For messages: `OpenAI`, `Anthropic`. */
  readonly provider: string;
  /** An undici dispatcher (Agent, Pool, MockAgent...); a shared keep-alive Agent by default. */
  readonly dispatcher?: HttpDispatcher;
  /** Deadline of one attempt, from sending the request to the last byte of the answer. */
  readonly timeoutMs: number;
  readonly connectTimeoutMs: number;
  /** Longest wait for the response headers (default: `timeoutMs`). */
  readonly headersTimeoutMs?: number;
  /** Longest silence while the body arrives (default: `timeoutMs`). */
  readonly bodyTimeoutMs?: number;
  readonly retry: RetryPolicy;
  /** Called before each retry (for logs: "rate limited, retrying in 2 s"). */
  readonly onRetry?: (info: RetryInfo) => void;
  /** Largest answer accepted (`INVALID_RESPONSE` above it). */
  readonly maxResponseBytes: number;
  /**
   * The delay a retryable error body asks for, when the provider says it there rather than in
   * `Retry-After` (Gemini's `RetryInfo.retryDelay`). A header wins.
   */
  readonly retryDelayFromBody?: (body: string) => number | undefined;
}

export interface PostRequest {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly signal?: AbortSignal;
}

/** A 2xx answer, handed to the adapter to read (JSON or SSE) within the attempt's deadline. */
export interface SuccessResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: AsyncIterable<Uint8Array> & { destroy?: (e?: Error) => unknown };
  readonly signal: AbortSignal;
}

export const DEFAULT_TIMEOUT_MS = 600_000;
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

export const defaultTransport = (provider: string): TransportOptions => ({
  provider,
  timeoutMs: DEFAULT_TIMEOUT_MS,
  connectTimeoutMs: DEFAULT_CONNECT_TIMEOUT_MS,
  retry: MODEL_RETRY,
  maxResponseBytes: DEFAULT_MAX_RESPONSE_BYTES,
});

// -------------------------------------------------------------------------------------------------
// the shared dispatcher
// -------------------------------------------------------------------------------------------------

const agents = new Map<number, Promise<Agent>>();

/** One keep-alive Agent per connect timeout, shared by every model of the process. */
export const sharedDispatcher = (connectTimeoutMs: number): Promise<Dispatcher> => {
  let a = agents.get(connectTimeoutMs);
  if (a === undefined) {
    a = loadUndici().then(({ Agent }) => new Agent({ connect: { timeout: connectTimeoutMs }, keepAliveTimeout: 10_000, keepAliveMaxTimeout: 600_000 }));
    agents.set(connectTimeoutMs, a);
  }
  return a;
};

// -------------------------------------------------------------------------------------------------
// reading bodies
// -------------------------------------------------------------------------------------------------

class TooLarge extends Error {}

/** The body as text, failing with `TooLarge` above `max` bytes. */
export const readText = async (body: SuccessResponse['body'], max: number): Promise<string> => {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const c of body) {
    size += c.byteLength;
    if (size > max) {
      body.destroy?.();
      throw new TooLarge(`the answer is larger than ${max} bytes`);
    }
    chunks.push(c);
  }
  return Buffer.concat(chunks).toString('utf8');
};

/** The start of an error body (a provider's error is short; the rest is not read). */
const readErrorText = async (body: SuccessResponse['body']): Promise<string> => {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const c of body) {
    chunks.push(c);
    size += c.byteLength;
    if (size > 65_536) {
      body.destroy?.();
      break;
    }
  }
  return Buffer.concat(chunks).toString('utf8');
};

// -------------------------------------------------------------------------------------------------
// thrown errors → ModelError
// -------------------------------------------------------------------------------------------------

const CONNECTION_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'ENETDOWN',
  'EHOSTDOWN',
]);

const errorCode = (e: unknown): string | undefined => {
  if (typeof e !== 'object' || e === null) return undefined;
  const o = e as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof o.code === 'string') return o.code;
  if (Array.isArray(o.errors) && o.errors.length > 0) return errorCode(o.errors[0]);
  return o.cause !== undefined ? errorCode(o.cause) : undefined;
};

const errorMessage = (e: unknown): string => (e instanceof Error ? e.message : String(e));

interface Thrown {
  readonly error: ModelError;
  /** A connection failure before any answer: worth a retry. */
  readonly connection: boolean;
}

const mapThrown = (e: unknown, o: TransportOptions, url: string, timedOut: boolean, callerAborted: boolean): Thrown => {
  if (callerAborted) return { error: cancelledError(`the ${o.provider} request`), connection: false };
  if (timedOut) return { error: timeoutError(`${o.provider} did not answer completely within ${o.timeoutMs} ms`), connection: false };
  if (e instanceof TooLarge) return { error: modelError(AgentCodes.INVALID_RESPONSE, `${o.provider}: ${e.message}`), connection: false };
  const code = errorCode(e);
  switch (code) {
    case 'UND_ERR_CONNECT_TIMEOUT':
      return { error: timeoutError(`could not connect to ${url} within ${o.connectTimeoutMs} ms`), connection: false };
    case 'UND_ERR_HEADERS_TIMEOUT':
      return { error: timeoutError(`${o.provider} sent no response headers within ${o.headersTimeoutMs ?? o.timeoutMs} ms`), connection: false };
    case 'UND_ERR_BODY_TIMEOUT':
      return { error: timeoutError(`${o.provider}'s answer stalled for more than ${o.bodyTimeoutMs ?? o.timeoutMs} ms`), connection: false };
    case 'UND_ERR_INVALID_ARG':
    case 'ERR_INVALID_URL':
      return { error: modelError(AgentCodes.CONFIGURATION_ERROR, `invalid request to ${url}: ${errorMessage(e)}`), connection: false };
    case 'ENOTFOUND':
      return {
        error: modelError(AgentCodes.LLM_API_ERROR, `cannot reach ${url}: host not found (check the base URL)`, { details: { code } }),
        connection: false,
      };
  }
  if (code !== undefined && CONNECTION_CODES.has(code)) {
    return {
      error: modelError(
        AgentCodes.LLM_API_ERROR,
        `cannot reach ${url}: ${code}${errorMessage(e) !== '' && !errorMessage(e).includes(code) ? ` (${errorMessage(e)})` : ''}`,
        {
          retryable: true,
          details: { code },
        },
      ),
      connection: true,
    };
  }
  return {
    error: modelError(AgentCodes.LLM_API_ERROR, `${o.provider} request failed: ${errorMessage(e)}`, { details: code !== undefined ? { code } : undefined }),
    connection: false,
  };
};

// -------------------------------------------------------------------------------------------------
// post with retries
// -------------------------------------------------------------------------------------------------

type Attempt =
  | { readonly kind: 'done'; readonly result: ModelResult }
  | { readonly kind: 'retry'; readonly error: ModelError; readonly status?: number; readonly serverDelayMs?: number };

const isAborted = (s: AbortSignal | undefined): boolean => s?.aborted === true;

const header = (h: SuccessResponse['headers'], name: string): string | undefined => {
  const v = h[name];
  return typeof v === 'string' ? v : v?.[0];
};

/**
 * POSTs `req`, retrying 429, 5xx and dropped connections, and hands a 2xx answer to `onSuccess`.
 * Once a 2xx answer has started, the attempt is final (streamed text may already be out).
 */
export const postWithRetries = async (
  o: TransportOptions,
  req: PostRequest,
  onSuccess: (res: SuccessResponse) => Promise<ModelResult>,
): Promise<ModelResult> => {
  const { request } = await loadUndici();
  const dispatcher: Dispatcher = o.dispatcher !== undefined ? undiciDispatcher(o.dispatcher) : await sharedDispatcher(o.connectTimeoutMs);
  for (let attempt = 0; ; attempt++) {
    if (isAborted(req.signal)) return failure(cancelledError(`the ${o.provider} request`));
    const ac = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      ac.abort(new Error('timeout'));
    }, o.timeoutMs);
    const onCallerAbort = (): void => ac.abort(req.signal?.reason);
    req.signal?.addEventListener('abort', onCallerAbort, { once: true });
    let outcome: Attempt;
    let answered = false;
    try {
      const res = await request(req.url, {
        method: 'POST',
        headers: req.headers,
        body: req.body,
        signal: ac.signal,
        dispatcher,
        headersTimeout: o.headersTimeoutMs ?? o.timeoutMs,
        bodyTimeout: o.bodyTimeoutMs ?? o.timeoutMs,
      });
      const headers = res.headers as SuccessResponse['headers'];
      if (res.statusCode >= 200 && res.statusCode < 300) {
        answered = true;
        outcome = { kind: 'done', result: await onSuccess({ status: res.statusCode, headers, body: res.body, signal: ac.signal }) };
      } else {
        const text = await readErrorText(res.body);
        const requestId = header(headers, 'x-request-id') ?? header(headers, 'request-id');
        const err = httpError(o.provider, res.statusCode, text, { attempts: attempt + 1, ...(requestId !== undefined ? { requestId } : {}) });
        const serverDelayMs = retryAfterMs(headers) ?? (retriesStatus(o.retry, res.statusCode) ? o.retryDelayFromBody?.(text) : undefined);
        if (retriesStatus(o.retry, res.statusCode) && mayRetry(o.retry, attempt + 1, 'POST')) {
          outcome = { kind: 'retry', error: err, status: res.statusCode, ...(serverDelayMs !== undefined ? { serverDelayMs } : {}) };
        } else {
          const spent = attempt > 0 ? ` (after ${attempt + 1} attempts)` : '';
          outcome = { kind: 'done', result: failure({ ...err, message: `${err.message}${spent}` }) };
        }
      }
    } catch (e) {
      const t = mapThrown(e, o, req.url, timedOut, isAborted(req.signal));
      if (t.connection && !answered && mayRetry(o.retry, attempt + 1, 'POST')) outcome = { kind: 'retry', error: t.error };
      else outcome = { kind: 'done', result: failure(t.error) };
    } finally {
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', onCallerAbort);
    }
    if (outcome.kind === 'done') return outcome.result;

    const retry = attempt + 1;
    if (outcome.serverDelayMs !== undefined && outcome.serverDelayMs > o.retry.maxRetryAfterMs) {
      const secs = Math.ceil(outcome.serverDelayMs / 1000);
      return failure({
        ...outcome.error,
        message: `${outcome.error.message} (the server asks to retry after ${secs} s, longer than the ${Math.round(o.retry.maxRetryAfterMs / 1000)} s gramkit waits)`,
        details: { ...(outcome.error.details as object), retryAfterMs: outcome.serverDelayMs },
      });
    }
    const delayMs = outcome.serverDelayMs ?? backoffDelay(o.retry, retry);
    o.onRetry?.({
      retry,
      delayMs,
      ...(outcome.status !== undefined ? { status: outcome.status } : {}),
      fromServer: outcome.serverDelayMs !== undefined,
      reason: snippet(outcome.error.message, 200),
    });
    if (!(await sleep(delayMs, req.signal))) return failure(cancelledError(`the ${o.provider} request`));
  }
};
