/**
 * Attack class: outputs many times the size of their input. `json_parse` pretty-prints with an
 * indentation per level, so deep nesting (or a `$..*` query that repeats every subtree) turned a
 * few kilobytes into tens of megabytes for the model. The result is bounded (`jsonMaxOutputBytes`,
 * `BUILTIN_TOO_LARGE`), and the bound is exact: it is the pretty text's length.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { prettySizeWithin } from '../../src/tools/builtin/json-parse.js';
import { BuiltinCodes } from '../../src/entries/builtins.js';
import { caller, code, value, workspace } from '../tools/builtin/support.js';

describe('attack: json_parse output bombs', () => {
  it('deep nesting and $..* over it are refused with RESULT_TOO_LARGE, within the limit is fine', async () => {
    const s = workspace();
    const call = caller({ workspace: s.ws });
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`; // 10 kB in, 25 MB pretty
    const r = await call('json_parse', { text: deep });
    expect(code(r)).toBe(BuiltinCodes.TOO_LARGE);
    expect(r.ok ? '' : r.error.message).toContain('output limit');
    const wide = JSON.stringify({ a: Array.from({ length: 300 }, (_, i) => ({ b: [i, [i, [i, [i]]]] })) });
    const small = caller({ workspace: s.ws, limits: { jsonMaxOutputBytes: 1000 } });
    expect(code(await small('json_parse', { text: wide, query: '$..*' }))).toBe(BuiltinCodes.TOO_LARGE);
    expect(value<{ pretty: string }>(await small('json_parse', { text: '{"a": [1, 2]}' })).pretty).toBe('{\n  "a": [\n    1,\n    2\n  ]\n}');
  });

  it('law: the size bound is the length of the pretty text, and undefined exactly above the limit', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat({ max: 2000 }), (v, limit) => {
        const n = JSON.stringify(v, null, 2).length;
        expect(prettySizeWithin(v, Number.MAX_SAFE_INTEGER)).toBe(n);
        expect(prettySizeWithin(v, limit)).toBe(n <= limit ? n : undefined);
      }),
      { numRuns: 300 },
    );
  });
});
