import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { caller, code, value, workspace } from './support.js';

describe('json_parse', () => {
  const s = workspace();
  const call = caller({ workspace: s.ws });

  it('parses text and files, returning the value and its pretty form', async () => {
    expect(value(await call('json_parse', { text: '{"a":[1,2]}' }))).toEqual({ value: { a: [1, 2] }, pretty: '{\n  "a": [\n    1,\n    2\n  ]\n}' });
    s.file('data.json', '\uFEFF{"items": [{"name": "x"}, {"name": "y"}]}');
    expect(value(await call('json_parse', { path: 'data.json' }))).toMatchObject({ value: { items: [{ name: 'x' }, { name: 'y' }] } });
    expect(value(await call('json_parse', { text: '42' }))).toEqual({ value: 42, pretty: '42' });
  });
  it('selects with JSONPath, filters included (safe evaluation)', async () => {
    expect(value(await call('json_parse', { path: 'data.json', query: '$.items[*].name' }))).toMatchObject({ value: ['x', 'y'] });
    expect(value(await call('json_parse', { text: '{"a":[{"n":1},{"n":5}]}', query: '$.a[?(@.n > 2)]' }))).toMatchObject({ value: [{ n: 5 }] });
    expect(value(await call('json_parse', { text: '{"a":1}', query: '$.missing' }))).toMatchObject({ value: [] });
    const evil = await call('json_parse', { text: '{"a":[{"x":1}]}', query: '$..[?(@.constructor.constructor("return process")())]' });
    expect(evil.ok ? evil.value : evil.error.code).not.toHaveProperty('pid');
  });
  it('reports invalid JSON with line and column', async () => {
    const r = await call('json_parse', { text: '{\n  "a": 1,\n  "b": }' });
    expect(code(r)).toBe('BUILTIN_INVALID_JSON');
    if (!r.ok) {
      expect(r.error.details).toEqual({ line: 3, column: 8, offset: 19 });
      expect(r.error.message).toContain('line 3, column 8');
    }
    for (const bad of ['', '[1,2', '{"a":1,}', "{'a':1}", '01', '"tab\there"', '[1] x', '{"a" 1}', 'nul', '"\\x"']) {
      const b = await call('json_parse', { text: bad });
      expect(code(b)).toBe('BUILTIN_INVALID_JSON');
      if (!b.ok) expect(b.error.message).toMatch(/line \d+, column \d+/);
    }
  });
  it('the locator agrees with JSON.parse on what is valid', async () => {
    const { locateJsonError } = await import('../../../src/tools/builtin/json-locate.js');
    const jsonish = fc.oneof(
      fc.json(),
      fc.json().map((j) => j.slice(0, Math.max(0, j.length - 1))),
      fc.json().map((j) => j.replace(/"/, "'")),
      fc.string({ unit: fc.constantFrom('{', '}', '[', ']', ',', ':', '"', '1', '-', 'e', '.', ' ', 'n', 'u', 'l', '\\', 'a') }),
    );
    fc.assert(
      fc.property(jsonish, (t) => {
        let valid = true;
        try {
          JSON.parse(t);
        } catch {
          valid = false;
        }
        expect(locateJsonError(t) === undefined).toBe(valid);
      }),
      { numRuns: 3000 },
    );
    expect(locateJsonError('['.repeat(100000))?.problem).toContain('end of the text');
  });
  it('needs exactly one of text and path', async () => {
    expect(code(await call('json_parse', {}))).toBe('TOOL_INVALID_ARGUMENTS');
    expect(code(await call('json_parse', { text: '1', path: 'data.json' }))).toBe('TOOL_INVALID_ARGUMENTS');
    expect(code(await call('json_parse', { text: '{"a":[{"x":1}]}', query: '$.a[?(@.x > )]' }))).toBe('TOOL_INVALID_ARGUMENTS');
  });
});

describe('text_search', () => {
  const s = workspace();
  s.file('src/a.ts', 'const a = 1; // TODO one\nfunction f() {}\n');
  s.file('src/b.ts', 'nothing\n// todo two\n');
  s.file('.hidden/c.ts', 'TODO hidden\n');
  writeFileSync(path.join(s.ws, 'src/bin.dat'), Buffer.from([0x54, 0x4f, 0x44, 0x4f, 0, 1, 2]));
  const call = caller({ workspace: s.ws, limits: { searchTimeoutMs: 1000 } });

  it('searches the workspace: file, line, column, match and line text', async () => {
    const r = value<{ matches: unknown[]; truncated: boolean; filesSearched: number }>(await call('text_search', { pattern: 'TODO \\w+' }));
    expect(r).toEqual({
      matches: [{ path: 'src/a.ts', line: 1, column: 17, match: 'TODO one', lineText: 'const a = 1; // TODO one' }],
      truncated: false,
      filesSearched: 2,
    });
  });
  it('ignores case, includes hidden files on request, searches one file or a text', async () => {
    expect(
      value<{ matches: Array<{ path: string }> }>(await call('text_search', { pattern: 'todo', ignoreCase: true, includeHidden: true })).matches.map(
        (m) => m.path,
      ),
    ).toEqual(['.hidden/c.ts', 'src/a.ts', 'src/b.ts']);
    expect(value<{ filesSearched: number }>(await call('text_search', { pattern: 'f', path: 'src/a.ts' })).filesSearched).toBe(1);
    expect(value(await call('text_search', { pattern: 'b+', text: 'abbbc\nbd' }))).toEqual({
      matches: [
        { line: 1, column: 2, match: 'bbb', lineText: 'abbbc' },
        { line: 2, column: 1, match: 'b', lineText: 'bd' },
      ],
      truncated: false,
      filesSearched: 0,
    });
  });
  it('stops at maxMatches and says so; empty matches do not loop', async () => {
    expect(value(await call('text_search', { pattern: 'a', text: 'aaaa', maxMatches: 2 }))).toMatchObject({
      truncated: true,
      matches: [{ column: 1 }, { column: 2 }],
    });
    expect(value<{ matches: unknown[] }>(await call('text_search', { pattern: 'x*', text: 'ab' })).matches).toHaveLength(3);
  });
  it('cuts very long lines around the match', async () => {
    const r = value<{ matches: Array<{ lineText: string; column: number }> }>(
      await call('text_search', { pattern: 'NEEDLE', text: `${'a'.repeat(5000)}NEEDLE${'b'.repeat(5000)}` }),
    );
    expect(r.matches[0]?.column).toBe(5001);
    expect(r.matches[0]?.lineText.length).toBeLessThanOrEqual(402);
    expect(r.matches[0]?.lineText).toContain('NEEDLE');
  });
  it('a catastrophic pattern times out instead of hanging, and the next search works', async () => {
    const t0 = Date.now();
    const r = await call('text_search', { pattern: '(a+)+$', text: `${'a'.repeat(64)}!` });
    expect(code(r)).toBe('BUILTIN_TIMEOUT');
    if (!r.ok) expect(r.error.message).toContain('nested quantifiers');
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(code(await call('text_search', { pattern: '(x|x)*y', text: 'x'.repeat(40) }))).toBe('BUILTIN_TIMEOUT');
    expect(value<{ matches: unknown[] }>(await call('text_search', { pattern: 'a', text: 'a' })).matches).toHaveLength(1);
  });
  it('reports invalid patterns', async () => {
    const r = await call('text_search', { pattern: '(unclosed' });
    expect(code(r)).toBe('BUILTIN_INVALID_PATTERN');
  });
  it('stops reading at the byte limit and says so', async () => {
    const c = caller({ workspace: s.ws, limits: { searchMaxBytes: 50 } });
    expect(value(await c('text_search', { pattern: 'TODO' }))).toMatchObject({ truncated: true });
  });
});
