/**
 * The entry of the CLI's bundle (`dist/cli-main.cjs`, which src/cli/bin.ts runs; see
 * tsup.config.ts): the CLI (src/cli/main.ts), and the root entry for a TypeScript library the CLI
 * bundles. It sits outside src/ because it joins the two, which no module inside may (the layers:
 * the CLI is the top, the entries are the outside). Such a library's `import … from 'gramkit'` is
 * served `dist/gramkit-api.js` (src/cli/actions/bundle-typescript.ts), which takes the root
 * entry's exports through the function below: the library gets the CLI's own modules, initialized
 * on that first call, instead of a second copy.
 */
// first: run directly, the bundle says it must run through the binary before the command starts
import './cli-bin-only.js';
import '../src/cli/main.js';

// main.js only starts the command: a library is imported after this line has run
(globalThis as Record<symbol, unknown>)[Symbol.for('gramkit.cli-api')] = () => import('../src/index.js');
