/**
 * docs/gram.md stays true: its gram examples are taken from example files that parse, its
 * commands run, and its table lists every diagnostic code the front end emits.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GramCodes, parseGram } from '../../src/index.js';
import { cli } from '../support/cli.js';

const root = join(import.meta.dirname, '..', '..');
const doc = readFileSync(join(root, 'docs', 'gram.md'), 'utf8');
const blocks = (lang: string): string[] => [...doc.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((m) => m[1] ?? '');
const examples = ['hello.gram', 'notation.gram'].map((f) => readFileSync(join(root, 'examples', f), 'utf8'));

describe('docs/gram.md', () => {
  it('shows only gram that parses and that an example file contains', () => {
    const gram = blocks('gram');
    expect(gram.length).toBeGreaterThan(3);
    for (const b of gram) {
      expect(parseGram(b)._tag, b).toBe('Right');
      expect(
        examples.some((e) => e.includes(b.trimEnd())),
        b,
      ).toBe(true);
    }
  });
  it('shows commands that succeed', async () => {
    const commands = blocks('sh')
      .flatMap((b) => b.split('\n'))
      .filter((l) => l.startsWith('gramkit '));
    expect(commands.length).toBeGreaterThan(0);
    for (const c of commands) {
      const r = await cli(c.split(/\s+/).slice(1));
      expect(r.code, `${c}\n${r.stderr}`).toBe(0);
    }
  });
  it('lists every diagnostic code of the gram front end (its registry, gram/codes.ts)', () => {
    const codes = Object.values(GramCodes);
    expect(codes.length).toBeGreaterThan(30);
    for (const code of codes) expect(doc, code).toContain(`| \`${code}\` |`);
  });
});
