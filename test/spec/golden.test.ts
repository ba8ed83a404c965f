/**
 * The JSON Schemas compiled from examples/tools.gram, pinned byte for byte (golden files), so any
 * change of the emitter shows up in review.
 */
import { readFileSync } from 'node:fs';
import { describe, it } from 'vitest';
import { encodeSpecifications, formatDiagnostics, parseSpecifications } from '../../src/index.js';
import { golden } from './support/golden.js';

const text = readFileSync(new URL('../../examples/tools.gram', import.meta.url), 'utf8');

describe('golden output of examples/tools.gram', () => {
  const r = parseSpecifications(text, { filename: 'examples/tools.gram' });
  if (r._tag === 'Left') throw new Error(formatDiagnostics(r.left, text));
  const specs = r.right;

  it('argument and result schemas', () => {
    const out: Record<string, unknown> = {};
    for (const t of specs.tools) out[t.name] = { schema: t.schema, outputSchema: t.outputSchema };
    golden('schemas/tools.json', `${JSON.stringify(out, null, 2)}\n`);
  });

  it('the JSON form of the whole file', () => {
    golden('json/tools.json', `${JSON.stringify(encodeSpecifications(specs), null, 2)}\n`);
  });
});
