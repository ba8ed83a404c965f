/**
 * Docs that cannot drift (issue 22): what README.md and docs/*.md present as gramkit's API exists,
 * and their relative links resolve inside the published package.
 *
 * - an `import { a, b } from 'gramkit/x'` line of a code block names exports of that entry;
 * - a code span that calls a camelCase function (`` `checkLibrary(library)` ``) names an export of
 *   some entry, unless it is another library's function (OTHER_LIBRARIES);
 * - a relative link `[…](path)` resolves to a file that package.json's `files` ships.
 *
 * The exports are read from the entries' sources (src/index.ts, src/entries/<entry>.ts), as
 * test/api/api-report.test.ts reads them: every export there is an `export { … } from` line.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const read = (f: string): string => readFileSync(join(root, f), 'utf8');
const pkg = JSON.parse(read('package.json')) as { exports: Record<string, unknown>; files: string[] };

/** Functions of other libraries that the docs call in code spans (the AI SDK's `jsonSchema`). */
const OTHER_LIBRARIES: ReadonlySet<string> = new Set(['jsonSchema']);

/** entry ('gramkit', 'gramkit/gram', …) → the names its declarations export. */
const exportsOf = new Map(
  Object.keys(pkg.exports)
    .filter((k) => k !== './package.json')
    .map((k) => {
      const source = read(k === '.' ? 'src/index.ts' : `src/entries/${k.slice(2)}.ts`);
      const names = [...source.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/g)].flatMap((m) =>
        (m[1] ?? '').split(',').map(
          (p) =>
            p
              .trim()
              .replace(/^type\s+/, '')
              .split(/\s+as\s+/)
              .pop() ?? '',
        ),
      );
      return [k === '.' ? 'gramkit' : `gramkit/${k.slice(2)}`, new Set(names.filter((n) => n !== ''))] as const;
    }),
);
const exportedSomewhere = new Set([...exportsOf.values()].flatMap((s) => [...s]));

const docs = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

describe('the API names the docs mention are exported', () => {
  it('each `import { … } from "gramkit…"` line names exports of that entry', () => {
    const wrong = docs.flatMap((doc) =>
      [...read(doc).matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+['"](gramkit[^'"]*)['"]/g)].flatMap((m) => {
        const entry = exportsOf.get(m[2] ?? '');
        const names = (m[1] ?? '')
          .split(',')
          .map(
            (n) =>
              n
                .trim()
                .replace(/^type\s+/, '')
                .split(/\s+as\s+/)[0] ?? '',
          )
          .filter((n) => n !== '');
        return entry === undefined ? [`${doc}: no entry ${m[2]}`] : names.filter((n) => !entry.has(n)).map((n) => `${doc}: ${n} from ${m[2]}`);
      }),
    );
    expect(wrong).toEqual([]);
  });

  it('each function a code span calls (`name(…)`) is exported by an entry', () => {
    const wrong = docs.flatMap((doc) =>
      [...read(doc).matchAll(/`([a-z][a-z0-9]*[A-Z][A-Za-z0-9]*)\(/g)]
        .map((m) => m[1] ?? '')
        .filter((n) => !exportedSomewhere.has(n) && !OTHER_LIBRARIES.has(n))
        .map((n) => `${doc}: ${n}`),
    );
    expect(wrong).toEqual([]);
  });

  it('the check sees the entries: the root exports createTool, gramkit/gram parseGram', () => {
    expect(exportsOf.get('gramkit')?.has('createTool')).toBe(true);
    expect(exportedSomewhere.has('parseGram')).toBe(true);
  });
});

describe('relative links resolve inside the package', () => {
  const shipped = (path: string): boolean => pkg.files.some((f) => !f.startsWith('!') && (path === f || path.startsWith(`${f}/`)));

  it('each relative link of README.md and docs/*.md names a file the package ships', () => {
    const wrong = docs.flatMap((doc) =>
      [...read(doc).matchAll(/\]\(([^)\s]+)\)/g)]
        .map((m) => m[1] ?? '')
        .filter((u) => !/^[a-z][a-z0-9+.-]*:/i.test(u) && !u.startsWith('#'))
        .map((u) => normalize(join(dirname(doc), decodeURI(u.split('#')[0] ?? ''))))
        .filter((p) => !existsSync(join(root, p)) || !shipped(p))
        .map((p) => `${doc}: ${p}`),
    );
    expect(wrong).toEqual([]);
  });
});
