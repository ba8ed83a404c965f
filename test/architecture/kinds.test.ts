/**
 * One registry of implementation kinds (issue 22): each kind is a module of src/tools/kinds/,
 * listed once in src/tools/kinds.ts, named in the specification language's
 * `IMPLEMENTATION_PROPERTIES`; everything else looks a kind up. So no module outside the registry
 * switches on a kind's name (`case 'http'`), compares a record's type with one
 * (`.type === 'command'`) or reads a kind's block by its name (`impl['builtin']`,
 * `metadata['http']`), and the lists derived from the registry (the catalog's `TOOL_TYPES`, the
 * service's `type` enums in the OpenAPI document) are its names.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TOOL_TYPES } from 'gramkit/catalog';
import { IMPLEMENTATION_PROPERTIES } from '../../src/specification/specifications.js';
import { KINDS } from '../../src/tools/kinds.js';
import { fullToken, harness } from '../server/support.js';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

const walk = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));

const NAMES = Object.keys(IMPLEMENTATION_PROPERTIES);
const ALT = NAMES.join('|');

/** A kind named where the registry should be asked instead. */
const PATTERNS: ReadonlyArray<RegExp> = [
  new RegExp(`case '(${ALT})'`),
  new RegExp(`\\b(type|kind)\\s*[!=]==?\\s*'(${ALT})'`),
  new RegExp(`'(${ALT})'\\s*[!=]==?\\s*[\\w.]*\\b(type|kind)\\b`),
  new RegExp(`\\b(impl|meta|metadata)\\)?\\??\\.?\\[['"](${ALT})['"]\\]`),
];

/** The layers that handle implementations (the others use `function` and `http` for other things: OpenAI's function tools, MCP's transports). */
const SCOPE = ['tools/', 'catalog/', 'server/', 'cli/', 'agent/', 'library/', 'policy/'];

/** Where a kind's name is read on purpose, and why. */
const ALLOWED: Readonly<Record<string, string>> = {
  // a tool.json's `type: "go"` (seed 000) is read as a function tool: its block's `function` or `goFunc`
  'catalog/records/tool-json.ts': "impl['function']",
};

describe('one registry of implementation kinds', () => {
  it('no module outside the registry switches on a kind, compares a type with one, or reads a block by its name', () => {
    const found: string[] = [];
    for (const file of walk(SRC)) {
      const rel = relative(SRC, file);
      if (!SCOPE.some((s) => rel.startsWith(s)) || rel.startsWith('tools/kinds/') || rel === 'tools/kinds.ts') continue;
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (line.trimStart().startsWith('*') || line.trimStart().startsWith('//')) return;
          if (!PATTERNS.some((p) => p.test(line))) return;
          const allowed = ALLOWED[rel];
          if (allowed !== undefined && line.includes(allowed)) return;
          found.push(`${rel}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(found).toEqual([]);
  });

  it('the registry has a module per name, and each module is the kind of its name', () => {
    expect(Object.keys(KINDS)).toEqual(NAMES);
    for (const [name, kind] of Object.entries(KINDS)) expect(kind.name).toBe(name);
    const modules = readdirSync(join(SRC, 'tools/kinds')).map((f) => f.replace(/\.ts$/, ''));
    const shared = ['kind', 'named-impl'];
    expect(modules.filter((m) => !shared.includes(m)).sort()).toEqual([...NAMES].sort());
  });

  it("the catalog's types and the service's type enums (OpenAPI) are the registry's names", async () => {
    expect([...TOOL_TYPES]).toEqual(NAMES);
    const h = await harness({ tokens: [fullToken('t'.repeat(16))] });
    try {
      const doc = (await h.call('GET', '/openapi.json')).json;
      const enums: unknown[] = [];
      const visit = (v: unknown): void => {
        if (Array.isArray(v)) v.forEach(visit);
        else if (typeof v === 'object' && v !== null) {
          const o = v as Record<string, unknown>;
          const type = o['properties'] !== undefined ? (o['properties'] as Record<string, Record<string, unknown>>)['type'] : undefined;
          if (Array.isArray(type?.['enum']) && (type['enum'] as unknown[]).includes('http')) enums.push(type['enum']);
          Object.values(o).forEach(visit);
        }
      };
      visit(doc);
      // the write's (which also reads a tool.json's "go" as a function tool) and the record's
      expect(enums.length).toBeGreaterThanOrEqual(2);
      for (const e of enums) expect((e as string[]).filter((t) => t !== 'go')).toEqual(NAMES);
    } finally {
      await h.close();
    }
  });
});
