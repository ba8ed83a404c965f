/**
 * OpenAI Chat Completions as a gramkit `Model`, for api.openai.com and any compatible server
 * (Ollama, vLLM, LM Studio, llama.cpp server): `tools`/`tool_calls`, or the legacy
 * `functions`/`function_call` API for older servers; streaming with SSE when the request has
 * `onTextDelta`; `strict` mode with the `openai-strict` dialect (arguments normalized back).
 */
import { AgentCodes } from '../agent/codes.js';
import { type Either, left, right } from '../core/either.js';
import type { Model, ModelError, ModelRequest, ModelResult } from '../agent/model.js';
import { postWithRetries, type SuccessResponse, type TransportOptions } from './http.js';
import { configurationError, failure, missingKeyError, modelError } from './model-error.js';
import { openAIRequestBody, openAIResponse, openAIStream, type OpenAIWireOptions } from './openai-wire.js';
import { prepareTools } from './prepared-tools.js';
import { checkBaseUrl, checkModelName, isModelError, transportFrom, type ProviderOptions } from './provider-options.js';
import { readModelResponse } from './read-response.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export const OPENAI_BASE_URL = 'https://api.openai.com/v1';

export interface OpenAIOptions extends ProviderOptions {
  /** Use `functions`/`function_call` (older servers) instead of `tools`/`tool_calls`. */
  readonly legacyFunctions?: boolean;
  /** Send tools with `strict: true` (Structured Outputs); tools that cannot be strict go with `strict: false`. */
  readonly strict?: boolean;
  /** `OpenAI-Organization` and `OpenAI-Project` headers. */
  readonly organization?: string;
  readonly project?: string;
  /** Default: `max_completion_tokens` on api.openai.com, `max_tokens` elsewhere. */
  readonly maxTokensField?: 'max_tokens' | 'max_completion_tokens';
  /** Ask for usage in streams (`stream_options.include_usage`, default true). */
  readonly streamUsage?: boolean;
}

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

/**
 * An OpenAI (or compatible) chat model. A key is required for api.openai.com; a server at
 * another `baseUrl` may need none (Ollama, llama.cpp), and then no `Authorization` is sent.
 */
export const openAIModel = (model: string, options: OpenAIOptions = {}): Either<ModelError, Model> => {
  const badName = checkModelName('openai', model);
  if (badName !== undefined) return left(badName);
  const base = checkBaseUrl(options.baseUrl ?? OPENAI_BASE_URL);
  if (isModelError(base)) return left(base);
  const official = options.baseUrl === undefined || new URL(base).hostname === 'api.openai.com';
  const key = options.apiKey;
  if (official && (key === undefined || key.trim().length === 0)) {
    return left(missingKeyError('no OpenAI API key: set OPENAI_API_KEY (or pass apiKey); for a local compatible server, give its base URL', 'OPENAI_API_KEY'));
  }
  if (options.legacyFunctions === true && options.strict === true) {
    return left(configurationError('strict mode needs the tools API: legacyFunctions and strict cannot be combined'));
  }
  const transport = transportFrom('OpenAI', options);
  if (isModelError(transport)) return left(transport);
  const wire: OpenAIWireOptions = {
    model,
    legacyFunctions: options.legacyFunctions === true,
    maxTokensField: options.maxTokensField ?? (official ? 'max_completion_tokens' : 'max_tokens'),
    streamUsage: options.streamUsage ?? true,
  };
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    ...(key !== undefined && key.length > 0 ? { authorization: `Bearer ${key}` } : {}),
    ...(options.organization !== undefined ? { 'openai-organization': options.organization } : {}),
    ...(options.project !== undefined ? { 'openai-project': options.project } : {}),
    ...options.headers,
  };
  const dialect = options.strict === true ? 'openai-strict' : 'openai';
  const url = `${base}/chat/completions`;
  return right({
    id: `openai/${model}`,
    generate: (request) => generate(request, { transport, wire, headers, url, dialect }),
  });
};

interface Config {
  readonly transport: TransportOptions;
  readonly wire: OpenAIWireOptions;
  readonly headers: Readonly<Record<string, string>>;
  readonly url: string;
  readonly dialect: 'openai' | 'openai-strict';
}

// -------------------------------------------------------------------------------------------------
// generate
// -------------------------------------------------------------------------------------------------

const generate = async (request: ModelRequest, c: Config): Promise<ModelResult> => {
  try {
    const tools = prepareTools(request.tools, c.dialect);
    if (tools.error !== undefined) return failure(tools.error);
    const onText = request.onTextDelta;
    const body = openAIRequestBody(request, c.wire, tools, onText !== undefined);
    if (isModelError(body)) return failure(body);
    return await postWithRetries(
      c.transport,
      { url: c.url, headers: c.headers, body: JSON.stringify(body), ...(request.signal !== undefined ? { signal: request.signal } : {}) },
      (res: SuccessResponse) =>
        readModelResponse(res, c.transport.maxResponseBytes, onText, {
          provider: 'OpenAI',
          fromJson: (json, text) => openAIResponse(json, request, tools, text),
          stream: (onDelta) => {
            const acc = openAIStream(request, tools, onDelta);
            return { event: (e) => acc.event(e.data), result: () => acc.result() };
          },
        }),
    );
  } catch (e) {
    return failure(modelError(AgentCodes.LLM_API_ERROR, `OpenAI request failed unexpectedly: ${e instanceof Error ? e.message : String(e)}`));
  }
};
