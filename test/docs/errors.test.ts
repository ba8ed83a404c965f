/**
 * docs/errors.md stays true: its tables are the registries (each layer's codes.ts) rendered, so
 * every code is documented with its meaning, whether retrying helps and what to do; and no doc
 * (errors.md, the other docs, the README) names a code that does not exist, or an old name of a
 * renamed one outside the renaming table. `UPDATE_GOLDEN=1 npx vitest run test/docs` rewrites the
 * tables of errors.md from the registries (then review the diff).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CANONICAL_CODES, type CodeInfo, type Registry, type Retry } from '../../src/core/codes.js';
import { loadRegistries } from '../support/registries.js';

const root = join(import.meta.dirname, '..', '..');
const ERRORS = join(root, 'docs', 'errors.md');
const registries = await loadRegistries();
const codes = new Map(registries.flatMap((r) => r.codes.map((c) => [c.code, c] as const)));

/** The order of the sections: the layers bottom-up, as docs/architecture.md lists them. */
const ORDER = [
  'GRAM',
  'SPEC',
  'SPEC_ARG',
  'SPEC_IMPORT',
  'SPEC_DIALECT',
  'TOOL',
  'NET',
  'POLICY',
  'IMPL',
  'HTTP',
  'COMMAND',
  'BUILTIN',
  'AGENT',
  'MCP',
  'ADAPTER',
  'CATALOG',
  'SERVICE',
  'PROJECT',
  'CLI',
];

const cell = (s: string): string => s.replace(/\|/g, '\\|');
const retry = (c: { readonly retryable: Retry }): string => (c.retryable === true ? 'yes' : c.retryable === false ? 'no' : 'sometimes');
const meaning = (c: CodeInfo): string => `${c.severity === 'error' ? '' : `(${c.severity}) `}${cell(c.summary)}`;

/** A registry as the table docs/errors.md shows: each precise code (a failure's `reason`) with its canonical code. */
const table = (r: Registry): string =>
  [
    '| reason (precise code) | code (canonical) | retry | HTTP | meaning | what to do |',
    '| --- | --- | --- | --- | --- | --- |',
    ...r.codes.map((c) => `| \`${c.code}\` | \`${c.canonical}\` | ${retry(c)} | ${c.http ?? '—'} | ${meaning(c)} | ${cell(c.hint)} |`),
  ].join('\n');

/** The canonical codes, each with the precise codes of result registries (not the diagnostics') that map to it. */
const canonicalTable = (): string => {
  const diagnostics = new Set(['GRAM', 'SPEC', 'SPEC_ARG', 'SPEC_IMPORT', 'SPEC_DIALECT']);
  const precise = (code: string): string[] =>
    registries.filter((r) => !diagnostics.has(r.prefix)).flatMap((r) => r.codes.filter((c) => c.canonical === code).map((c) => `\`${c.code}\``));
  return [
    '| code | retry | HTTP | meaning | reasons (precise codes) |',
    '| --- | --- | --- | --- | --- |',
    ...Object.entries(CANONICAL_CODES).map(([code, c]) => `| \`${code}\` | ${retry(c)} | ${c.http} | ${cell(c.summary)} | ${precise(code).join(', ')} |`),
  ].join('\n');
};

const marker = (prefix: string): RegExp => new RegExp(`(<!-- codes ${prefix} -->\\n)([\\s\\S]*?)(\\n<!-- /codes ${prefix} -->)`);

/** Tokens that look like codes of gramkit's layers. */
const CODE_TOKEN = /\b(?:GRAM|SPEC|TOOL|NET|POLICY|IMPL|HTTP|COMMAND|BUILTIN|AGENT|MCP|ADAPTER|CATALOG|SERVICE|CLI)_[A-Z0-9_]*[A-Z0-9]\b/g;

/** Exported names that look like codes but are not (constants of the API, in any entry). */
const entryFiles = [join(root, 'src', 'index.ts'), ...readdirSync(join(root, 'src', 'entries')).map((f) => join(root, 'src', 'entries', f))];
const EXPORTED = new Set((await Promise.all(entryFiles.map((f) => import(f) as Promise<Record<string, unknown>>))).flatMap((m) => Object.keys(m)));

