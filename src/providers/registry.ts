/**
 * Models by id: `openai/<model>`, `openai-responses/<model>`, `anthropic/<model>`,
 * `gemini/<model>`, `offline` (or `offline/<anything>`), and `replay:<file>`. Keys and base URLs
 * are passed in — the CLI reads `OPENAI_API_KEY`, `ANTHROPIC_API_KEY` and `GEMINI_API_KEY`;
 * nothing here reads the environment. Never falls back to another model: `openai/...` without a
 * key is a `CONFIGURATION_ERROR`, not the offline model.
 */
import { type Either, left, right } from '../core/either.js';
import type { Model, ModelError } from '../agent/model.js';
import { anthropicModel, type AnthropicOptions } from './anthropic.js';
import { geminiModel, type GeminiOptions } from './gemini.js';
import { configurationError } from './model-error.js';
import { offlineModel } from './offline.js';
import { openAIModel, type OpenAIOptions } from './openai.js';
import { openAIResponsesModel, type OpenAIResponsesOptions } from './openai-responses.js';
import { loadRecording } from './recording.js';
import { replayModel } from './replay.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface CreateModelOptions extends OpenAIOptions, OpenAIResponsesOptions, AnthropicOptions, GeminiOptions {
  /** Directory `replay:<file>` is resolved against (the CLI passes its working directory). */
  readonly cwd?: string;
  /** How `replay:` matches requests (default `exact`). */
  readonly replayMatch?: 'exact' | 'sequence';
}

export type ModelId =
  | { readonly provider: 'openai' | 'openai-responses' | 'anthropic' | 'gemini'; readonly model: string }
  | { readonly provider: 'offline'; readonly model: string }
  | { readonly provider: 'replay'; readonly file: string };

export const MODEL_ID_FORMS = ['openai/<model>', 'openai-responses/<model>', 'anthropic/<model>', 'gemini/<model>', 'offline', 'replay:<file>'] as const;

const HTTP_PROVIDERS: ReadonlyArray<string> = ['openai', 'openai-responses', 'anthropic', 'gemini'];
const isHttpProvider = (p: string): p is 'openai' | 'openai-responses' | 'anthropic' | 'gemini' => HTTP_PROVIDERS.includes(p);

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------


const guess = (id: string): string => {
  const lower = id.toLowerCase();
  if (/^(gpt|o\d|chatgpt|text-)/.test(lower)) return ` (did you mean openai/${id}?)`;
  if (lower.startsWith('claude')) return ` (did you mean anthropic/${id}?)`;
  if (lower.startsWith('gemini')) return ` (did you mean gemini/${id}?)`;
  return '';
};

/** The parts of a model id, or a `CONFIGURATION_ERROR` that lists the accepted forms. */
export const parseModelId = (id: string): Either<ModelError, ModelId> => {
  const trimmed = id.trim();
  if (trimmed === 'offline' || trimmed.startsWith('offline/')) return right({ provider: 'offline', model: trimmed.slice('offline/'.length) });
  if (trimmed.startsWith('replay:')) {
    const file = trimmed.slice('replay:'.length);
    return file.length === 0 ? left(configurationError('replay: needs a file, e.g. replay:conversation.json')) : right({ provider: 'replay', file });
  }
  const slash = trimmed.indexOf('/');
  const provider = slash === -1 ? trimmed : trimmed.slice(0, slash);
  if (isHttpProvider(provider)) return right({ provider, model: slash === -1 ? '' : trimmed.slice(slash + 1) });
  return left(configurationError(`unknown model "${id}"${guess(trimmed)}: write ${MODEL_ID_FORMS.join(', ')}`, { forms: MODEL_ID_FORMS }));
};

/**
 * The model for `id`. `apiKey`, `baseUrl` and the other options go to the provider; options a
 * provider does not use are ignored.
 */
export const createModel = (id: string, options: CreateModelOptions = {}): Either<ModelError, Model> => {
  const parsed = parseModelId(id);
  if (parsed._tag === 'Left') return parsed;
  const p = parsed.right;
  switch (p.provider) {
    case 'offline':
      return right(offlineModel({ id: id.trim() }));
    case 'replay': {
      const recording = loadRecording(p.file, options.cwd);
      if (recording._tag === 'Left') return recording;
      return right(replayModel(recording.right, { id: id.trim(), ...(options.replayMatch !== undefined ? { match: options.replayMatch } : {}) }));
    }
    case 'openai':
      return openAIModel(p.model, options);
    case 'openai-responses':
      return openAIResponsesModel(p.model, options);
    case 'anthropic':
      return anthropicModel(p.model, options);
    case 'gemini':
      return geminiModel(p.model, options);
  }
};
