/**
 * Anthropic Messages as a gramkit `Model`: `tool_use`/`tool_result`, `system`, `max_tokens`,
 * streaming (`text_delta`, `input_json_delta`) when the request has `onTextDelta`; headers
 * `x-api-key` and `anthropic-version`.
 */
import { AgentCodes } from '../agent/codes.js';
import { type Either, left, right } from '../core/either.js';
import type { Model, ModelError, ModelRequest, ModelResult } from '../agent/model.js';
import { anthropicRequestBody, anthropicResponse, anthropicStream, type AnthropicWireOptions } from './anthropic-wire.js';
import { postWithRetries, type SuccessResponse, type TransportOptions } from './http.js';
import { configurationError, failure, missingKeyError, modelError } from './model-error.js';
import { prepareTools } from './prepared-tools.js';
import { checkBaseUrl, checkModelName, isModelError, transportFrom, type ProviderOptions } from './provider-options.js';
import { readModelResponse } from './read-response.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export const ANTHROPIC_BASE_URL = 'https://api.anthropic.com';
export const ANTHROPIC_VERSION = '2023-06-01';

export interface AnthropicOptions extends ProviderOptions {
  /** `max_tokens` for requests that give none (the API requires one; default 4096). */
  readonly maxTokens?: number;
  /** The `anthropic-version` header (default `2023-06-01`). */
  readonly version?: string;
  /** `anthropic-beta` features, sent as one comma-separated header. */
  readonly beta?: ReadonlyArray<string>;
}

interface Config {
  readonly transport: TransportOptions;
  readonly wire: AnthropicWireOptions;
  readonly headers: Readonly<Record<string, string>>;
  readonly url: string;
}

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

/** An Anthropic model (`claude-sonnet-4-5`, ...). The key is required. */
export const anthropicModel = (model: string, options: AnthropicOptions = {}): Either<ModelError, Model> => {
  const badName = checkModelName('anthropic', model);
  if (badName !== undefined) return left(badName);
  const key = options.apiKey;
  if (key === undefined || key.trim().length === 0)
    return left(missingKeyError('no Anthropic API key: set ANTHROPIC_API_KEY (or pass apiKey)', 'ANTHROPIC_API_KEY'));
  const base = checkBaseUrl(options.baseUrl ?? ANTHROPIC_BASE_URL);
  if (isModelError(base)) return left(base);
  if (options.maxTokens !== undefined && !(Number.isInteger(options.maxTokens) && options.maxTokens > 0)) {
    return left(configurationError(`maxTokens must be a whole number > 0, got ${String(options.maxTokens)}`));
  }
  const transport = transportFrom('Anthropic', options);
  if (isModelError(transport)) return left(transport);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'x-api-key': key,
    'anthropic-version': options.version ?? ANTHROPIC_VERSION,
    ...(options.beta !== undefined && options.beta.length > 0 ? { 'anthropic-beta': options.beta.join(',') } : {}),
    ...options.headers,
  };
  // like the official SDK, the base URL is the API root without /v1
  const url = `${base.replace(/\/v1$/, '')}/v1/messages`;
  const config: Config = { transport, wire: { model, defaultMaxTokens: options.maxTokens ?? 4096 }, headers, url };
  return right({ id: `anthropic/${model}`, generate: (request) => generate(request, config) });
};

// -------------------------------------------------------------------------------------------------
// generate
// -------------------------------------------------------------------------------------------------

const generate = async (request: ModelRequest, c: Config): Promise<ModelResult> => {
  try {
    const tools = prepareTools(request.tools, 'anthropic');
    if (tools.error !== undefined) return failure(tools.error);
    const onText = request.onTextDelta;
    const body = anthropicRequestBody(request, c.wire, tools, onText !== undefined);
    return await postWithRetries(
      c.transport,
      { url: c.url, headers: c.headers, body: JSON.stringify(body), ...(request.signal !== undefined ? { signal: request.signal } : {}) },
      (res: SuccessResponse) =>
        readModelResponse(res, c.transport.maxResponseBytes, onText, {
          provider: 'Anthropic',
          fromJson: (json, text) => anthropicResponse(json, tools, text),
          stream: (onDelta) => {
            const acc = anthropicStream(tools, onDelta);
            return { event: (e) => acc.event(e.event, e.data), result: () => acc.result() };
          },
        }),
    );
  } catch (e) {
    return failure(modelError(AgentCodes.LLM_API_ERROR, `Anthropic request failed unexpectedly: ${e instanceof Error ? e.message : String(e)}`));
  }
};
