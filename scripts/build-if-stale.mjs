// `npm run demo`'s first step: builds dist/ with tsup only when it is missing or older than what it
// is built from. `npm test` builds nothing (CI builds once, with `npm run build`); its global setup
// (test/support/dist-ready.ts) uses `--check`. Stale means: some file under src/, or tsup.config.ts, tsconfig.json or
// package.json, was modified after the oldest file of dist/ (tsup's build empties dist/ first, so
// after a build every file of dist/ is newer than its inputs). `--check` prints the verdict only.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const files = (dir) =>
  existsSync(dir) ? readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)])) : [];
const mtime = (file) => statSync(file).mtimeMs;

const inputs = [...files(join(root, 'src')), ...['tsup.config.ts', 'tsconfig.json', 'package.json'].map((f) => join(root, f))];
const outputs = files(join(root, 'dist'));
const newestInput = Math.max(...inputs.map(mtime));
const oldestOutput = outputs.length === 0 ? -Infinity : Math.min(...outputs.map(mtime));
const stale = !existsSync(join(root, 'dist', 'cli.js')) || newestInput > oldestOutput;

if (process.argv.includes('--check')) {
  console.log(stale ? 'stale' : 'fresh');
} else if (stale) {
  const r = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
  process.exit(r.status ?? 1);
}
