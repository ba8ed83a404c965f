/**
 * One copy of each shared thing (issue 12): the helpers of src/core are the only ones of their
 * kind, so that copies cannot drift apart again. Each check names the module that owns the thing
 * and looks, in every other module of src/, for a definition or a use that would be a second copy.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SRC, sourceFiles } from '../support/registries.js';

const files = sourceFiles().map((f) => ({ file: f, text: readFileSync(join(SRC, f), 'utf8') }));

/** The code of a module without its comments (line and block; lines kept), so that prose may name anything. */
const code = (text: string): string => text.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, '')).replace(/(^|[^:'"`\\])\/\/[^\n]*/g, '$1');

/** `file:line` of every line of code, outside `owners`, that matches `pattern`. */
const found = (pattern: RegExp, owners: ReadonlyArray<string>): string[] =>
  files
    .filter((f) => !owners.includes(f.file))
    .flatMap((f) =>
      code(f.text)
        .split('\n')
        .flatMap((line, i) => (pattern.test(line) ? [`${f.file}:${i + 1}: ${line.trim().slice(0, 100)}`] : [])),
    );

describe('one copy of each thing', () => {
  it('fp-ts is imported by core/either.ts alone: an Either is built one way', () => {
    expect(found(/from\s+'fp-ts[/']/, ['core/either.ts'])).toEqual([]);
  });

  it('no Either is written as a literal ({_tag: "Left"} / {_tag: "Right"}): left and right build them', () => {
    expect(found(/_tag\s*:\s*['"](Left|Right)['"]/, [])).toEqual([]);
  });

  it('JSON Pointer segments are escaped and unescaped by core/json-pointer.ts alone', () => {
    // schema/meta-validator.ts is ajv's code, generated (test/spec/sync-meta-validator.ts)
    expect(found(/['"`/]~[01]|~[01]['"`/]/, ['core/json-pointer.ts', 'schema/meta-validator.ts'])).toEqual([]);
  });

  it('"is it a record" is defined by core/json.ts alone (isRecord, isJsonObject)', () => {
    expect(found(/\(\s*(\w+)\s*:\s*unknown\s*\)[^=]*=>\s*typeof \1 === 'object' && \1 !== null && !Array\.isArray\(\1\)\s*;?\s*$/, ['core/json.ts'])).toEqual(
      [],
    );
  });

  it('edit distance (Levenshtein) is defined by core/suggest.ts alone', () => {
    expect(found(/(const|function)\s+\w*(levenshtein|editDistance|distance)\w*\s*[=(]/i, ['core/suggest.ts'])).toEqual([]);
  });

  it("JSON with sorted keys is written by core/stable-json.ts (and gram/canonical-json.ts, gram's canonical form) alone", () => {
    const sorting = files.filter((f) => /Object\.keys\([^)]*\)\.sort\(/.test(code(f.text)) && /JSON\.stringify\(/.test(code(f.text))).map((f) => f.file);
    expect(sorting.filter((f) => f !== 'core/stable-json.ts' && f !== 'gram/canonical-json.ts')).toEqual([]);
  });
});
