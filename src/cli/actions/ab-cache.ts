/**
 * `gramkit ab --cache DIR`: a model response cache. Each answer is kept in `DIR` under the hash of
 * the whole request (the model's id, the instruction, every message, the tools shown, the
 * options); a request already made is answered from the file, without asking the model, so
 * re-scoring or re-running an experiment makes no model request it already made. Only answers are
 * kept, not failures. A file that cannot be read is a miss.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Model, ModelRequest, ModelResponse } from '../../agent/model.js';

/** The key of a request: what decides the answer (not the abort signal or the streaming callback). */
export const requestKey = (modelId: string, request: ModelRequest): string => {
  const { signal: _signal, onTextDelta: _onTextDelta, ...rest } = request;
  return createHash('sha256')
    .update(JSON.stringify({ model: modelId, ...rest }))
    .digest('hex');
};

/** `model` answering from `dir` what it answered before. */
export const cachedModel = (model: Model, dir: string): Model => {
  mkdirSync(dir, { recursive: true });
  return {
    id: model.id,
    generate: async (request) => {
      const file = join(dir, `${requestKey(model.id, request)}.json`);
      try {
        const response = JSON.parse(readFileSync(file, 'utf8')) as ModelResponse;
        if (request.onTextDelta !== undefined && response.message.content !== '') request.onTextDelta(response.message.content);
        return { ok: true, value: response };
      } catch {
        // not cached yet
      }
      const r = await model.generate(request);
      if (r.ok) {
        const tmp = `${file}.${process.pid}.tmp`;
        writeFileSync(tmp, JSON.stringify(r.value));
        renameSync(tmp, file);
      }
      return r;
    },
  };
};
