/**
 * The examples of docs/specifications.md and docs/type-signatures.md run: the script, and every
 * command the docs show (with the exit code and an excerpt of the output they show).
 */
import { describe, expect, it } from 'vitest';
import { main } from '../../examples/specifications.js';
import { cli } from '../support/cli.js';

const ROOT = new URL('../../', import.meta.url).pathname;

describe('examples', () => {
  it('examples/specifications.ts prints what the docs show', () => {
    const lines: string[] = [];
    main((l) => lines.push(l));
    expect(lines[0]).toBe('{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}');
    expect(lines[1]).toBe('{"city":"Paris","days":1}');
    expect(lines[2]).toBe('argument "days" must be an integer, got "ten"');
    expect(lines[3]).toContain('error[SPEC_UNKNOWN_TYPE]: unknown type `Strng`');
    expect(lines[3]).toContain('error[SPEC_CONSTRAINT_TYPE]');
    expect(lines[4]).toBe('4 tools; agent assistant uses sayHello, get_weather, create_event, search_docs');
  });

  const commands: ReadonlyArray<readonly [string, number, string]> = [
    ['schema examples/tools.gram --tool get_weather', 0, '"required": ['],
    ['schema examples/tools.gram --format openai-strict', 0, '"strict": true'],
    ['schema examples/tools.gram --tool create_event --output', 0, '"description": "the event id"'],
    ['types examples/tools.gram', 0, 'export interface GetWeatherArgs'],
    ['validate examples/tools.gram --tool get_weather --args {"city":"Paris","days":3}', 0, 'valid'],
    ['validate examples/tools.gram --tool get_weather --args {"city":"Paris","days":30}', 1, 'argument "days" must be at most 7, got 30'],
    ['validate examples/tools.gram --calls examples/spec/calls.jsonl', 1, '"valid":false'],
    ['import examples/spec/mcp-tools.json', 0, '[edit_file:Tool'],
    ['import test/fixtures/bfcl/BFCL_v4_simple_python.json --from bfcl', 1, '[calculate_triangle_area:Tool'],
  ];
  for (const [line, code, excerpt] of commands) {
    it(`gramkit ${line}`, async () => {
      const r = await cli(line.split(' '), { cwd: ROOT });
      expect(r.code, r.stderr).toBe(code);
      expect(r.stdout).toContain(excerpt);
    });
  }
});