describe('docs/errors.md', () => {
  let doc = readFileSync(ERRORS, 'utf8');

  it('has the table of canonical codes, rendered from core/codes.ts and the registries (UPDATE_GOLDEN=1 rewrites it)', () => {
    const m = marker('CANONICAL').exec(doc);
    expect(m, 'docs/errors.md has no <!-- codes CANONICAL --> section').not.toBeNull();
    if (process.env['UPDATE_GOLDEN'] === '1') {
      doc = doc.replace(marker('CANONICAL'), (_all, open: string, _old, close: string) => `${open}${canonicalTable()}${close}`);
      writeFileSync(ERRORS, doc);
      return;
    }
    expect(m?.[2], 'the canonical table of docs/errors.md (run UPDATE_GOLDEN=1 npx vitest run test/docs)').toBe(canonicalTable());
  });

  it('has one table per registry, rendered from it (UPDATE_GOLDEN=1 rewrites them)', () => {
    expect(registries.map((r) => r.prefix).sort()).toEqual([...ORDER].sort());
    for (const prefix of ORDER) {
      const r = registries.find((x) => x.prefix === prefix) as Registry;
      const m = marker(prefix).exec(doc);
      if (process.env['UPDATE_GOLDEN'] === '1') {
        if (m === null) throw new Error(`docs/errors.md has no <!-- codes ${prefix} --> section`);
        doc = doc.replace(marker(prefix), (_all, open: string, _old, close: string) => `${open}${table(r)}${close}`);
        continue;
      }
      expect(m, `docs/errors.md has no <!-- codes ${prefix} --> section`).not.toBeNull();
      expect(m?.[2], `the ${prefix}_ table of docs/errors.md (run UPDATE_GOLDEN=1 npx vitest run test/docs)`).toBe(table(r));
    }
    if (process.env['UPDATE_GOLDEN'] === '1') writeFileSync(ERRORS, doc);
  });

  it('documents every code of every registry, once', () => {
    const rows = doc.split('\n');
    for (const code of codes.keys()) expect(rows.filter((l) => l.startsWith(`| \`${code}\` |`)).length, code).toBe(1);
  });

  it('names no code that does not exist (the renaming table names the new ones)', () => {
    const renaming = doc.slice(doc.indexOf('## Renamed codes'));
    expect(renaming.length).toBeGreaterThan(100);
    const before = doc.slice(0, doc.indexOf('## Renamed codes'));
    const prefixes = new Set(registries.map((r) => r.prefix));
    for (const t of before.match(CODE_TOKEN) ?? []) expect(codes.has(t) || EXPORTED.has(t) || prefixes.has(t), t).toBe(true);
    for (const row of renaming.split('\n').filter((l) => l.startsWith('| `'))) {
      const cells = row.split(' | ');
      const now = [...(cells[1] ?? '').matchAll(/`([A-Z0-9_]+)`/g)].map((m) => m[1] as string);
      expect(now.length, row).toBeGreaterThan(0);
      for (const c of now) expect(codes.has(c), `${c} (${row})`).toBe(true);
    }
  });
});

describe('the other docs and the README', () => {
  const errors = readFileSync(ERRORS, 'utf8');
  const renaming = errors.slice(errors.indexOf('## Renamed codes'));
  /** Old names that are no longer codes (the left column of the renaming table). */
  const old = new Set(
    renaming
      .split('\n')
      .filter((l) => l.startsWith('| `'))
      .flatMap((l) => [...(l.split(' | ')[0] ?? '').matchAll(/`([A-Z0-9_]+)`/g)].map((m) => m[1] as string))
      .filter((c) => !codes.has(c)),
  );
  const docs = [
    join(root, 'README.md'),
    ...readdirSync(join(root, 'docs'))
      .filter((f) => f.endsWith('.md') && f !== 'errors.md')
      .map((f) => join(root, 'docs', f)),
  ];

  it.each(docs.map((d) => [d.slice(root.length + 1), d] as const))('%s names only codes that exist', (_, file) => {
    const text = readFileSync(file, 'utf8');
    for (const t of text.match(CODE_TOKEN) ?? []) expect(codes.has(t) || EXPORTED.has(t), t).toBe(true);
    for (const m of text.matchAll(/`([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)`/g))
      expect(old.has(m[1] as string), `${m[1]} was renamed (see docs/errors.md)`).toBe(false);
  });
});
