// The steps after tsup builds the CLI's CommonJS bundle, `dist/cli-main.cjs`, which src/cli/bin.ts
// runs through V8's code cache (see there):
// - each dynamic `import(…)` becomes `$gkImp(…)`, the function bin.ts passes: a script run
//   by `vm` has no `import()` of its own without --experimental-vm-modules. es-module-lexer finds
//   them, so an `import(` inside a string, a comment or a regular expression is left alone;
// - the bundle is made ASCII, which bin.ts reads as a one-byte string: esbuild's `charset: 'ascii'`
//   escapes strings, templates and names but leaves regular expression literals, where a `\uXXXX`
//   escape of each UTF-16 unit means the same, with or without the `u` flag;
// - `dist/gramkit-api.js`: what a TypeScript library the CLI bundles gets for `import … from
//   'gramkit'` (src/cli/actions/bundle-typescript.ts), the root entry of the CLI's own bundle (its
//   modules are loaded once, not twice): an ES module naming each export of src/index.ts, which
//   takes them from the function the bundle puts in a global (`Symbol.for('gramkit.cli-api')`).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { init, parse } from 'es-module-lexer';
import { build } from 'esbuild';

/** The name bin.ts gives the import function in the bundle's wrapper: as long as `import`, so the source map's columns still hold. */
export const IMPORT_FUNCTION = '$gkImp';

/** The key of the global through which the bundle serves its root entry to `dist/gramkit-api.js`. */
export const API_KEY = 'gramkit.cli-api';

/** Rewrites the dynamic imports of `file` and makes it ASCII (see above); the number of imports rewritten. */
export const rewriteDynamicImports = async (file: string): Promise<number> => {
  await init;
  const text = readFileSync(file, 'utf8').replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  // the one use of the name before the rewrite: scripts/cli-bin-only.ts asks whether it is there
  if (text.replaceAll(`typeof ${IMPORT_FUNCTION}`, '').includes(IMPORT_FUNCTION)) throw new Error(`${file} already uses the name ${IMPORT_FUNCTION}`);
  const [imports] = parse(text);
  let out = '';
  let at = 0;
  let count = 0;
  for (const i of imports) {
    if (i.d < 0) continue;
    if (text.slice(i.ss, i.d) !== 'import') throw new Error(`${file}: unexpected dynamic import at ${i.ss}: ${text.slice(i.ss, i.ss + 40)}`);
    out += text.slice(at, i.ss) + IMPORT_FUNCTION;
    at = i.d;
    count++;
  }
  writeFileSync(file, out + text.slice(at));
  return count;
};

/** Writes `dist/gramkit-api.js` (see above), naming the exports of `src/index.ts`. */
export const writeCliApi = async (root: string): Promise<void> => {
  const result = await build({
    entryPoints: [join(root, 'src', 'index.ts')],
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    platform: 'node',
    packages: 'external',
    logLevel: 'silent',
    outdir: join(root, 'dist', '.api-names'),
  });
  const output = Object.values(result.metafile.outputs).find((o) => o.entryPoint !== undefined);
  if (output === undefined || output.exports.length === 0) throw new Error('src/index.ts: no exports found');
  const names = [...output.exports].sort();
  const text = [
    "// The root entry inside the CLI's own bundle (dist/cli-main.cjs), for a TypeScript library the CLI",
    "// bundles and imports: its `import … from 'gramkit'` gets the modules the CLI already loaded. Written",
    '// by scripts/cli-bundle.ts; only the CLI imports it.',
    `const api = globalThis[Symbol.for(${JSON.stringify(API_KEY)})];`,
    "if (typeof api !== 'function') throw new Error(\"dist/gramkit-api.js serves the CLI's bundled libraries: import 'gramkit' instead\");",
    `export const { ${names.join(', ')} } = await api();`,
    '',
  ].join('\n');
  writeFileSync(join(root, 'dist', 'gramkit-api.js'), text);
};
