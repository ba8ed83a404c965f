import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { defineConfig } from 'tsup';
import { rewriteDynamicImports, writeCliApi } from './scripts/cli-bundle.js';

// Two builds:
// - the library (ESM + .d.ts). It bundles Chevrotain: unbundled it loads as hundreds of modules
//   (~0.4 s of start-up here, against ~0.02 s bundled). So do ajv and the OpenTelemetry API (see
//   below); the other dependencies stay external. Its CommonJS entries (`require('gramkit')`) are
//   one line each, `module.exports = require('./index.js')`: Node ≥ 20.19 requires an ES module
//   (no entry has a top-level await), so a program that both requires and imports gramkit gets one
//   copy of it (one validator cache, one ToolFailure class), and the package carries no second
//   build (1.7 MB).
// - the CLI: a small binary (src/cli/bin.ts) that runs one minified CommonJS bundle of the CLI
//   through V8's code cache, with its dependencies bundled, so start-up reads a few files instead of
//   resolving hundreds of modules (importing Chevrotain unbundled alone costs ~0.3 s), and compiles
//   little of them. Dependencies that cost no such resolution stay external: the
//   large ones only some commands load, on demand (undici on the first HTTP request, Hono and the
//   Redis client for `serve` and catalogs, BullMQ for `ab --queue` and `worker`), and the single-file ones (re2js, jsonpath-plus,
//   commander, eventsource-parser). They are installed with the package anyway: bundling them
//   again would carry a second copy of each (1.7 MB) in the package.
//
// The optional peers (the MCP SDK, `ai`, `zod`, fast-check, tsx) stay external in the library: only the entries
// that need them import them (`gramkit/mcp`, `gramkit/ai-sdk`, `gramkit/zod`), never the root.
// The CLI carries the MCP SDK (a dev dependency here) in a file of its own, required only by
// `gramkit mcp`, `mcp:` arguments and serve's `/mcp`.
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

/** The MCP SDK's entries the CLI imports, each a property of `dist/mcp-sdk.cjs` (src/cli/mcp-sdk.ts). */
const MCP_SDK: Record<string, string> = {
  '@modelcontextprotocol/server': 'server',
  '@modelcontextprotocol/server/stdio': 'serverStdio',
  '@modelcontextprotocol/client': 'client',
  '@modelcontextprotocol/client/stdio': 'clientStdio',
};

/** In the CLI's bundle, an import of the MCP SDK is a property of `dist/mcp-sdk.cjs`, required when the importing module is first initialized. */
const mcpSdkOnDemand = {
  name: 'mcp-sdk-on-demand',
  setup(build: {
    onResolve: (o: { filter: RegExp; namespace?: string }, f: (a: { path: string }) => { path: string; namespace?: string; external?: boolean }) => void;
    onLoad: (o: { filter: RegExp; namespace: string }, f: (a: { path: string }) => { contents: string; loader: 'js' }) => void;
  }) {
    build.onResolve({ filter: /^@modelcontextprotocol\// }, (args) => {
      if (MCP_SDK[args.path] === undefined) throw new Error(`${args.path}: add it to src/cli/mcp-sdk.ts and MCP_SDK (tsup.config.ts)`);
      return { path: args.path, namespace: 'mcp-sdk' };
    });
    build.onResolve({ filter: /^\.\/mcp-sdk\.cjs$/, namespace: 'mcp-sdk' }, (args) => ({ path: args.path, external: true }));
    build.onLoad({ filter: /.*/, namespace: 'mcp-sdk' }, (args) => ({
      contents: `module.exports = require('./mcp-sdk.cjs')[${JSON.stringify(MCP_SDK[args.path])}];`,
      loader: 'js',
    }));
  },
};

const cli = {
  target: 'node20',
  platform: 'node' as const,
  dts: false,
  clean: false,
  splitting: false,
  // minified: the bundle carries its dependencies, and the package ships it without source maps,
  // so its size is what a user downloads
  minify: true,
};

export default defineConfig([
  library,
  {
    // the binary: the loader of the CLI's bundle through V8's code cache (src/cli/bin.ts)
    ...cli,
    entry: { cli: 'src/cli/bin.ts' },
    format: ['esm'],
    sourcemap: false,
    banner: { js: '#!/usr/bin/env node' },
  },
  {
    // the CLI: one CommonJS file that bin.ts compiles with V8's code cache (Node 20 has none for ES
    // modules). What only some commands run is initialized on first use (esbuild wraps the modules
    // an `import()` reaches), but all of it is in this file; the MCP SDK is a file of its own.
    ...cli,
    entry: { 'cli-main': 'scripts/cli-entry.ts' },
    format: ['cjs'],
    sourcemap: true,
    // `import.meta.url` is the bundle's own URL (bin.ts passes its path as __filename)
    shims: true,
    // tsx stays external: it is only imported when a .ts library module must be loaded.
    // fs-native-extensions loads its native addon relative to its own files: it stays external too.
    noExternal: [CLI_NO_EXTERNAL],
    esbuildPlugins: [mcpSdkOnDemand],
    esbuildOptions: (options: { alias?: Record<string, string>; charset?: string }) => {
      // fp-ts's ES build for its CommonJS one (core/either.ts imports fp-ts/lib, as its types do):
      // io-ts brings the ES build anyway, so the CLI carries one fp-ts, and only the functions it uses
      options.alias = { ...options.alias, 'fp-ts/lib': 'fp-ts/es6' };
      // bin.ts reads the bundle as one-byte text
      options.charset = 'ascii';
    },
    onSuccess: async () => {
      await rewriteDynamicImports(join('dist', 'cli-main.cjs'));
      await writeCliApi('.');
    },
  },
  {
    // the MCP SDK (a dev dependency) for the CLI, required on first use (src/cli/mcp-sdk.ts)
    ...cli,
    entry: { 'mcp-sdk': 'src/cli/mcp-sdk.ts' },
    format: ['cjs'],
    sourcemap: false,
    noExternal: [/.*/],
  },
]);
