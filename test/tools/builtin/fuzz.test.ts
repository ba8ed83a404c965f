import { readdirSync, readFileSync, symlinkSync } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { builtinSpecification, BuiltinCodes } from '../../../src/entries/builtins.js';
import { NetCodes } from '../../../src/entries/tools.js';
import { PolicyCodes } from '../../../src/entries/policy.js';
import { ToolCodes } from '../../../src/index.js';
import { SECRET, caller, workspace } from './support.js';

/** Codes a built-in tool may answer with; anything else (TOOL_INVALID_OUTPUT above all) is a bug. */
const KNOWN = new Set<string>([...Object.values(BuiltinCodes), ...Object.values(ToolCodes), ...Object.values(NetCodes), ...Object.values(PolicyCodes)]);
KNOWN.delete(ToolCodes.INVALID_OUTPUT);

const TOOLS = ['list_directory', 'read_file', 'write_file', 'delete_file', 'move_file', 'json_parse', 'text_search'] as const;

const pathish = fc.oneof(
  fc
    .array(fc.constantFrom('a', 'b', '..', '.', 'link', 'f.txt', 'd', '', '%2e', 'x y', '\\', '~', 'outside', 'secret.txt'), { maxLength: 5 })
    .map((xs) => xs.join('/')),
  fc.string({ maxLength: 12 }),
  fc.constantFrom('/', '/etc/passwd', '.'),
);
const scalar = fc.oneof(pathish, fc.boolean(), fc.integer({ min: -5, max: 5 }), fc.constant(null), fc.double(), fc.string({ unit: 'grapheme', maxLength: 20 }));

/** Arguments shaped like the tool's schema (right names, values of any type) plus noise. */
const argsFor = (tool: string) => {
  const props = Object.keys((builtinSpecification(tool)?.schema['properties'] ?? {}) as Record<string, unknown>);
  return fc.record(Object.fromEntries(props.map((p) => [p, scalar])) as Record<string, fc.Arbitrary<unknown>>, { requiredKeys: [] });
};

describe('fuzzing the built-in tools through invoke', () => {
  it('any arguments give a result with a known code, never an invalid output, and nothing outside changes', async () => {
    const s = workspace();
    s.file('f.txt', 'hello TODO');
    s.file('d/g.json', '{"a": 1}');
    symlinkSync(s.outside, path.join(s.ws, 'link'));
    const call = caller({ workspace: s.ws });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...TOOLS), fc.nat(), async (tool, seed) => {
        const [args] = fc.sample(argsFor(tool), { seed, numRuns: 1 });
        const r = await call(tool, args as Record<string, unknown>);
        if (!r.ok) expect(KNOWN.has(r.error.reason), `${tool} ${JSON.stringify(args)} → ${r.error.reason}: ${r.error.message}`).toBe(true);
        expect(JSON.stringify(r)).not.toContain(SECRET);
      }),
      { numRuns: 400 },
    );
    expect(readdirSync(s.outside)).toEqual(['secret.txt']);
    expect(readFileSync(path.join(s.outside, 'secret.txt'), 'utf8')).toBe(SECRET);
  });
});
