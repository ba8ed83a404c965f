/**
 * Models by id: `openai/<model>`, `openai-responses/<model>`, `anthropic/<model>`,
 * `gemini/<model>`, `offline` (or `offline/<anything>`), and `replay:<file>`. Keys and base URLs
 * are passed in — the CLI reads `OPENAI_API_KEY`, `ANTHROPIC_API_KEY` and `GEMINI_API_KEY`;
 * nothing here reads the environment. Never falls back to another model: `openai/...` without a
 * key is a `CONFIGURATION_ERROR`, not the offline model.
 */
import { type Either, right, isLeft } from '../core/either.js';
import type { Model, ModelError } from '../agent/model.js';
import { anthropicModel, type AnthropicOptions } from './anthropic.js';
import { geminiModel, type GeminiOptions } from './gemini.js';
import { parseModelId } from './model-id.js';
import { offlineModel } from './offline.js';
import { openAIModel, type OpenAIOptions } from './openai.js';
import { openAIResponsesModel, type OpenAIResponsesOptions } from './openai-responses.js';
import { loadRecording } from './recording.js';
import { replayModel } from './replay.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export { MODEL_ID_FORMS, parseModelId, type ModelId } from './model-id.js';

export interface CreateModelOptions extends OpenAIOptions, OpenAIResponsesOptions, AnthropicOptions, GeminiOptions {
  /** Directory `replay:<file>` is resolved against (the CLI passes its working directory). */
  readonly cwd?: string;
  /** How `replay:` matches requests (default `exact`). */
  readonly replayMatch?: 'exact' | 'sequence';
}

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

/**
 * The model for `id`. `apiKey`, `baseUrl` and the other options go to the provider; options a
 * provider does not use are ignored.
 */
export const createModel = (id: string, options: CreateModelOptions = {}): Either<ModelError, Model> => {
  const parsed = parseModelId(id);
  if (isLeft(parsed)) return parsed;
  const p = parsed.right;
  switch (p.provider) {
    case 'offline':
      return right(offlineModel({ id: id.trim() }));
    case 'replay': {
      const recording = loadRecording(p.file, options.cwd);
      if (isLeft(recording)) return recording;
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
