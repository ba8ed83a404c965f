/**
 * The formatter's output is the house style: every example file and every gram block of the
 * README and the docs is already formatted (`gramkit fmt --check` passes on them), and the layout
 * of a specification is the one the docs show.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatGram, parseGram } from '../../src/index.js';
import { cli } from '../support/cli.js';

const root = join(import.meta.dirname, '..', '..');

const gramFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? gramFiles(join(dir, e.name)) : e.name.endsWith('.gram') ? [join(dir, e.name)] : [],
  );

const docs = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => join('docs', f)),
];
const blocks = docs.flatMap((f) => [...readFileSync(join(root, f), 'utf8').matchAll(/```gram\n([\s\S]*?\n)```/g)].map((m) => [f, m[1] as string] as const));

const format = (text: string): string => {
  const p = parseGram(text);
  if (p._tag === 'Left') throw new Error(`does not parse:\n${text}`);
  return formatGram(p.right);
};

describe('house style', () => {
  it("every example file, and the built-in tools' specifications, pass gramkit fmt --check", async () => {
    const files = [...gramFiles(join(root, 'examples')), join(root, 'src', 'tools', 'builtin', 'builtins.gram')].map((f) => relative(root, f));
    expect(files.length).toBeGreaterThanOrEqual(8);
    const r = await cli(['fmt', '--check', ...files], { cwd: root });
    expect(r.stdout, r.stderr).toBe(`checked ${files.length} files: all formatted\n`);
    expect(r.code).toBe(0);
  });

  it.each(blocks.map(([f, b], i) => [`${f} #${i}`, b]))('the gram block %s is formatted', (_, b) => {
    expect(format(b)).toBe(b);
  });

  it('lays out a specification as the docs do: the head, the signature one node per line, the closing bracket', () => {
    const long =
      '[get_weather:Tool {description: "Current weather and a forecast for a city"} | (city::String {description: "City name", minLength: 1})==>(days::Integer {range: 1..7, default: 1})==>(::Object)]\n';
    expect(format(long)).toBe(
      [
        '[get_weather:Tool {description: "Current weather and a forecast for a city"} |',
        '  (city::String {description: "City name", minLength: 1}) ==>',
        '  (days::Integer {range: 1..7, default: 1}) ==>',
        '  (::Object)',
        ']',
        '',
      ].join('\n'),
    );
    // short: one line; a broken agent keeps its list of tools on the closing line
    expect(format('[t:Tool {description: "d"} | (q::String)==>(::String)]\n')).toBe('[t:Tool {description: "d"} | (q::String)==>(::String)]\n');
    const agent = '[a:Agent {description: "A friendly agent that greets people", instruction: "Greet them", model: "openai/gpt-4o-mini"} | t, u]\n';
    expect(format(agent)).toBe(
      '[a:Agent {\n  description: "A friendly agent that greets people",\n  instruction: "Greet them",\n  model: "openai/gpt-4o-mini"\n} | t, u]\n',
    );
  });
});
