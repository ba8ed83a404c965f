/**
 * Vitest's global setup: `npm test` builds nothing (CI builds once, with `npm run build`; the
 * README's `npm run demo` builds when `dist/` is stale). The tests that run the CLI or the examples
 * use `dist/`, so a run without it stops at once saying how to build it, and a `dist/` older than
 * `src/` is reported (those tests would run the old build).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

export default function setup(): void {
  if (!existsSync(`${root}dist/cli.js`)) throw new Error('dist/ is not built: run npm run build (or npm run demo) first; npm test builds nothing');
  const verdict = spawnSync(process.execPath, [`${root}scripts/build-if-stale.mjs`, '--check'], { encoding: 'utf8' }).stdout.trim();
  if (verdict === 'stale') console.warn('dist/ is older than src/: the tests of the CLI and the examples run the old build (npm run build)');
}
