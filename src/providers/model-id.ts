/**
 * Model ids (`openai/<model>`, `anthropic/<model>`, `offline`, `replay:<file>`...) read without
 * loading a provider: `gramkit check` validates the models of a file's agents and never calls one.
 */
import { type Either, left, right } from '../core/either.js';
import type { ModelError } from '../agent/model.js';
import { configurationError } from './model-error.js';

export type ModelId =
  | { readonly provider: 'openai' | 'openai-responses' | 'anthropic' | 'gemini'; readonly model: string }
  | { readonly provider: 'offline'; readonly model: string }
  | { readonly provider: 'replay'; readonly file: string };

export const MODEL_ID_FORMS = ['openai/<model>', 'openai-responses/<model>', 'anthropic/<model>', 'gemini/<model>', 'offline', 'replay:<file>'] as const;

const HTTP_PROVIDERS: ReadonlyArray<string> = ['openai', 'openai-responses', 'anthropic', 'gemini'];
const isHttpProvider = (p: string): p is 'openai' | 'openai-responses' | 'anthropic' | 'gemini' => HTTP_PROVIDERS.includes(p);

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
