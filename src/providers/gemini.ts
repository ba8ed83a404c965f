/**
 * Google Gemini (`generateContent`) as a gramkit `Model`: function declarations in Gemini's
 * schema subset (the `gemini` dialect), `functionCall`/`functionResponse` parts, a system
 * instruction, streaming with `:streamGenerateContent?alt=sse` when the request has
 * `onTextDelta`; the key in the `x-goog-api-key` header.
 */
import { AgentCodes } from '../agent/codes.js';
import { type Either, left, right } from '../core/either.js';
import type { Model, ModelError, ModelRequest, ModelResult } from '../agent/model.js';
import { geminiRequestBody, geminiResponse, geminiRetryDelayMs, geminiStream } from './gemini-wire.js';
import { postWithRetries, type SuccessResponse, type TransportOptions } from './http.js';
import { configurationError, failure, missingKeyError, modelError } from './model-error.js';
import { prepareTools } from './prepared-tools.js';
import { checkBaseUrl, checkModelName, isModelError, transportFrom, type ProviderOptions } from './provider-options.js';
import { readModelResponse } from './read-response.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export const GEMINI_BASE_URL = 'https://generativelanguage.googleapis.com';

/** The API version in the path: `v1beta` has function calling, `systemInstruction` and call ids. */
export const GEMINI_API_VERSION = 'v1beta';

export type GeminiOptions = ProviderOptions;

interface Config {
  readonly transport: TransportOptions;
  readonly headers: Readonly<Record<string, string>>;
  readonly url: string;
  readonly streamUrl: string;
}

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

/**
 * A Gemini model (`gemini-2.5-flash`, `models/gemini-2.5-pro`, ...). The key is required;
 * `baseUrl` is the API root without the version (`https://generativelanguage.googleapis.com`).
 */
export const geminiModel = (model: string, options: GeminiOptions = {}): Either<ModelError, Model> => {
  const name = model.replace(/^models\//, '');
  const badName = checkModelName('gemini', name);
  if (badName !== undefined) return left(badName);
  if (/[/?#]/.test(name))
    return left(configurationError(`Gemini model name ${JSON.stringify(model)} contains "/", "?" or "#": write gemini/<model>, e.g. gemini/gemini-2.5-flash`));
  const key = options.apiKey;
  if (key === undefined || key.trim().length === 0) return left(missingKeyError('no Gemini API key: set GEMINI_API_KEY (or pass apiKey)', 'GEMINI_API_KEY'));
  const base = checkBaseUrl(options.baseUrl ?? GEMINI_BASE_URL);
  if (isModelError(base)) return left(base);
  const transport = transportFrom('Gemini', options);
  if (isModelError(transport)) return left(transport);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'x-goog-api-key': key,
    ...options.headers,
  };
  // like the official SDK, the base URL is the API root without the version
  const root = `${base.replace(/\/v1(beta|alpha)?$/, '')}/${GEMINI_API_VERSION}/models/${name}`;
  const config: Config = {
    transport: { ...transport, retryDelayFromBody: geminiRetryDelayMs },
    headers,
    url: `${root}:generateContent`,
    streamUrl: `${root}:streamGenerateContent?alt=sse`,
  };
  return right({ id: `gemini/${name}`, generate: (request) => generate(request, config) });
};

// -------------------------------------------------------------------------------------------------
// generate
// -------------------------------------------------------------------------------------------------

const generate = async (request: ModelRequest, c: Config): Promise<ModelResult> => {
  try {
    const tools = prepareTools(request.tools, 'gemini');
    if (tools.error !== undefined) return failure(tools.error);
    const onText = request.onTextDelta;
    const body = geminiRequestBody(request, tools);
    const url = onText !== undefined ? c.streamUrl : c.url;
    const result = await postWithRetries(
      c.transport,
      { url, headers: c.headers, body: JSON.stringify(body), ...(request.signal !== undefined ? { signal: request.signal } : {}) },
      (res: SuccessResponse) =>
        readModelResponse(res, c.transport.maxResponseBytes, onText, {
          provider: 'Gemini',
          fromJson: (json, text) => geminiResponse(json, request, tools, text),
          stream: (onDelta) => {
            const acc = geminiStream(request, tools, onDelta);
            return { event: (e) => acc.event(e.data), result: () => acc.result(true) };
          },
        }),
    );
    return result;
  } catch (e) {
    return failure(modelError(AgentCodes.LLM_API_ERROR, `Gemini request failed unexpectedly: ${e instanceof Error ? e.message : String(e)}`));
  }
};
