// Preloaded by test/api/optional-peers.test.ts: ESM hooks (forbid-peers-hooks.mjs) and the same
// check for require(), so that loading an optional peer from gramkit's code fails.
const Module = require('node:module');
const { pathToFileURL } = require('node:url');
Module.register(pathToFileURL(`${__dirname}/forbid-peers-hooks.mjs`));
const forbidden = (process.env.FORBID ?? '').split(',').filter((s) => s !== '');
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
  // parent is null for a CommonJS module an ES module imports (gramkit's CommonJS entries require its ES modules)
  const fromGramkit = parent !== undefined && parent !== null && parent.filename !== null && parent.filename !== undefined && !parent.filename.includes('/node_modules/');
  if (fromGramkit && forbidden.some((p) => request === p || request.startsWith(`${p}/`))) throw new Error(`optional peer required: ${request} (from ${parent.filename})`);
  return resolveFilename.call(this, request, parent, ...rest);
};
