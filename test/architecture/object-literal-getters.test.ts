/**
 * No getter in an object literal under src/ (a class with the getter on its prototype instead).
 *
 * V8 builds an object literal with an accessor in the runtime, not in optimized code, and each one
 * made per request of `gramkit serve` cost the server about 15 µs of CPU a REST invoke and most of
 * its garbage (bench/server.bench.ts: 80 → 57 µs when the handler's context and the call's options
 * became classes). The one left is made once a process.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

/** Made once a process, not per call. */
const ALLOWED = new Set(['src/cli/io.ts:get stdin']);

const tsFiles = (dir: string): string[] =>
  readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory()) return tsFiles(path);
    return e.name.endsWith('.ts') ? [path] : [];
  });

/** `file:get name` of every getter written inside an object literal. */
const literalGetters = (file: string): string[] => {
  const source = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isGetAccessorDeclaration(node) && ts.isObjectLiteralExpression(node.parent)) found.push(`${file}:get ${node.name.getText(source)}`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
};

describe('no getter in an object literal', () => {
  it('src/ builds objects with accessors from classes (one literal made once a process is allowed)', () => {
    const found = tsFiles('src').flatMap(literalGetters);
    expect(found.filter((g) => !ALLOWED.has(g))).toEqual([]);
    // the allowed one is still there (otherwise drop it from the list)
    expect([...ALLOWED].filter((g) => !found.includes(g))).toEqual([]);
  });
});
