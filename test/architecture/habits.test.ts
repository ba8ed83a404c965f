/**
 * Habits the linter cannot hold (issue 22, "Habits"), as budgets that may only shrink:
 *
 * - no raw `._tag ===` / `._tag !==` outside src/core/: an Either or a tagged union is read through
 *   the functions of src/core (fold, isLeft, match…), not by comparing its tag by hand;
 * - no line of TypeScript over LINE_LIMIT characters (src/, test/, bench/, examples/).
 *
 * Biome has no line-length lint rule (only its formatter's lineWidth), and a Biome GritQL plugin can
 * forbid the tag comparison but cannot hold a per-file budget while the existing ones are removed.
 * So test/architecture/habits-allow.json lists today's offenders: per file, the number of tag
 * comparisons and the length of the longest line. A file not listed must have none / meet the
 * limit; a listed file may not get worse. When a file gets better, the list must follow:
 * `UPDATE_HABITS=1 npx vitest run test/architecture/habits.test.ts` rewrites it, lowering entries
 * and dropping the ones that reached zero / the limit — it never raises one or adds a file.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const ALLOW_FILE = join(import.meta.dirname, 'habits-allow.json');
const LINE_LIMIT = 200;
const TAG_CHECK = /\._tag\s*[!=]==/g;

type Budget = Readonly<Record<string, number>>;
interface Allow {
  readonly tagChecks: Budget;
  readonly longestLines: Budget;
}

/** Every `.ts` file under `dir` (relative to the repository, with `/`), fixtures left out. */
const tsFiles = (dir: string): string[] =>
  readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory()) return e.name === 'fixtures' || e.name === 'node_modules' || e.name === 'out' ? [] : tsFiles(path);
    return e.name.endsWith('.ts') ? [path] : [];
  });

const read = (file: string): string => readFileSync(join(ROOT, file), 'utf8');

const measure = (files: ReadonlyArray<string>, f: (text: string) => number, floor: number): Record<string, number> =>
  Object.fromEntries(files.map((file) => [file, f(read(file))] as const).filter(([, n]) => n > floor));

const tagChecks = (): Record<string, number> =>
  measure(
    tsFiles('src').filter((f) => !f.startsWith('src/core/')),
    (text) => (text.match(TAG_CHECK) ?? []).length,
    0,
  );

const longestLines = (): Record<string, number> =>
  measure(['src', 'test', 'bench', 'examples'].flatMap(tsFiles), (text) => Math.max(0, ...text.split('\n').map((l) => l.length)), LINE_LIMIT);

const allow: Allow = JSON.parse(readFileSync(ALLOW_FILE, 'utf8'));

/** What got worse than the budget (or appeared outside it), and what got better than it. */
const compare = (actual: Record<string, number>, budget: Budget, floor: number) => {
  const files = [...new Set([...Object.keys(actual), ...Object.keys(budget)])].sort();
  const worse = files.filter((f) => (actual[f] ?? floor) > (budget[f] ?? floor)).map((f) => `${f}: ${actual[f]} (allowed: ${budget[f] ?? floor})`);
  const better = files.filter((f) => (actual[f] ?? floor) < (budget[f] ?? floor));
  const shrunk = Object.fromEntries(
    files.flatMap((f) =>
      budget[f] === undefined ? [] : Math.min(budget[f], actual[f] ?? floor) > floor ? [[f, Math.min(budget[f], actual[f] ?? floor)]] : [],
    ),
  );
  return { worse, better, shrunk };
};

const tags = compare(tagChecks(), allow.tagChecks, 0);
const lines = compare(longestLines(), allow.longestLines, LINE_LIMIT);

if (process.env['UPDATE_HABITS'] === '1') {
  writeFileSync(ALLOW_FILE, `${JSON.stringify({ tagChecks: tags.shrunk, longestLines: lines.shrunk }, null, 2)}\n`);
}

describe('habits: budgets that may only shrink', () => {
  it('no new `._tag ===` / `._tag !==` outside src/core/ (read tagged values through src/core)', () => {
    expect(tags.worse).toEqual([]);
  });

  it(`no new line over ${LINE_LIMIT} characters, and no listed file's longest line grows`, () => {
    expect(lines.worse).toEqual([]);
  });

  it('the allow-list follows every improvement (UPDATE_HABITS=1 lowers it)', () => {
    expect({ tagChecks: tags.better, longestLines: lines.better }).toEqual({ tagChecks: [], longestLines: [] });
  });

  it('the budgets are counted on real files: the rule sees a tag comparison and a long line', () => {
    expect('if (r._tag === "Left") x; if (r._tag!=="Right") y;'.match(TAG_CHECK)).toHaveLength(2);
    expect(Object.keys(allow.tagChecks).every((f) => f.startsWith('src/') && !f.startsWith('src/core/'))).toBe(true);
  });
});
