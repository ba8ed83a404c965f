// Preloaded with `node --require` by tests that check what a command loads: every module the
// process loads goes to the file GRAMKIT_TEST_MODULES names, one URL a line. ES modules through a
// load hook (it runs on the hooks' thread, so it appends as it goes), CommonJS modules, whether
// imported or required (a dependency loaded on first use is required), through require's cache
// at exit.
'use strict';
const { appendFileSync } = require('node:fs');
const { register } = require('node:module');
const { pathToFileURL } = require('node:url');

const out = process.env.GRAMKIT_TEST_MODULES;
if (out === undefined || out === '') throw new Error('record-modules.cjs: set GRAMKIT_TEST_MODULES to the file to write');
const hooks = `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(${JSON.stringify(out)}, url + '\\n');
  return next(url, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
process.on('exit', () => {
  appendFileSync(out, Object.keys(require.cache).map((file) => `${pathToFileURL(file).href}\n`).join(''));
});
