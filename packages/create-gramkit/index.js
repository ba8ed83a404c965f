#!/usr/bin/env node
// `npm create gramkit [dir]` runs this bin: `gramkit init [dir]` of the gramkit this package
// depends on (installed next to it), with the same arguments, output and exit code.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
let manifest;
try {
  manifest = require.resolve('gramkit/package.json');
} catch {
  process.stderr.write('create-gramkit: the gramkit package is not installed next to create-gramkit (npm create gramkit installs both); or run `npx gramkit init`\n');
  process.exit(1);
}
const { bin } = require(manifest);
const cli = join(dirname(manifest), typeof bin === 'string' ? bin : bin.gramkit);
const run = spawnSync(process.execPath, [cli, 'init', ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(run.status ?? 1);
