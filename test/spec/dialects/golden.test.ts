/**
 * Golden files: each representative schema of test/fixtures/dialects/schemas exported to every
 * dialect, with the names map and the diagnostics, pinned in test/fixtures/dialects/golden.
 * One golden per case and dialect (test/fixtures/dialects/golden/<case>/<dialect>.json).
 * Regenerate with `UPDATE_GOLDEN=1 npx vitest run test/spec/dialects` and review the diff.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkExportedTool, DIALECTS, exportTools, type ExportableTool } from '../../../src/entries/providers.js';
import { expectGolden } from '../../support/golden.js';

const root = join(import.meta.dirname, '../../fixtures/dialects');
const cases = readdirSync(join(root, 'schemas'))
  .filter((f) => f.endsWith('.json'))
  .sort();

const exportAll = (tools: ReadonlyArray<ExportableTool>) =>
  Object.fromEntries(
    DIALECTS.map((d) => {
      const e = exportTools(tools, d);
      return [
        d,
        {
          tools: e.tools,
          names: Object.fromEntries(e.names),
          diagnostics: e.diagnostics.map((x) => ({ severity: x.severity, code: x.code, message: x.message })),
        },
      ];
    }),
  );

describe('dialect golden files', () => {
  it('has cases', () => expect(cases.length).toBeGreaterThanOrEqual(10));
  for (const file of cases) {
    it(file, () => {
      const input = JSON.parse(readFileSync(join(root, 'schemas', file), 'utf8')) as { tools: ExportableTool[] };
      const actual = exportAll(input.tools);
      for (const [dialect, exported] of Object.entries(actual)) expectGolden(`dialects/golden/${file.replace(/\.json$/, '')}/${dialect}.json`, exported);
    });
    it(`${file}: every exported definition obeys its provider's rules`, () => {
      const input = JSON.parse(readFileSync(join(root, 'schemas', file), 'utf8')) as { tools: ExportableTool[] };
      for (const d of DIALECTS) {
        for (const t of exportTools(input.tools, d).tools) expect(checkExportedTool(d, t), `${d}: ${JSON.stringify(t)}`).toEqual([]);
      }
    });
  }
  it('is deterministic: the same tools give the same bytes', () => {
    for (const file of cases) {
      const input = JSON.parse(readFileSync(join(root, 'schemas', file), 'utf8')) as { tools: ExportableTool[] };
      expect(JSON.stringify(exportAll(input.tools))).toBe(JSON.stringify(exportAll(structuredClone(input.tools))));
    }
  });
});
