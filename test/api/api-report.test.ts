/**
 * The public surface, one report per package entry (test/fixtures/api/<entry>.txt): every exported
 * name, as a value or a type. Adding, removing or renaming an export changes a report, so each
 * change of the API is deliberate and visible in review (`UPDATE_GOLDEN=1 npx vitest run test/api`).
 * The root entry stays the core a user starts with: at most 120 runtime values.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { expectGolden } from '../support/golden.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { exports: Record<string, unknown> };

/** `.` → src/index.ts, `./providers` → src/entries/providers.ts. */
const ENTRIES = Object.keys(pkg.exports)
  .filter((k) => k !== './package.json')
  .map((k) => ({ name: k === '.' ? 'index' : k.slice(2), file: k === '.' ? `${ROOT}src/index.ts` : `${ROOT}src/entries/${k.slice(2)}.ts` }));

const program = ts.createProgram(
  ENTRIES.map((e) => e.file),
  {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: ['node'],
  },
);
const checker = program.getTypeChecker();

interface Export {
  readonly name: string;
  readonly kind: 'value' | 'type';
}

const exportsOf = (file: string): ReadonlyArray<Export> => {
  const source = program.getSourceFile(file);
  if (source === undefined) throw new Error(`${file} is not in the program`);
  const moduleSymbol = checker.getSymbolAtLocation(source);
  if (moduleSymbol === undefined) return [];
  return checker
    .getExportsOfModule(moduleSymbol)
    .map((s) => {
      const target = s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
      return { name: s.getName(), kind: target.flags & ts.SymbolFlags.Value ? ('value' as const) : ('type' as const) };
    })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
};

const report = (entry: string, exported: ReadonlyArray<Export>): string => {
  const values = exported.filter((e) => e.kind === 'value');
  const types = exported.filter((e) => e.kind === 'type');
  return [
    `# ${entry === 'index' ? 'gramkit' : `gramkit/${entry}`}: ${values.length} values, ${types.length} types`,
    '',
    ...values.map((e) => `value ${e.name}`),
    '',
    ...types.map((e) => `type ${e.name}`),
    '',
  ].join('\n');
};

describe('API reports', () => {
  for (const entry of ENTRIES) {
    it(`${entry.name}: the exports are the reviewed ones`, () => {
      expectGolden(`api/${entry.name}.txt`, report(entry.name, exportsOf(entry.file)), { largeBecause: 'a sorted list of exported names, read as a diff' });
    });
  }

  it('the root entry is the core: at most 120 runtime values', () => {
    const root = ENTRIES.find((e) => e.name === 'index');
    expect(root).toBeDefined();
    expect(exportsOf((root as { file: string }).file).filter((e) => e.kind === 'value').length).toBeLessThanOrEqual(120);
  });

  it('no name is exported by two entries (one home for each)', () => {
    const seen = new Map<string, string>();
    const twice: string[] = [];
    for (const entry of ENTRIES) {
      for (const e of exportsOf(entry.file)) {
        const other = seen.get(e.name);
        if (other !== undefined) twice.push(`${e.name}: ${other} and ${entry.name}`);
        else seen.set(e.name, entry.name);
      }
    }
    expect(twice).toEqual([]);
  });
});
