/**
 * Regenerates src/tools/builtin/builtins-gram.ts from src/tools/builtin/builtins.gram (the text bundled into
 * the library and the CLI). Run `npx tsx test/tools/builtin/sync-gram.ts` after editing the .gram file;
 * test/tools/builtin/specifications.test.ts fails while the two disagree.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const GRAM_PATH = fileURLToPath(new URL('../../../src/tools/builtin/builtins.gram', import.meta.url));
export const MODULE_PATH = fileURLToPath(new URL('../../../src/tools/builtin/builtins-gram.ts', import.meta.url));

/** The TypeScript module holding `text`, one source line per element. */
export const renderGramModule = (text: string): string => {
  const lines = text.split('\n');
  return [
    '/**',
    ' * GENERATED from builtins.gram by test/tools/builtin/sync-gram.ts: do not edit; edit builtins.gram and',
    ' * run `npx tsx test/tools/builtin/sync-gram.ts`. Bundling the text as a module makes the built-in',
    ' * specifications available wherever the code runs (the library, the single-file CLI).',
    ' */',
    'export const BUILTINS_GRAM: string = [',
    ...lines.map((l) => `  ${JSON.stringify(l)},`),
    "].join('\\n');",
    '',
  ].join('\n');
};

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(MODULE_PATH, renderGramModule(readFileSync(GRAM_PATH, 'utf8')));
  process.stdout.write(`wrote ${MODULE_PATH}\n`);
}
