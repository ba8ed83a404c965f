import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { QUESTIONS, runAbExperiment } from '../../examples/ab-libraries.js';
import { libraryBasics } from '../../examples/library-basics.js';

describe('examples', () => {
  it('ab-libraries: the same answers from both libraries, different metrics', async () => {
    const report = await runAbExperiment();
    if (typeof report === 'string') throw new Error(report);
    expect(report.agree).toBe(true);
    expect(report.answers.map((a) => a.country)).toEqual(QUESTIONS);
    expect(report.answers.map(({ results }) => (results['fast']?.ok ? results['fast'].value : results['fast']?.error.code))).toEqual([
      'Paris',
      'Tokyo',
      'Brasília',
      'Nairobi',
      'Wellington',
      'NOT_FOUND',
      'Lima',
      'Oslo',
    ]);
    for (const variant of ['fast', 'slow']) {
      expect(report.metrics[variant]?.tools['capital_of']).toMatchObject({ callCount: 8, okCount: 7, errorCount: 1, errorsByCode: { NOT_FOUND: 1 } });
    }
  });

  it('library-basics: the tour prints what the docs show', async () => {
    const lines = await libraryBasics();
    expect(lines.slice(0, 6)).toEqual([
      'empty library still empty: true',
      'ok: "Hello, Ada! Nice to meet you."',
      'TOOL_INVALID_ARGUMENTS: invalid arguments for "sayHello": argument "name" must be a string, got 42',
      'TOOL_INVALID_ARGUMENTS: invalid arguments for "sayHello": argument "name" is required',
      'events: invoked, result, invoked, failed, invoked, failed',
      'sayHello: 3 calls, errors {"TOOL_INVALID_ARGUMENTS":2}',
    ]);
    expect(lines[6]).toMatch(/^error\[TOOL_MISMATCH\]: the tool "sayHello" does not match its specification/);
    expect(lines[6]).toContain('/properties/name/type: spec "string", tool "integer"');
  });

  it('every TypeScript block of docs/library.md is taken from a file under examples/', () => {
    const doc = readFileSync(new URL('../../docs/library.md', import.meta.url), 'utf8');
    const blocks = [...doc.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => (m[1] as string).trimEnd());
    expect(blocks.length).toBeGreaterThan(0);
    const root = new URL('../../examples/', import.meta.url).pathname;
    const files = (readdirSync(root, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts')).map((f) => readFileSync(join(root, f), 'utf8'));
    for (const block of blocks)
      expect(
        files.some((f) => f.includes(block)),
        block,
      ).toBe(true);
  });
});
