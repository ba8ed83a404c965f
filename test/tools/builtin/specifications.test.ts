import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  BUILTINS_GRAM,
  BUILTIN_TOOL_NAMES,
  builtinLibrary,
  builtinSpecification,
  builtinSpecifications,
  builtinTools,
  isBuiltinToolName,
} from '../../../src/entries/builtins.js';
import { bindAll } from '../../../src/index.js';
import { parseSpecifications } from '../../../src/specification/load.js';
import { GRAM_PATH, renderGramModule, MODULE_PATH } from './sync-gram.js';

import { expectGolden } from '../../support/golden.js';

describe('builtins.gram', () => {
  it('the bundled module is in sync with the .gram file (run `npx tsx test/tools/builtin/sync-gram.ts` after editing it)', () => {
    expect(readFileSync(MODULE_PATH, 'utf8')).toBe(renderGramModule(readFileSync(GRAM_PATH, 'utf8')));
    expect(BUILTINS_GRAM).toBe(readFileSync(GRAM_PATH, 'utf8'));
  });
  it('loads without any diagnostic, warnings included', () => {
    const r = parseSpecifications(BUILTINS_GRAM, { filename: 'builtins.gram' });
    expect(r._tag).toBe('Right');
    if (r._tag === 'Right') expect(r.right.tools.map((t) => t.name)).toEqual([...BUILTIN_TOOL_NAMES]);
  });
  it('the specifications, as emitted JSON Schema (a golden file per tool)', () => {
    for (const s of builtinSpecifications()) {
      expectGolden(`builtin/golden/specifications/${s.name}.json`, {
        name: s.name,
        description: s.description,
        typeSignature: s.typeSignature,
        schema: s.schema,
        outputSchema: s.outputSchema,
      });
    }
  });
  it('every tool: a description a model can use, closed arguments, every parameter described', () => {
    for (const s of builtinSpecifications()) {
      expect(s.description.length).toBeGreaterThan(60);
      expect(s.schema['type']).toBe('object');
      expect(s.schema['additionalProperties']).toBe(false);
      for (const [name, p] of Object.entries(s.schema['properties'] as Record<string, { description?: string }>)) {
        expect(p.description, `${s.name}.${name}`).toBeTruthy();
      }
    }
  });
  it('accessors', () => {
    expect(builtinSpecification('read_file')?.schema['required']).toEqual(['path']);
    expect(builtinSpecification('nope')).toBeUndefined();
    expect(isBuiltinToolName('shell')).toBe(true);
    expect(isBuiltinToolName('sh')).toBe(false);
    expect(builtinSpecifications()).toBe(builtinSpecifications());
  });
});

describe('builtinTools and builtinLibrary', () => {
  it('every specification binds to the library', () => {
    const r = bindAll(builtinSpecifications(), builtinLibrary({ workspace: '.' }));
    expect(r._tag).toBe('Right');
  });
  it('annotations: permissions, safety levels, approvals (golden file)', () => {
    expectGolden(
      'builtin/golden/annotations.json',
      Object.fromEntries(
        builtinTools({ workspace: '.' }).map((t) => [
          t.name,
          {
            permissions: t.annotations?.permissions,
            safetyLevel: t.annotations?.safetyLevel,
            approval: typeof t.annotations?.approval === 'function' ? 'predicate' : t.annotations?.approval,
            timeoutMs: t.limits?.timeoutMs,
          },
        ]),
      ),
    );
  });
  it('a tool says it is not serializable', () => {
    const [t] = builtinTools({ workspace: '.' });
    expect(JSON.parse(JSON.stringify(t))).toMatchObject({ code: 'TOOL_NOT_SERIALIZABLE' });
  });
});
