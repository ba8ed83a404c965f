/**
 * The JSON Schemas compiled from examples/tools.gram, pinned byte for byte (golden files), so any
 * change of the emitter shows up in review.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { encodeSpecifications, formatDiagnostics, parseSpecifications } from '../../src/index.js';
import { expectGolden } from '../support/golden.js';

const text = readFileSync(new URL('../../examples/tools.gram', import.meta.url), 'utf8');

describe('golden output of examples/tools.gram', () => {
  const r = parseSpecifications(text, { filename: 'examples/tools.gram' });
  if (r._tag === 'Left') throw new Error(formatDiagnostics(r.left, text));
  const specs = r.right;

  it('argument and result schemas', () => {
    const out: Record<string, unknown> = {};
    for (const t of specs.tools) out[t.name] = { schema: t.schema, outputSchema: t.outputSchema };
    expectGolden('spec/golden/schemas/tools.json', out);
  });

  it('the JSON form of the whole file, one golden per tool and agent', () => {
    const json = encodeSpecifications(specs) as { tools: ReadonlyArray<{ name: string }>; agents: ReadonlyArray<{ name: string }> };
    expect(Object.keys(json)).toEqual(['tools', 'agents']);
    for (const t of json.tools) expectGolden(`spec/golden/json/tools/${t.name}.json`, t);
    for (const a of json.agents) expectGolden(`spec/golden/json/agents/${a.name}.json`, a);
  });
});
