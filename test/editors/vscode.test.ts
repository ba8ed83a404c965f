/**
 * editors/vscode: the extension packages offline into a .vsix (a zip in the VSIX layout, read back
 * here), its client is bundled with vscode-languageclient, and its TextMate grammar's patterns
 * compile and scope a tool, a parameter and its type, keys, strings and comments.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname.replace(/\/$/, '');
const dir = mkdtempSync(join(tmpdir(), 'gramkit-vsix-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The entries of a zip, by name (stored or deflated), from its central directory. */
const unzip = (buf: Buffer): Map<string, Buffer> => {
  const end = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = buf.readUInt16LE(end + 10);
  let p = buf.readUInt32LE(end + 16);
  const out = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    expect(buf.readUInt32LE(p)).toBe(0x02014b50);
    const method = buf.readUInt16LE(p + 10);
    const size = buf.readUInt32LE(p + 20);
    const nameLength = buf.readUInt16LE(p + 28);
    const extra = buf.readUInt16LE(p + 30) + buf.readUInt16LE(p + 32);
    const local = buf.readUInt32LE(p + 42);
    const name = buf.subarray(p + 46, p + 46 + nameLength).toString('utf8');
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const data = buf.subarray(start, start + size);
    out.set(name, method === 8 ? inflateRawSync(data) : Buffer.from(data));
    p += 46 + nameLength + extra;
  }
  return out;
};

describe('the VS Code extension', () => {
  it('packages into a .vsix with its manifest, its bundled client, the grammar and the language configuration', async () => {
    const { packageExtension } = (await import(join(root, 'editors/vscode/package.mjs'))) as { packageExtension: (out: string) => Promise<{ out: string }> };
    const out = join(dir, 'gram.vsix');
    await packageExtension(out);
    const entries = unzip(readFileSync(out));
    expect([...entries.keys()].sort()).toEqual([
      '[Content_Types].xml',
      'extension.vsixmanifest',
      'extension/README.md',
      'extension/extension.js',
      'extension/language-configuration.json',
      'extension/package.json',
      'extension/syntaxes/gram.tmLanguage.json',
    ]);
    const manifest = JSON.parse(entries.get('extension/package.json')?.toString() ?? '{}') as {
      name: string;
      version: string;
      publisher: string;
      main: string;
      contributes: { languages: Array<{ id: string; extensions: string[] }>; grammars: Array<{ path: string; scopeName: string }> };
    };
    expect(manifest.main).toBe('./extension.js');
    expect(manifest.contributes.languages[0]).toMatchObject({ id: 'gram', extensions: ['.gram'] });
    expect(entries.has(`extension/${manifest.contributes.grammars[0]?.path.replace(/^\.\//, '')}`)).toBe(true);
    const vsix = entries.get('extension.vsixmanifest')?.toString() ?? '';
    expect(vsix).toContain(`<Identity Language="en-US" Id="${manifest.name}" Version="${manifest.version}" Publisher="${manifest.publisher}" />`);
    expect(vsix).toContain('Microsoft.VisualStudio.Code.Engine');
    // the client: vscode-languageclient bundled in, vscode left to the editor, and the server command
    const client = entries.get('extension/extension.js')?.toString() ?? '';
    expect(client).toContain('require("vscode")');
    expect(client).not.toContain('require("vscode-languageclient');
    expect(client).toContain('gramkit language server');
    expect(client.length).toBeGreaterThan(50_000);
  });

  it('the TextMate grammar: every pattern compiles, and a tool, a parameter, its type, keys, strings and comments get their scopes', () => {
    const grammar = JSON.parse(readFileSync(join(root, 'editors/vscode/syntaxes/gram.tmLanguage.json'), 'utf8')) as {
      scopeName: string;
      repository: Record<string, unknown>;
    };
    expect(grammar.scopeName).toBe('source.gram');
    const rules: Array<{ name?: string; match?: string; begin?: string; captures?: Record<string, { name: string }> }> = [];
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (typeof v === 'object' && v !== null) {
        const r = v as Record<string, unknown>;
        if (typeof r['match'] === 'string' || typeof r['begin'] === 'string') rules.push(r as never);
        for (const x of Object.values(r)) walk(x);
      }
    };
    walk(grammar.repository);
    for (const r of rules) for (const src of [r.match, r.begin].filter((x): x is string => x !== undefined)) expect(() => new RegExp(src), src).not.toThrow();
    const scopesOf = (rule: string, text: string): string[] => {
      const r = grammar.repository[rule] as { match: string; captures: Record<string, { name: string }> };
      const m = new RegExp(r.match).exec(text);
      return m === null
        ? []
        : Object.entries(r.captures)
            .filter(([i]) => m[Number(i)] !== undefined)
            .map(([i, c]) => `${m[Number(i)]}=${c.name}`);
    };
    expect(scopesOf('specification', '[greet:Tool {description: "x"} |')).toEqual([
      '[=punctuation.section.brackets.begin.gram',
      'greet=entity.name.function.gram',
      ':=punctuation.separator.label.gram',
      'Tool=storage.type.gram',
    ]);
    expect(scopesOf('label', '(name::String {minLength: 1})')).toEqual([
      'name=variable.parameter.gram',
      '::=punctuation.separator.label.gram',
      'String=entity.name.type.gram',
    ]);
    expect(scopesOf('key', '{minLength: 1}')).toEqual(['minLength=variable.other.property.gram', ':=punctuation.separator.key-value.gram']);
    const comment = (grammar.repository['comment'] as { patterns: Array<{ match?: string }> }).patterns[0]?.match as string;
    expect(new RegExp(comment).exec('(a) // a note')?.[0]).toBe('// a note');
  });
});
