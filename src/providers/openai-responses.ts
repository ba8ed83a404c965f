/**
 * The OpenAI Responses API (`POST /v1/responses`) as a gramkit `Model`, for api.openai.com and
 * compatible servers: `instructions`, `input` items, flat function tools (`strict` always said;
 * `strict: true` through the `openai-strict` dialect, arguments normalized back), streaming events
 * when the request has `onTextDelta`. Stateless: each call sends the whole conversation.
 */
import { AgentCodes } from '../agent/codes.js';
import { type Either, left, right } from '../core/either.js';
import type { Model, ModelError, ModelRequest, ModelResult } from '../agent/model.js';
import { postWithRetries, type SuccessResponse, type TransportOptions } from './http.js';
import { failure, missingKeyError, modelError } from './model-error.js';
import { OPENAI_BASE_URL } from './openai.js';
import { responsesRequestBody, responsesResponse, responsesStream, type ResponsesWireOptions } from './openai-responses-wire.js';
import { prepareTools } from './prepared-tools.js';
import { checkBaseUrl, checkModelName, isModelError, transportFrom, type ProviderOptions } from './provider-options.js';
import { readModelResponse } from './read-response.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface OpenAIResponsesOptions extends ProviderOptions {
  /** Send tools with `strict: true`; tools that cannot be strict go with `strict: false`. */
  readonly strict?: boolean;
  /** `OpenAI-Organization` and `OpenAI-Project` headers. */
  readonly organization?: string;
  readonly project?: string;
  /** Whether OpenAI keeps the responses (`store`); not sent by default, so the API's default applies. */
  readonly store?: boolean;
}

interface Config {
  readonly transport: TransportOptions;
  readonly wire: ResponsesWireOptions;
  readonly headers: Readonly<Record<string, string>>;
  readonly url: string;
  readonly dialect: 'openai' | 'openai-strict';
}

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

/**
 * An OpenAI Responses model. A key is required for api.openai.com; a compatible server at
 * another `baseUrl` may need none, and then no `Authorization` is sent.
 */
export const openAIResponsesModel = (model: string, options: OpenAIResponsesOptions = {}): Either<ModelError, Model> => {
  const badName = checkModelName('openai-responses', model);
  if (badName !== undefined) return left(badName);
  const base = checkBaseUrl(options.baseUrl ?? OPENAI_BASE_URL);
  if (isModelError(base)) return left(base);
  const official = options.baseUrl === undefined || new URL(base).hostname === 'api.openai.com';
  const key = options.apiKey;
  if (official && (key === undefined || key.trim().length === 0)) {
    return left(missingKeyError('no OpenAI API key: set OPENAI_API_KEY (or pass apiKey); for a local compatible server, give its base URL', 'OPENAI_API_KEY'));
  }
  const transport = transportFrom('OpenAI', options);
  if (isModelError(transport)) return left(transport);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    ...(key !== undefined && key.length > 0 ? { authorization: `Bearer ${key}` } : {}),
    ...(options.organization !== undefined ? { 'openai-organization': options.organization } : {}),
    ...(options.project !== undefined ? { 'openai-project': options.project } : {}),
    ...options.headers,
  };
  const config: Config = {
    transport,
    wire: { model, ...(options.store !== undefined ? { store: options.store } : {}) },
    headers,
    url: `${base}/responses`,
    dialect: options.strict === true ? 'openai-strict' : 'openai',
  };
  return right({ id: `openai-responses/${model}`, generate: (request) => generate(request, config) });
};

// -------------------------------------------------------------------------------------------------
// generate
// -------------------------------------------------------------------------------------------------

const generate = async (request: ModelRequest, c: Config): Promise<ModelResult> => {
  try {
    const tools = prepareTools(request.tools, c.dialect);
    if (tools.error !== undefined) return failure(tools.error);
    const onText = request.onTextDelta;
    const body = responsesRequestBody(request, c.wire, tools, onText !== undefined);
    return await postWithRetries(
      c.transport,
      { url: c.url, headers: c.headers, body: JSON.stringify(body), ...(request.signal !== undefined ? { signal: request.signal } : {}) },
      (res: SuccessResponse) =>
        readModelResponse(res, c.transport.maxResponseBytes, onText, {
          provider: 'OpenAI',
          fromJson: (json, text) => responsesResponse(json, request, tools, text),
          stream: (onDelta) => {
            const acc = responsesStream(request, tools, onDelta);
            return { event: (e) => acc.event(e.event, e.data), result: () => acc.result() };
          },
        }),
    );
  } catch (e) {
    return failure(modelError(AgentCodes.LLM_API_ERROR, `OpenAI request failed unexpectedly: ${e instanceof Error ? e.message : String(e)}`));
  }
};
