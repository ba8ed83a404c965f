/**
 * `npm run bench [-- name...]`: runs every `bench/*.bench.ts` (or those whose name contains one of
 * the arguments), one after another in this process, each printing its own ratios.
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const filters = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();

if (files.length === 0) {
  process.stderr.write(`no benchmark matches ${filters.join(', ')}\n`);
  process.exitCode = 2;
}
for (const f of files) {
  process.stdout.write(`\n# ${f}\n`);
  const mod = (await import(pathToFileURL(join(here, f)).href)) as { default: () => Promise<void> | void };
  await mod.default();
}
