/**
 * Every error code a doc names exists: each SCREAMING_SNAKE word of README.md, CONTRIBUTING.md and
 * docs/*.md is a registered code (a layer's `codes.ts`), a canonical code (`CANONICAL_CODES`), a
 * family of them (`SPEC_ARG_*`), or a name the sources spell out (a constant, an environment
 * variable, a provider's finish reason the code reads); the few others are listed below. So a code
 * renamed in a registry cannot live on in the docs under its old name (`SIG_EMPTY`, `ARG_TYPE`).
 * The table of old names in docs/errors.md ("Renamed codes") and CHANGELOG.md keep old names on purpose.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CANONICAL_CODES } from '../../src/core/codes.js';
import { allCodes } from '../support/registries.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const DOCS = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** Names that are neither gramkit's codes nor spelled in its sources: the system's, and the docs' own examples. */
const OTHER_NAMES = new Set([
  // POSIX and Linux names the sandbox docs explain
  'O_NOFOLLOW',
  'RENAME_NOREPLACE',
  'S_ISUID',
  'S_ISGID',
  'RLIMIT_CPU',
  'RLIMIT_AS',
  'RLIMIT_FSIZE',
  'RLIMIT_NPROC',
  // a user's own tool codes and key, in the examples of docs/errors.md and docs/implementations.md
  'WEATHER_UNKNOWN_CITY',
  'WEATHER_API_KEY',
  // the word for the case
  'SCREAMING_SNAKE',
]);

const SNAKE = /\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b(\*|_\*)?/g;

const walk = (dir: string): string[] =>
  readdirSync(join(ROOT, dir)).flatMap((f) => {
    const path = join(dir, f);
    if (statSync(join(ROOT, path)).isDirectory()) return f === 'node_modules' || f === 'fixtures' ? [] : walk(path);
    return /\.(ts|mts|mjs|js)$/.test(f) ? [path] : [];
  });

/** Every source text: the package's, the benchmarks', the scripts' and the tests' support. */
const sources = ['src', 'bench', 'scripts', 'test/support', 'test/architecture'].flatMap(walk).map((f) => readFileSync(join(ROOT, f), 'utf8'));

/** Whether the sources spell the name as a constant, a string, or an environment variable. */
const spelled = (name: string): boolean => {
  const re = new RegExp(`(?:const ${name}\\b|['"\`]${name}['"\`]|env\\.${name}\\b)`);
  return sources.some((s) => re.test(s));
};

/** The text a doc holds of its own; docs/errors.md's table of old names is history. */
const docText = (file: string): string => {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return file === 'docs/errors.md' ? text.replace(/\n## Renamed codes\n[\s\S]*?(?=\n## |$)/, '\n') : text;
};

describe('codes named in the docs', async () => {
  const codes = await allCodes();
  const known = (name: string, family: boolean): boolean =>
    family
      ? [...codes.keys()].some((c) => c.startsWith(`${name}_`))
      : codes.has(name) || Object.hasOwn(CANONICAL_CODES, name) || OTHER_NAMES.has(name) || spelled(name);

  it.each(DOCS)('%s names only codes that exist', (file) => {
    const unknown = new Set<string>();
    for (const m of docText(file).matchAll(SNAKE)) if (!known(m[0].replace(/_?\*$/, ''), m[1] !== undefined)) unknown.add(m[0]);
    expect([...unknown]).toEqual([]);
  });

  it('sees an old name, a code family of none, and lets codes, constants and variables through', () => {
    expect(known('SIG_EMPTY', false)).toBe(false);
    expect(known('ARG_TYPE', false)).toBe(false);
    expect(known('SPEC_NOPE', true)).toBe(false);
    expect(known('SPEC_ARG_TYPE', false)).toBe(true);
    expect(known('SPEC_ARG', true)).toBe(true);
    expect(known('NOT_FOUND', false)).toBe(true);
    expect(known('MAX_ARGUMENT_DEPTH', false)).toBe(true);
    expect(known('OPENAI_API_KEY', false)).toBe(true);
  });

  it('reads the docs it checks', () => {
    expect(DOCS).toContain('docs/type-signatures.md');
    expect(docText('docs/type-signatures.md')).toMatch(/SPEC_[A-Z_]+/);
  });
});
