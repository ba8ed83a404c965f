/**
 * docs/architecture.md's "Layout" names every module of src/: each folder's line (`src/schema/`,
 * `  http/` under `src/tools/`) names each `.ts` module of that folder, so a module added, moved or
 * renamed shows in the doc. Each layer's `codes.ts` is said once for all; the files of the
 * built-in tools are said as "one file per tool" (their names are the tools' names of
 * builtins.gram, kebab-case).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const doc = readFileSync(`${ROOT}docs/architecture.md`, 'utf8');

/** The text of the Layout section's code block, by folder (`core`, `tools/http`, ...). */
const layout = (): ReadonlyMap<string, string> => {
  const block = doc.split('## Layout')[1]?.split('```')[1] ?? '';
  const groups = new Map<string, string>();
  let current: string | undefined;
  for (const line of block.split('\n')) {
    const top = /^src\/([a-z]+)\/\s*(.*)$/.exec(line);
    const sub = /^ {2}([a-z]+)\/\s*(.*)$/.exec(line);
    if (top !== null) current = top[1] as string;
    else if (sub !== null && current !== undefined) current = `${current.split('/')[0]}/${sub[1]}`;
    if (current !== undefined) groups.set(current, `${groups.get(current) ?? ''} ${(top ?? sub)?.[2] ?? line}`);
  }
  return groups;
};

const BUILTIN_TOOLS = new Set(
  [...readFileSync(`${ROOT}src/tools/builtin/builtins.gram`, 'utf8').matchAll(/^\[([a-z_]+)/gm)].map((m) => (m[1] as string).replace(/_/g, '-')),
);

describe('docs/architecture.md, Layout', () => {
  const groups = layout();

  it('has a line for every folder of src/ that holds modules', () => {
    const folders = readdirSync(`${ROOT}src`, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .flatMap((e) => [
        e.name,
        ...readdirSync(`${ROOT}src/${e.name}`, { withFileTypes: true })
          .filter((d) => d.isDirectory())
          .map((d) => `${e.name}/${d.name}`),
      ]);
    const described = [...groups.keys()];
    // folders described as a whole by their parent's line: cli/commands/*, cli/actions/*, schema/dialects/, server/ui/
    const wholes = ['cli/commands', 'cli/actions', 'schema/dialects', 'server/ui'];
    expect(folders.filter((f) => !described.includes(f) && !wholes.includes(f))).toEqual([]);
    expect(described.filter((g) => !existsSync(`${ROOT}src/${g}`))).toEqual([]);
  });

  it('names every module of each folder it lists', () => {
    const missing: string[] = [];
    for (const [folder, text] of groups) {
      const words = new Set(text.match(/[a-z0-9][a-z0-9-]*/g) ?? []);
      const modules = readdirSync(`${ROOT}src/${folder}`)
        .filter((f) => f.endsWith('.ts'))
        .map((f) => f.slice(0, -3));
      for (const m of modules) {
        if (m === 'codes' || words.has(m) || (folder === 'tools/builtin' && BUILTIN_TOOLS.has(m))) continue;
        missing.push(`src/${folder}/${m}.ts`);
      }
    }
    expect(missing).toEqual([]);
  });
});
