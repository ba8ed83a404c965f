import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { defineConfig } from 'tsup';

// Two builds:
// - the library (ESM + .d.ts). It bundles Chevrotain: unbundled it loads as hundreds of modules
//   (~0.4 s of start-up here, against ~0.02 s bundled). So do ajv and the OpenTelemetry API (see
//   below); the other dependencies stay external. Its CommonJS entries (`require('gramkit')`) are
//   one line each, `module.exports = require('./index.js')`: Node ≥ 20.19 requires an ES module
//   (no entry has a top-level await), so a program that both requires and imports gramkit gets one
//   copy of it (one validator cache, one ToolFailure class), and the package carries no second
//   build (1.7 MB).
// - the CLI, one minified ESM bundle (code-split per command) with its dependencies bundled, so
//   start-up reads a few files instead of resolving hundreds of modules (importing Chevrotain
//   unbundled alone costs ~0.3 s). Dependencies that cost no such resolution stay external: the
//   large ones only some commands load, on demand (undici on the first HTTP request, Hono and the
//   Redis client for `serve` and catalogs, BullMQ for `ab --queue` and `worker`), and the single-file ones (re2js, jsonpath-plus,
//   commander, eventsource-parser). They are installed with the package anyway: bundling them
//   again would carry a second copy of each (1.7 MB) in the package.
//
// The optional peers (the MCP SDK, `ai`, `zod`, fast-check, tsx) stay external in the library: only the entries
// that need them import them (`gramkit/mcp`, `gramkit/ai-sdk`, `gramkit/zod`), never the root.
// The CLI bundles the MCP SDK (a dev dependency here) into chunks loaded only by `gramkit mcp` and
// by `mcp:` arguments.
const OPTIONAL_PEERS = [/^@modelcontextprotocol\//, /^ai(\/|$)/, /^zod(\/|$)/, /^fast-check(\/|$)/, /^tsx(\/|$)/];

const ENTRIES = {
  index: 'src/index.ts',
  gram: 'src/entries/gram.ts',
  types: 'src/entries/types.ts',
  providers: 'src/entries/providers.ts',
  tools: 'src/entries/tools.ts',
  builtins: 'src/entries/builtins.ts',
  policy: 'src/entries/policy.ts',
  project: 'src/entries/project.ts',
  testing: 'src/entries/testing.ts',
  catalog: 'src/entries/catalog.ts',
  server: 'src/entries/server.ts',
  mcp: 'src/entries/mcp.ts',
  'ai-sdk': 'src/entries/ai-sdk.ts',
  zod: 'src/entries/zod.ts',
  'standard-schema': 'src/entries/standard-schema.ts',
};

// Bundled into the library besides Chevrotain: ajv (with ajv-formats and its own dependencies,
// ~90 modules) and the OpenTelemetry API (~50), which the root entry loads; each module a program
// loads costs a resolution, a file read and, from ESM, a parse for its CommonJS exports. The
// OpenTelemetry API keeps its state in a global, so a user's SDK still sees gramkit's spans. The
// library bundles fp-ts and io-ts too (CommonJS only: ESM would parse them for their exports);
// their values are plain data and structural codecs, so a user's own copy works with them.
/** Not bundled into the CLI (see above); tsx and fs-native-extensions load files of their own. */
const CLI_EXTERNAL = ['tsx', 'nats', 'fs-native-extensions', 'bullmq', 'vscode-languageserver', 'vscode-languageserver-textdocument', 'undici', '@redis/client', 'hono', '@hono/node-server', 're2js', 'jsonpath-plus', 'commander', 'eventsource-parser'];

/** The CLI bundles every module but those (bench/gram.bench.ts builds the same bundle). */
export const CLI_NO_EXTERNAL = new RegExp(`^(?!(${CLI_EXTERNAL.map((p) => p.replace(/[/]/g, '\\/')).join('|')})(\\/|$)).*`);

const BUNDLED = ['chevrotain', /^ajv(-formats)?(\/|$)/, 'fast-deep-equal', 'json-schema-traverse', 'fast-uri', '@opentelemetry/api'];

/** The CommonJS entries: `dist/<entry>.cjs`, each requiring its ES module (see the top of this file). */
const commonJsEntries = async (): Promise<void> => {
  await Promise.all(
    Object.keys(ENTRIES).map((name) =>
      writeFile(join('dist', `${name}.cjs`), `'use strict';\n// gramkit's ES module, required (Node >= 20.19): one copy of gramkit for require() and import\nmodule.exports = require('./${name}.js');\n`),
    ),
  );
};

const library = {
  entry: ENTRIES,
  format: ['esm' as const],
  external: OPTIONAL_PEERS,
  noExternal: [...BUNDLED, /^fp-ts(\/|$)/, /^io-ts(\/|$)/],
  // the CommonJS declarations are copies of these (scripts/cjs-declarations.mjs, which `npm run
  // build` runs after tsup)
  dts: true,
  // shared chunks between the entries: one copy of each module's state (the validator cache,
  // ToolFailure's class) whichever entries a program imports
  splitting: true,
  // source maps for work in this repository (the package ships without them: package.json
  // "files"). The code is minified but for names, so stack traces still name functions.
  sourcemap: true,
  minifyWhitespace: true,
  minifySyntax: true,
  onSuccess: commonJsEntries,
  clean: true,
  target: 'node20',
  platform: 'node' as const,
};

export default defineConfig([
  library,
  {
    // `gramkit-api`: the root entry inside the CLI's own chunks, which a TypeScript library the CLI bundles imports as `gramkit` (cli/actions/bundle-typescript.ts)
    entry: { cli: 'src/cli/main.ts', 'gramkit-api': 'src/index.ts' },
    format: ['esm'],
    dts: false,
    sourcemap: true,
    // minified: the bundle carries its dependencies (the MCP SDK among them), and the package
    // ships it without source maps, so its size is what a user downloads
    minify: true,
    clean: false,
    target: 'node20',
    platform: 'node',
    splitting: true,
    // tsx stays external: it is only imported when a .ts library module must be loaded.
    // fs-native-extensions loads its native addon relative to its own files: it stays external too.
    noExternal: [CLI_NO_EXTERNAL],
    // fp-ts's ES build for its CommonJS one (core/either.ts imports fp-ts/lib, as its types do):
    // io-ts brings the ES build anyway, so the CLI carries one fp-ts, and only the functions it uses
    esbuildOptions: (options: { alias?: Record<string, string> }) => {
      options.alias = { ...options.alias, 'fp-ts/lib': 'fp-ts/es6' };
    },
    banner: {
      js: "#!/usr/bin/env node\nimport { createRequire as __gramkitCreateRequire } from 'node:module';\nconst require = __gramkitCreateRequire(import.meta.url);",
    },
  },
]);
