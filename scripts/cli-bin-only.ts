/**
 * The first module of the CLI's bundle (`dist/cli-main.cjs`): the bundle runs through the binary,
 * `dist/cli.js` (src/cli/bin.ts), which passes the function its dynamic imports call (`$gkImp`,
 * scripts/cli-bundle.ts). Run directly (`node dist/cli-main.cjs …`) it has no such function, and
 * would fail at its first dynamic import, after part of the command had run: it says so at once
 * instead, a usage error.
 */
import { EXIT_USAGE } from '../src/cli/context.js';
import { processIO } from '../src/cli/io.js';
import { usageError } from '../src/cli/report.js';

declare const $gkImp: unknown;

if (typeof $gkImp !== 'function') {
  // one line, no hint: the message is what to do
  usageError(processIO(), 'run dist/cli.js (the gramkit binary), not dist/cli-main.cjs (the bundle it runs)', '');
  process.exit(EXIT_USAGE);
}
