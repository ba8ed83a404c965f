#!/usr/bin/env node
/**
 * Moves modules of src/ by a plan and rewrites every reference to them, so that a move can be
 * re-run on a tree others have changed since (idempotent: a second run changes nothing).
 *
 *   node scripts/move-modules.mjs scripts/layout/split-spec-catalog.json
 *
 * A plan (JSON) has:
 * - `folders`: `{ "src/spec/dialects": "src/schema/dialects" }`, every file under the folder moves;
 * - `files`: `{ "src/spec/types.ts": "src/types/types.ts" }`, one module each;
 * - `rest`: `{ "src/spec": "src/specification" }`, the files of a folder that the plan does not name
 *   (modules added since the plan was written), each reported;
 * - `replace`: `[[file, from, to], ...]`, exact text replacements (a paragraph of a doc), each
 *   reported when `from` is not found and `to` is not there either;
 * - `layers`: `{ "spec": { "into": ["types", ...], "rows": {...}, "allowed": {...} } }`, one layer
 *   split into several, in test/architecture/layers.test.ts's table and docs/architecture.md's.
 *
 * What it rewrites, after `git mv`:
 * 1. every relative import / export / `import()` / `vi.mock()` / `new URL()` specifier in the TypeScript and
 *    JavaScript files of src/, test/, bench/, scripts/, examples/, packages/ (resolved from the
 *    importing file's old place to the target's old place, then written from the new place to the
 *    new place; a specifier whose file and target did not move is left as written);
 * 2. every path that names a moved module (`src/spec/load.ts`, `spec/load.js`, `catalog/ids.ts`)
 *    in the text of the tracked files (docs, comments, strings, habits-allow.json), CHANGELOG.md and
 *    test/fixtures/, this script and scripts/layout/ left out; a path ending in `.ts`/`.js`, or starting with `src/`, a folder of
 *    `folders` too; not one that is the tail of a longer path (`test/spec/load.test.ts`).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';

const [planFile] = process.argv.slice(2);
if (planFile === undefined) {
  console.error('usage: node scripts/move-modules.mjs <plan.json>');
  process.exit(2);
}
const ROOT = process.cwd();
const plan = JSON.parse(readFileSync(planFile, 'utf8'));
const log = (s) => console.log(s);
const warn = (s) => console.log(`WARNING: ${s}`);

const git = (...args) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' });
const tracked = git('ls-files', '-z').split('\0').filter(Boolean);
const isFile = (p) => existsSync(join(ROOT, p)) && statSync(join(ROOT, p)).isFile();

/** Files under a folder, recursively, repository-relative. */
const filesUnder = (dir) =>
  existsSync(join(ROOT, dir))
    ? readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(`${dir}/${e.name}`) : [`${dir}/${e.name}`]))
    : [];

// ---------------------------------------------------------------------------------------------
// the moves: old → new, for every file that exists at its old place
// ---------------------------------------------------------------------------------------------
const moves = new Map();
for (const [from, to] of Object.entries(plan.folders ?? {})) for (const f of filesUnder(from)) moves.set(f, `${to}${f.slice(from.length)}`);
for (const [from, to] of Object.entries(plan.files ?? {})) {
  if (isFile(from)) moves.set(from, to);
  else if (!isFile(to)) warn(`${from}: neither it nor ${to} exists (removed since the plan was written?)`);
}
for (const [from, to] of Object.entries(plan.rest ?? {})) {
  for (const f of filesUnder(from)) {
    if (moves.has(f)) continue;
    const target = `${to}${f.slice(from.length)}`;
    warn(`${f} is not in the plan: moved with the rest to ${target}; check its layer (test/architecture/layers.test.ts) and docs/architecture.md's Layout`);
    moves.set(f, target);
  }
}
/** All the plan's moves, done or not: a path mentioned in the docs may name either. */
const allPaths = new Map([...moves]);
for (const [from, to] of Object.entries(plan.files ?? {})) allPaths.set(from, to);

const newPlace = (p) => moves.get(p) ?? p;
const oldPlace = new Map([...moves].map(([a, b]) => [b, a]));

