import { defineConfig } from 'tsup';

// Two builds:
// - the library (ESM + CJS + .d.ts). Both formats bundle Chevrotain: it is ESM-only (Node 20.18
//   cannot require() it), and unbundled it loads as hundreds of modules (~0.4 s of start-up here,
//   against ~0.02 s bundled). The other dependencies stay external.
// - the CLI, one ESM file with every dependency bundled, so start-up reads one file instead of
//   resolving hundreds of modules (importing Chevrotain unbundled alone costs ~0.3 s).
//
// The optional peers (the MCP SDK, `ai`, `zod`) stay external in the library: only the entries
// that need them import them (`gramkit/mcp`, `gramkit/ai-sdk`, `gramkit/zod`), never the root.
// The CLI bundles the MCP SDK (a dev dependency here) into chunks loaded only by `gramkit mcp` and
// by `mcp:` arguments.
const OPTIONAL_PEERS = [/^@modelcontextprotocol\//, /^ai(\/|$)/, /^zod(\/|$)/];

export default defineConfig([
  {
    entry: {
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
    },
    format: ['esm', 'cjs'],
    external: OPTIONAL_PEERS,
    dts: true,
    // shared chunks between the entries, in both formats: one copy of each module's state (the
    // validator cache, ToolFailure's class) whichever entries a program imports
    splitting: true,
    sourcemap: true,
    clean: true,
    target: 'node20',
    platform: 'node',
    noExternal: ['chevrotain'],
  },
  {
    entry: { cli: 'src/cli/main.ts' },
    format: ['esm'],
    dts: false,
    sourcemap: true,
    clean: false,
    target: 'node20',
    platform: 'node',
    splitting: true,
    // tsx stays external: it is only imported when a .ts library module must be loaded.
    // fs-native-extensions loads its native addon relative to its own files: it stays external too.
    noExternal: [/^(?!(tsx|fs-native-extensions)(\/|$)).*/],
    banner: {
      js: "#!/usr/bin/env node\nimport { createRequire as __gramkitCreateRequire } from 'node:module';\nconst require = __gramkitCreateRequire(import.meta.url);",
    },
  },
]);
