/**
 * Installing the package runs nothing of it: the published package.json has no script npm runs
 * on a consumer's install (`prepare: tsup` made npm warn that gramkit has install scripts, and
 * would build from sources the package does not ship). A clone builds with `npm run build`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };

describe('package.json', () => {
  it('has no install lifecycle script (preinstall, install, postinstall, prepare)', () => {
    for (const s of ['preinstall', 'install', 'postinstall', 'prepare']) expect(manifest.scripts[s], s).toBeUndefined();
  });

  it("builds with npm run build, which CI runs after npm ci; the README's quick start is two commands that build when dist/ is stale", () => {
    // declarations are generated once (tsup's ESM pass), then copied as the CommonJS ones
    expect(manifest.scripts['build']).toBe('tsup && node scripts/cjs-declarations.mjs');
    expect(readFileSync(join(root, '.ci', 'run'), 'utf8')).toMatch(/^npm ci\nnpm run build\n/m);
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toMatch(/^npm ci && npm run demo\nnpm test\n```/m);
    expect(manifest.scripts['demo']).toMatch(/^node scripts\/build-if-stale\.mjs && node dist\/cli\.js run examples\/helloAgent\.gram /);
    // npm test builds nothing: CI has built once with npm run build
    expect(manifest.scripts['pretest']).toBeUndefined();
  });
});
