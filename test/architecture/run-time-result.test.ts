/**
 * One run-time result (issue 22, item 4): work that can fail at run time (reading, connecting,
 * loading) returns `Result<A, CodedError>` (core/result.ts); `Either` stays for diagnostics. So no
 * exported declaration of src/ has a `Promise<Either<…>>` (or `Promise<Diagnosed<…>>`) in its
 * signature, except those listed here, each with why. The list only shrinks: an entry that no
 * longer matches fails too, so it is removed with the conversion.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/** `file#declaration` → why its promise holds an `Either`. */
const ALLOWED: Readonly<Record<string, string>> = {
  'specification/load-files.ts#loadSpecificationFiles': 'compile-time: the diagnostics of specification files (spans into their text)',
  'project/project-file.ts#loadProjectFile': 'compile-time: a file and its diagnostics (FileLoadFailure); an unreadable file is its message',
  'cli/actions/spec-source.ts#specsOfSource': "the project layer's FileLoadFailure",
  'tools/declarative.ts#loadDeclarativeLibrary': 'public API (gramkit/tools): the diagnostics of the files declaring the tools',
  'mcp/client.ts#connectMcp': 'public API (gramkit/mcp), kept before 1.0; the CLI opens servers through openMcpConnection, a Result',
};

const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [join(dir, e.name)] : [],
  );

const DECLARATION = /^(export\s+)?(?:async\s+)?(?:const|let|function|interface|type|class)\s+([A-Za-z_$][\w$]*)/;
const EITHER_PROMISE = /Promise<\s*(?:Either|Diagnosed|Checked)</;

/** Each exported declaration whose text holds a `Promise<Either<`, as `file#name`. */
const found = (): string[] => {
  const out = new Set<string>();
  for (const path of files(SRC)) {
    const lines = readFileSync(path, 'utf8').split('\n');
    let current: { readonly exported: boolean; readonly name: string } | undefined;
    for (const line of lines) {
      const d = DECLARATION.exec(line);
      if (d !== null) current = { exported: d[1] !== undefined, name: d[2] as string };
      if (EITHER_PROMISE.test(line) && current?.exported === true) out.add(`${relative(SRC, path)}#${current.name}`);
    }
  }
  return [...out].sort();
};

describe('one run-time result', () => {
  const now = found();
  it('no exported declaration returns Promise<Either<…>> but the listed ones', () => {
    expect(now.filter((k) => ALLOWED[k] === undefined)).toEqual([]);
  });
  it('every listed one still does (the list shrinks with each conversion)', () => {
    expect(Object.keys(ALLOWED).filter((k) => !now.includes(k))).toEqual([]);
  });
});
