/**
 * `replay`: a model that answers from a recording (`recording.ts`), so a conversation with a real
 * model can be tested deterministically; and `recordModel`, which wraps any model and writes what
 * it was asked and what it answered (the CLI's `--record`).
 *
 * Matching (`match: 'exact'`, the default): a request gets the answer of the first unused
 * exchange whose recorded request is equal to it, in any order (so concurrent conversations
 * replay too). A request the recording does not have is a `REPLAY_MISMATCH` that names the first
 * place where it differs from the next unused exchange. `match: 'sequence'` returns the answers in
 * recorded order without comparing requests.
 */
import { plural } from '../core/plural.js';
import { AgentCodes } from '../agent/codes.js';
import { randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Model, ModelRequest, ModelResult } from '../agent/model.js';
import { stableStringify } from '../core/stable-json.js';
import { callSafely, cancelledError, configurationError, failure, modelError } from './model-error.js';
import { firstDifference, recordedRequest, serializeRecording, type RecordedExchange, type Recording } from './recording.js';
import { textDeltas } from './text-deltas.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface ReplayOptions {
  /** Default: `replay` (or `replay:<file>` from the registry). */
  readonly id?: string;
  readonly match?: 'exact' | 'sequence';
}

export interface RecordOptions {
  /** Directory a relative `file` is resolved against (default: the working directory). */
  readonly cwd?: string;
}

// -------------------------------------------------------------------------------------------------
// replay
// -------------------------------------------------------------------------------------------------

const brief = (v: unknown): string => {
  const s = JSON.stringify(v) ?? 'nothing';
  return s.length > 80 ? `${s.slice(0, 79)}…` : s;
};

/** A model answering from `recording`. */
export const replayModel = (recording: Recording, options: ReplayOptions = {}): Model => {
  const exchanges = recording.exchanges;
  const used = exchanges.map(() => false);
  let keys: string[] | undefined;
  let served = 0;

  const replay = (exchange: RecordedExchange, request: ModelRequest): ModelResult => {
    const r = exchange.response;
    if (r.ok && request.onTextDelta !== undefined) {
      for (const d of exchange.textDeltas ?? textDeltas(r.value.message.content)) {
        const err = callSafely(request.onTextDelta, d);
        if (err !== undefined) return failure(err);
      }
    }
    return r;
  };

  return {
    id: options.id ?? 'replay',
    generate: async (request) => {
      if (request.signal?.aborted === true) return failure(cancelledError('the replayed model call'));
      const n = ++served;
      if (exchanges.length === 0) {
        return failure(modelError(AgentCodes.REPLAY_MISMATCH, `request ${n} has no recorded answer: the recording is empty`, { details: { request: n } }));
      }
      const next = used.indexOf(false);
      if (options.match === 'sequence') {
        if (next === -1)
          return failure(
            modelError(
              AgentCodes.REPLAY_MISMATCH,
              `request ${n} has no recorded answer: all ${plural(exchanges.length, 'exchange')} of the recording were used`,
              { details: { request: n } },
            ),
          );
        used[next] = true;
        return replay(exchanges[next] as RecordedExchange, request);
      }
      keys ??= exchanges.map((e) => stableStringify(e.request));
      const mine = recordedRequest(request);
      const key = stableStringify(mine);
      const hit = keys.findIndex((k, i) => !used[i] && k === key);
      if (hit !== -1) {
        used[hit] = true;
        return replay(exchanges[hit] as RecordedExchange, request);
      }
      const again = keys.indexOf(key);
      if (again !== -1) {
        return failure(
          modelError(
            AgentCodes.REPLAY_MISMATCH,
            `request ${n} is not in the recording any more: it is recorded exchange ${again + 1}, which was already replayed`,
            {
              details: { request: n, exchange: again + 1 },
            },
          ),
        );
      }
      // compare with the exchange this request would have had: the next unused one, or the one at its position
      const target = next !== -1 ? next : Math.min(n - 1, exchanges.length - 1);
      const expected = exchanges[target] as RecordedExchange;
      const d = firstDifference(JSON.parse(JSON.stringify(expected.request)), JSON.parse(JSON.stringify(mine)));
      const why =
        d === undefined
          ? `it matches no recorded exchange`
          : `it differs from recorded exchange ${target + 1} at ${d.path}: recorded ${brief(d.recorded)}, got ${brief(d.got)}`;
      return failure(
        modelError(AgentCodes.REPLAY_MISMATCH, `request ${n} is not in the recording; ${why}`, {
          details: { request: n, exchange: target + 1, ...(d !== undefined ? { path: d.path, recorded: d.recorded, got: d.got } : {}) },
        }),
      );
    },
  };
};

// -------------------------------------------------------------------------------------------------
// record
// -------------------------------------------------------------------------------------------------

/**
 * `inner`, recording every exchange into `file` (rewritten after each call, atomically, so the
 * file exists as soon as one call was made). A call the caller cancelled is not recorded. When the file cannot be written, the call fails with
 * `CONFIGURATION_ERROR` rather than losing the recording silently.
 */
export const recordModel = (inner: Model, file: string, options: RecordOptions = {}): Model => {
  const path = options.cwd === undefined ? resolve(file) : resolve(options.cwd, file);
  const exchanges: RecordedExchange[] = [];
  let writes: Promise<string | undefined> = Promise.resolve(undefined);

  const save = (): Promise<string | undefined> => {
    const snapshot: Recording = { format: 'gramkit-replay', version: 1, model: inner.id, exchanges: [...exchanges] };
    writes = writes.then(async () => {
      try {
        await mkdir(dirname(path), { recursive: true });
        const tmp = `${path}.${randomUUID()}.tmp`;
        await writeFile(tmp, serializeRecording(snapshot), 'utf8');
        await rename(tmp, path);
        return undefined;
      } catch (e) {
        return e instanceof Error ? e.message : String(e);
      }
    });
    return writes;
  };

  return {
    id: inner.id,
    generate: async (request) => {
      const deltas: string[] = [];
      const onTextDelta = request.onTextDelta;
      const result = await inner.generate(
        onTextDelta === undefined
          ? request
          : {
              ...request,
              onTextDelta: (d: string) => {
                deltas.push(d);
                onTextDelta(d);
              },
            },
      );
      const cancelled = !result.ok && result.error.reason === AgentCodes.CANCELLED;
      if (!cancelled) exchanges.push({ request: recordedRequest(request), response: result, ...(onTextDelta !== undefined ? { textDeltas: deltas } : {}) });
      const problem = await save();
      if (cancelled) return result;
      if (problem !== undefined) return failure(configurationError(`cannot write the recording ${file}: ${problem}`));
      return result;
    },
  };
};
