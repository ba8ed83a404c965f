/**
 * Regenerates src/server/ui-assets.ts from src/server/ui/ (index.html, editor.js, app.js, style.css:
 * the admin page) and the TextMate grammar of editors/vscode (the editor's highlighting: one grammar
 * for every editor), bundled as text so that it is served wherever the code runs, the single-file
 * CLI included.
 * Run `npx tsx test/server/sync-ui.ts` after editing a file of the page; test/server/ui.test.ts
 * fails while the two disagree.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const UI_DIR = fileURLToPath(new URL('../../src/server/ui/', import.meta.url));
export const MODULE_PATH = fileURLToPath(new URL('../../src/server/ui-assets.ts', import.meta.url));
export const GRAMMAR_PATH = fileURLToPath(new URL('../../editors/vscode/syntaxes/gram.tmLanguage.json', import.meta.url));
export const UI_FILES = ['index.html', 'editor.js', 'app.js', 'style.css', 'gram.tmLanguage.json'] as const;

const lines = (text: string): string => ['[', ...text.split('\n').map((l) => `    ${JSON.stringify(l)},`), "  ].join('\\n')"].join('\n');

/** The TypeScript module holding the page's files, one source line per element. */
export const renderUiModule = (read: (file: string) => string): string =>
  [
    '/**',
    ' * GENERATED from src/server/ui/ (and editors/vscode/syntaxes/) by test/server/sync-ui.ts: do not edit; edit the files there and run',
    ' * `npx tsx test/server/sync-ui.ts`. The admin page as text, so it is served wherever the code runs.',
    ' */',
    'export const UI_ASSETS: Readonly<Record<string, string>> = {',
    ...UI_FILES.map((f) => `  ${JSON.stringify(f)}: ${lines(read(f))},`),
    '};',
    '',
  ].join('\n');

export const readUiFile = (file: string): string => readFileSync(file === 'gram.tmLanguage.json' ? GRAMMAR_PATH : `${UI_DIR}${file}`, 'utf8');

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(MODULE_PATH, renderUiModule(readUiFile));
  process.stdout.write(`wrote ${MODULE_PATH}\n`);
}
