// Preloaded with `node --require` by tests that check what a command loads: every module the
// process loads goes to the file GRAMKIT_TEST_MODULES names, one URL a line. ES modules through a
// load hook (it runs on the hooks' thread, so it appends as it goes), CommonJS modules as each is
// required (a dependency loaded on first use is required), and through require's cache at exit
// (the CommonJS modules imported).
'use strict';
const { appendFileSync } = require('node:fs');
const Module = require('node:module');
const { register } = Module;
const { pathToFileURL } = require('node:url');

const out = process.env.GRAMKIT_TEST_MODULES;
if (out === undefined || out === '') throw new Error('record-modules.cjs: set GRAMKIT_TEST_MODULES to the file to write');
const hooks = `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(${JSON.stringify(out)}, url + '\\n');
  return next(url, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
const load = Module.prototype.load;
Module.prototype.load = function (filename) {
  appendFileSync(out, `${pathToFileURL(filename).href}\n`);
  return load.call(this, filename);
};
process.on('exit', () => {
  appendFileSync(out, Object.keys(require.cache).map((file) => `${pathToFileURL(file).href}\n`).join(''));
});