if (moves.size > 0) log(`moving ${moves.size} files`);
for (const [from, to] of moves) {
  mkdirSync(dirname(join(ROOT, to)), { recursive: true });
  git('mv', from, to);
}
/** The folders the moves emptied, removed (git leaves them). */
const removeIfEmpty = (dir) => {
  if (dir === '.' || dir === '' || !existsSync(join(ROOT, dir))) return;
  if (readdirSync(join(ROOT, dir)).length > 0) return;
  rmdirSync(join(ROOT, dir));
  removeIfEmpty(dirname(dir));
};
for (const from of moves.keys()) removeIfEmpty(dirname(from));

// ---------------------------------------------------------------------------------------------
// 1. relative specifiers
// ---------------------------------------------------------------------------------------------
const CODE_DIRS = ['src', 'test', 'bench', 'scripts', 'examples', 'packages'];
const CODE_EXT = /\.(ts|mts|cts|tsx|js|mjs|cjs)$/;
const codeFiles = () =>
  CODE_DIRS.flatMap((d) => filesUnder(d)).filter((f) => CODE_EXT.test(f) && !/(^|\/)(node_modules|dist)\//.test(f));

const SPECIFIER = /(\bfrom\s+|\bimport\s*\(\s*|\bimport\s+|\bvi\.mock\(\s*|\brequire\(\s*|\bnew URL\(\s*)(['"])(\.\.?\/[^'"\n]+)\2/g;

/** The file a specifier names (a `.js` specifier names its `.ts` module when that exists). */
const resolveOld = (fromOld, spec) => {
  const target = posix.normalize(posix.join(posix.dirname(fromOld), spec));
  const ts = target.replace(/\.js$/, '.ts');
  if (allPaths.has(ts) || allPaths.has(target)) return allPaths.has(ts) ? { file: ts, js: ts !== target } : { file: target, js: false };
  return undefined;
};

let rewrittenFiles = 0;
let rewrittenSpecifiers = 0;
for (const file of codeFiles()) {
  const fromOld = oldPlace.get(file) ?? file;
  const fileMoved = fromOld !== file;
  const text = readFileSync(join(ROOT, file), 'utf8');
  let n = 0;
  const out = text.replace(SPECIFIER, (whole, lead, quote, spec) => {
    const hit = resolveOld(fromOld, spec);
    let targetNew;
    let js;
    if (hit !== undefined) {
      targetNew = allPaths.get(hit.file);
      js = hit.js;
    } else if (fileMoved) {
      // the target did not move, the importing file did
      targetNew = posix.normalize(posix.join(posix.dirname(fromOld), spec));
      js = false;
    } else return whole;
    if (js) targetNew = targetNew.replace(/\.ts$/, '.js');
    let rel = posix.relative(posix.dirname(file), targetNew);
    if (!rel.startsWith('.')) rel = `./${rel}`;
    if (rel === spec) return whole;
    n++;
    return `${lead}${quote}${rel}${quote}`;
  });
  if (n > 0) {
    rewrittenFiles++;
    rewrittenSpecifiers += n;
    writeFileSync(join(ROOT, file), out);
  }
}
log(`relative specifiers: ${rewrittenSpecifiers} in ${rewrittenFiles} files`);

// ---------------------------------------------------------------------------------------------
// 2. exact replacements (paragraphs the plan rewrites), before the paths in them are rewritten
// ---------------------------------------------------------------------------------------------
// a text may be listed in several forms (the branch's, main's): one applies, the others are not missed
const missed = [];
for (const [file, from, to] of plan.replace ?? []) {
  const text = readFileSync(join(ROOT, file), 'utf8');
  if (text.includes(from)) writeFileSync(join(ROOT, file), text.replace(from, to));
  else missed.push([file, from, to]);
}
for (const [file, from, to] of missed) {
  const text = readFileSync(join(ROOT, file), 'utf8');
  if (!text.includes(to)) {
    warn(`${file}: the text to replace has changed since the plan was written; replace it by hand with:\n${to}\n--- (the plan expected:)\n${from}`);
  }
}
// ---------------------------------------------------------------------------------------------
// 3. paths in text
// ---------------------------------------------------------------------------------------------
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** `src/spec/load.ts` → `specification/load` after `src/`, or with an extension after anything but a path. */
const rules = [];
for (const [from, to] of allPaths) {
  if (from === to) continue;
  const a = from.replace(/^src\//, '').replace(/\.ts$/, '');
  const b = to.replace(/^src\//, '').replace(/\.ts$/, '');
  // with an extension, with or without src/; without one, only after src/
  rules.push({ re: new RegExp(`(?<![\\w./-])(src/)?${escape(a)}(\\.ts|\\.js)(?![\\w-])`, 'g'), to: (m, src, ext) => `${src ?? ''}${b}${ext}` });
  rules.push({ re: new RegExp(`(?<![\\w./-])src/${escape(a)}(?![\\w./-])`, 'g'), to: () => `src/${b}` });
}
for (const [from, to] of Object.entries(plan.folders ?? {})) {
  const a = from.replace(/^src\//, '');
  const b = to.replace(/^src\//, '');
  rules.push({ re: new RegExp(`(?<![\\w./-])(src/)?${escape(a)}(?![\\w.-])`, 'g'), to: (m, src) => `${src ?? ''}${b}` });
}
const TEXT_EXT = /\.(md|ts|mts|cts|mjs|cjs|js|json|jsonc|yml|yaml|txt)$/;
/** This script and the plans (scripts/layout/) name the old paths on purpose. */
const SELF = relative(ROOT, new URL(import.meta.url).pathname);
const textFiles = git('ls-files', '-z')
  .split('\0')
  .filter((f) => f && TEXT_EXT.test(f) && f !== 'CHANGELOG.md' && f !== planFile && f !== SELF && !f.startsWith('scripts/layout/') && !f.startsWith('test/fixtures/') && !f.includes('node_modules/') && isFile(f));
let pathHits = 0;
for (const file of textFiles) {
  const text = readFileSync(join(ROOT, file), 'utf8');
  let out = text;
  for (const r of rules) out = out.replace(r.re, (...m) => (pathHits++, r.to(...m)));
  if (out !== text) writeFileSync(join(ROOT, file), out);
}
log(`paths in text: ${pathHits}`);

// ---------------------------------------------------------------------------------------------
// 4. split layers: the table of layers.test.ts and the one of docs/architecture.md
// ---------------------------------------------------------------------------------------------
const edit = (file, f) => {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const out = f(text);
  if (out !== text) writeFileSync(join(ROOT, file), out);
  return out !== text;
};
for (const [layer, split] of Object.entries(plan.layers ?? {})) {
  const into = split.into;
  const changedTest = edit('test/architecture/layers.test.ts', (text) =>
    text
      .replace(new RegExp(`^( *)${layer}: \\[[^\\]\\n]*\\],\\n`, 'm'), (_, indent) =>
        into.map((l) => `${indent}${/^[a-z]+$/.test(l) ? l : `'${l}'`}: [${split.allowed[l].map((x) => `'${x}'`).join(', ')}],\n`).join(''),
      )
      .replace(new RegExp(`'${layer}'(?=[,\\]])`, 'g'), into.map((l) => `'${l}'`).join(', ')),
  );
  const changedDoc = edit('docs/architecture.md', (text) =>
    text
      .replace(new RegExp(`^\\| \`${layer}\` \\|[^\\n]*\\n`, 'm'), () => into.map((l) => `| \`${l}\` | ${split.rows[l]} | ${split.allowed[l].join(', ')} |\n`).join(''))
      .replace(/^(\| `[a-z]+` \|[^\n]*\| )([a-z, ]+)( \|)$/gm, (row, head, allowed, tail) =>
        `${head}${allowed.split(', ').flatMap((x) => (x === layer ? into : [x])).join(', ')}${tail}`,
      ),
  );
  log(`layer ${layer} → ${into.join(', ')}: layers.test.ts ${changedTest ? 'rewritten' : 'already done'}, docs/architecture.md ${changedDoc ? 'rewritten' : 'already done'}`);
}

log('done');
