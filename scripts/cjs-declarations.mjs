// The CommonJS declarations (`dist/*.d.cts`) as copies of the ESM ones (`dist/*.d.ts`), whose
// relative imports name `.js` chunks: each becomes the `.cjs` one. tsup generates declarations
// once, in the ESM pass (about 90% of a build's time went to generating them twice, and the two
// sets were the same but for those names); `npm run build` runs this after tsup.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dist = join(import.meta.dirname, '..', 'dist');
const RELATIVE = /((?:from|import)\s*\(?\s*['"])(\.\.?\/[^'"]+?)\.js(['"])/g;
let count = 0;
for (const file of readdirSync(dist).filter((f) => f.endsWith('.d.ts'))) {
  const text = readFileSync(join(dist, file), 'utf8');
  writeFileSync(join(dist, file.replace(/\.d\.ts$/, '.d.cts')), text.replace(RELATIVE, '$1$2.cjs$3'));
  count += 1;
}
if (count === 0) {
  process.stderr.write('cjs-declarations: no .d.ts in dist/ (run tsup first)\n');
  process.exit(1);
}
