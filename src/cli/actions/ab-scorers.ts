/**
 * `gramkit ab --scorer ./my-scorer.mjs`: a module whose default export is a scorer,
 * `(run) => {score, reason}` (or a number from 0 to 1, or a boolean; sync or async). Its scores are
 * named after the file (`my-scorer`). A module that does not load or exports no function is an
 * error before anything runs.
 */
import { stat } from 'node:fs/promises';
import { basename, extname, isAbsolute, resolve } from 'node:path';
import type { ExperimentScorer } from '../../agent/experiment-scoring.js';
import { importModule } from '../../project/load-library.js';
import { importTypeScript } from './import-typescript.js';

const TS = new Set(['.ts', '.mts', '.cts']);

/** The scorers of `files` by name, or every problem. */
export const loadScorers = async (
  cwd: string,
  files: ReadonlyArray<string>,
): Promise<{ readonly scorers: Readonly<Record<string, ExperimentScorer>>; readonly problems: ReadonlyArray<string> }> => {
  const scorers: Record<string, ExperimentScorer> = {};
  const problems: string[] = [];
  for (const ref of files) {
    const file = isAbsolute(ref) ? ref : resolve(cwd, ref);
    const name = basename(file, extname(file));
    try {
      const s = await stat(file);
      const namespace = (await importModule(file, s.mtimeMs, TS.has(extname(file).toLowerCase()) ? importTypeScript : undefined)) as Record<string, unknown>;
      const fn = namespace['default'] ?? namespace['score'];
      if (typeof fn !== 'function') problems.push(`--scorer ${ref}: the module exports no scorer (a default export (run) => {score, reason})`);
      else if (scorers[name] !== undefined) problems.push(`--scorer ${ref}: two scorers are named "${name}"`);
      else scorers[name] = fn as ExperimentScorer;
    } catch (e) {
      problems.push(`--scorer ${ref}: cannot load it: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return { scorers, problems };
};
