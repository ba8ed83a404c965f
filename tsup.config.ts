import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { transform } from 'esbuild';
import { defineConfig } from 'tsup';

// Two builds:
// - the library (ESM + CJS + .d.ts). Both formats bundle Chevrotain: it is ESM-only (Node 20.18
//   cannot require() it), and unbundled it loads as hundreds of modules (~0.4 s of start-up here,
//   against ~0.02 s bundled). So do ajv and the OpenTelemetry API (see below); the other
//   dependencies stay external.
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
// ESM build bundles fp-ts and io-ts too (CommonJS only: ESM would parse them for their exports);
// their values are plain data and structural codecs, so a user's own copy works with them.
/** Not bundled into the CLI (see above); tsx and fs-native-extensions load files of their own. */
const CLI_EXTERNAL = ['tsx', 'nats', 'fs-native-extensions', 'bullmq', 'vscode-languageserver', 'vscode-languageserver-textdocument', 'undici', '@redis/client', 'hono', '@hono/node-server', 're2js', 'jsonpath-plus', 'commander', 'eventsource-parser'];

/** The CLI bundles every module but those (bench/gram.bench.ts builds the same bundle). */
export const CLI_NO_EXTERNAL = new RegExp(`^(?!(${CLI_EXTERNAL.map((p) => p.replace(/[/]/g, '\\/')).join('|')})(\\/|$)).*`);

const BUNDLED = ['chevrotain', /^ajv(-formats)?(\/|$)/, 'fast-deep-equal', 'json-schema-traverse', 'fast-uri', '@opentelemetry/api'];

/** Minifies the CommonJS build in place (whitespace and syntax; names are kept). */
const minifyCommonJs = async (): Promise<void> => {
  const files = (await readdir('dist')).filter((f) => f.endsWith('.cjs'));
  await Promise.all(
    files.map(async (f) => {
      const path = join('dist', f);
      const out = await transform(await readFile(path, 'utf8'), { loader: 'js', minifyWhitespace: true, minifySyntax: true, target: 'node20' });
      await writeFile(path, out.code);
    }),
  );
};

const library = (format: 'esm' | 'cjs') => ({
  entry: ENTRIES,
  format: [format],
  external: OPTIONAL_PEERS,
  noExternal: format === 'esm' ? [...BUNDLED, /^fp-ts(\/|$)/, /^io-ts(\/|$)/] : BUNDLED,
  // declarations once, in the ESM pass; scripts/cjs-declarations.mjs copies them as the CommonJS
  // ones (`npm run build` runs it after tsup)
  dts: format === 'esm',
  // shared chunks between the entries: one copy of each module's state (the validator cache,
  // ToolFailure's class) whichever entries a program imports
  splitting: true,
  // source maps for work in this repository (the package ships without them: package.json
  // "files"). The code is minified but for names, so stack traces still name functions. The
  // CommonJS code is minified after the build (minifyCommonJs): tsup's CommonJS pass over code
  // esbuild has minified writes invalid syntax; its maps would then be wrong, so it has none.
  sourcemap: format === 'esm',
  ...(format === 'esm' ? { minifyWhitespace: true, minifySyntax: true } : { onSuccess: minifyCommonJs }),
  clean: format === 'esm',
  target: 'node20',
  platform: 'node' as const,
});

export default defineConfig([
  library('esm'),
  library('cjs'),
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
    banner: {
      js: "#!/usr/bin/env node\nimport { createRequire as __gramkitCreateRequire } from 'node:module';\nconst require = __gramkitCreateRequire(import.meta.url);",
    },
  },
]);
