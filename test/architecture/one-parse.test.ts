/**
 * The commands that run a specification file load it through the project layer
 * (src/project/project-file.ts), the one place that parses it: no module of the CLI that such a
 * command reaches (its action and what that imports, statically or on demand) imports a parser of
 * gram or of specifications. So the parses `GRAMKIT_TRACE=parse` reports
 * (test/cli/parse-once.test.ts) are every parse of the file there is.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/** The modules that parse gram text or specifications (value imports of them; types are fine). */
const PARSERS = ['gram/parse.ts', 'gram/fast-parser.ts', 'specification/load.ts', 'specification/collect.ts', 'specification/load-files.ts'];

const COMMANDS = ['run', 'invoke', 'mcp', 'ab', 'worker', 'serve', 'check'];

const IMPORT = /^\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?'(\.[^']+)'|import\(\s*'(\.[^']+)'\s*\)/gm;

/** The value imports of a module, as paths relative to src/. */
const importsOf = (file: string): string[] =>
  [...readFileSync(join(SRC, file), 'utf8').matchAll(IMPORT)]
    .filter((m) => m[1] === undefined)
    .map((m) => relative(SRC, normalize(join(dirname(join(SRC, file)), (m[2] ?? m[3]) as string))).replace(/\.js$/, '.ts'));

/** Each CLI module `action` reaches, with what it imports from outside the CLI. */
const reached = (action: string): Map<string, string[]> => {
  const seen = new Map<string, string[]>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    const imports = importsOf(file);
    seen.set(file, imports);
    for (const target of imports) if (target.startsWith('cli/')) visit(target);
  };
  visit(action);
  return seen;
};

describe('one parse of a specification file', () => {
  it.each(COMMANDS)('gramkit %s reaches no parser but the project layer’s', (command) => {
    const modules = reached(`cli/actions/${command}.ts`);
    expect(modules.size).toBeGreaterThan(1);
    const parsing = [...modules].flatMap(([file, imports]) => imports.filter((t) => PARSERS.includes(t)).map((t) => `${file} → ${t}`));
    expect(parsing).toEqual([]);
  });

  it('the project layer parses through analyzeGram and compiles the parsed document', () => {
    expect(importsOf('project/project-file.ts')).toEqual(expect.arrayContaining(['gram/parse.ts', 'specification/load.ts']));
  });
});
