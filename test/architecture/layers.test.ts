/**
 * The layering of docs/architecture.md, enforced (the table below is checked against the one the
 * doc shows, so the two cannot drift): every import of every module under src/ points
 * to its own layer or to one the table allows, no module is part of an import cycle, and only the
 * CLI reads the process (argv, environment, working directory, exit).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/** Each layer and the layers it may import (its own always). The order is the one of the docs. */
export const LAYERS: Readonly<Record<string, ReadonlyArray<string>>> = {
  core: [],
  gram: ['core'],
  types: ['core', 'gram'],
  schema: ['core', 'types'],
  specification: ['core', 'gram', 'types', 'schema'],
  library: ['core', 'gram', 'types', 'schema', 'specification'],
  net: ['core'],
  policy: ['core', 'gram', 'types', 'schema', 'specification', 'library'],
  tools: ['core', 'gram', 'types', 'schema', 'specification', 'library', 'net', 'policy'],
  agent: ['core', 'gram', 'types', 'schema', 'specification', 'library', 'policy'],
  providers: ['core', 'gram', 'types', 'schema', 'specification', 'library', 'net', 'agent'],
  testing: ['core', 'gram', 'types', 'schema', 'specification', 'library', 'agent', 'providers'],
  mcp: ['core', 'gram', 'types', 'schema', 'specification', 'library', 'net', 'policy', 'tools'],
  adapters: ['core', 'gram', 'types', 'schema', 'specification', 'library', 'policy'],
  catalog: ['core', 'gram', 'types', 'schema', 'specification', 'library', 'net', 'policy', 'tools'],
  server: ['core', 'gram', 'types', 'schema', 'specification', 'library', 'net', 'policy', 'tools', 'catalog', 'agent', 'mcp'],
  project: ['core', 'gram', 'types', 'schema', 'specification', 'library', 'policy', 'tools'],
  cli: ['*'],
  entries: ['*', '!cli'],
};

/** The table of docs/architecture.md ("Layers and dependency direction"), as layer → what it may import. */
const documentedLayers = (): Record<string, ReadonlyArray<string>> => {
  const doc = readFileSync(fileURLToPath(new URL('../../docs/architecture.md', import.meta.url)), 'utf8');
  const rows = [...doc.matchAll(/^\| `([a-z]+)` \| [^\n]*? \| ([^|\n]+) \|$/gm)];
  return Object.fromEntries(
    rows.map((m) => {
      const cell = (m[2] as string).trim();
      const allowed = cell === 'nothing' ? [] : cell === 'everything' ? ['*'] : cell === 'everything but cli' ? ['*', '!cli'] : cell.split(/,\s*/);
      return [m[1] as string, allowed];
    }),
  );
};

/** Whether a module of `from` may import one of `to`: its own layer, a listed one, or any (`*`) but those excluded (`!x`). */
const mayImport = (from: string, to: string): boolean => {
  const allowed = LAYERS[from] ?? [];
  if (to === from || allowed.includes(to)) return true;
  return allowed.includes('*') && !allowed.includes(`!${to}`);
};

interface Module {
  readonly file: string;
  readonly layer: string;
  readonly imports: ReadonlyArray<{ readonly target: string; readonly typeOnly: boolean; readonly line: number }>;
}

const walk = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));

const layerOf = (file: string): string => {
  const rel = relative(SRC, file);
  return rel.includes('/') ? (rel.split('/')[0] as string) : 'entries';
};

const IMPORT = /^\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?'(\.[^']+)'|import\(\s*'(\.[^']+)'\s*\)/gm;

const readModule = (file: string): Module => {
  const text = readFileSync(file, 'utf8');
  const imports: Array<Module['imports'][number]> = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = (m[2] ?? m[3]) as string;
    const line = text.slice(0, m.index).split('\n').length;
    imports.push({ target: normalize(join(dirname(file), spec)).replace(/\.js$/, '.ts'), typeOnly: m[1] !== undefined, line });
  }
  return { file, layer: layerOf(file), imports };
};

const modules = walk(SRC).map(readModule);
const byFile = new Map(modules.map((m) => [m.file, m]));

describe('layers', () => {
  it('every module is in a layer of the table', () => {
    const unknown = [...new Set(modules.map((m) => m.layer))].filter((l) => LAYERS[l] === undefined);
    expect(unknown).toEqual([]);
  });

  it('the table enforced here is the one docs/architecture.md shows, in its order', () => {
    const documented = documentedLayers();
    expect(Object.keys(documented)).toEqual(Object.keys(LAYERS));
    expect(documented).toEqual(LAYERS);
  });

  it('imports point only to the same layer or to one it may depend on', () => {
    const violations: string[] = [];
    for (const m of modules) {
      for (const i of m.imports) {
        const to = layerOf(i.target);
        if (mayImport(m.layer, to)) continue;
        violations.push(`${relative(SRC, m.file)}:${i.line} (${m.layer}) imports ${relative(SRC, i.target)} (${to})`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('no entry module is imported from inside the library (entries are the outside)', () => {
    const inward = modules
      .filter((m) => m.layer !== 'entries')
      .flatMap((m) => m.imports.filter((i) => layerOf(i.target) === 'entries').map(() => relative(SRC, m.file)));
    expect(inward).toEqual([]);
  });

  it('there is no import cycle between modules', () => {
    // Tarjan's strongly connected components over all imports (type-only ones too)
    let index = 0;
    const stack: string[] = [];
    const onStack = new Set<string>();
    const idx = new Map<string, number>();
    const low = new Map<string, number>();
    const cycles: string[][] = [];
    const visit = (v: string): void => {
      idx.set(v, index);
      low.set(v, index);
      index++;
      stack.push(v);
      onStack.add(v);
      for (const { target: w } of byFile.get(v)?.imports ?? []) {
        if (!byFile.has(w)) continue;
        if (!idx.has(w)) {
          visit(w);
          low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
        } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, idx.get(w) as number));
      }
      if (low.get(v) === idx.get(v)) {
        const component: string[] = [];
        let w: string;
        do {
          w = stack.pop() as string;
          onStack.delete(w);
          component.push(relative(SRC, w));
        } while (w !== v);
        if (component.length > 1 || byFile.get(v)?.imports.some((i) => i.target === v)) cycles.push(component.sort());
      }
    };
    for (const m of modules) if (!idx.has(m.file)) visit(m.file);
    expect(cycles).toEqual([]);
  });

  it('every relative import resolves to a module under src/', () => {
    const dangling = modules.flatMap((m) =>
      m.imports.filter((i) => !byFile.has(i.target)).map((i) => `${relative(SRC, m.file)}:${i.line} → ${relative(SRC, i.target)}`),
    );
    // non-TypeScript targets (the bundled gram text is a .ts module; nothing else is imported)
    expect(dangling).toEqual([]);
  });

  it('only the CLI reads the process: argv, environment, working directory, standard streams, exit', () => {
    const PROCESS = /\bprocess\.(env|argv|cwd|chdir|exit|exitCode|stdin|stdout|stderr)\b/;
    const readers = modules
      .filter((m) => m.layer !== 'cli')
      .flatMap((m) =>
        readFileSync(m.file, 'utf8')
          .split('\n')
          .flatMap((line, i) => (PROCESS.test(line) && !/^\s*(\/\/|\*)/.test(line) ? [`${relative(SRC, m.file)}:${i + 1}`] : [])),
      );
    expect(readers).toEqual([]);
  });
});
