/**
 * The language server's memo of compiled tools (src/specification/compile-cache.ts): loading a document
 * edited step by step with the memo gives exactly what loading each text afresh gives (the
 * specifications, their signatures' places, every diagnostic at its place), whatever the edits:
 * a type broken and fixed, lines inserted above, tools removed, duplicated or referring to others.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CompileCache } from '../../src/specification/compile-cache.js';
import { loadSpecifications, loadSpecificationsWith } from '../../src/specification/load.js';

const tool = (i: number, type: string): string =>
  `[tool_${i}:Tool {description: "Tool ${i}"} |\n  (city::${type} {minLength: 1})==>(days::Integer {range: 1..7, default: 1})==>(::String)\n]`;
/** A tool whose `(city)` refers to the definition of another signature. */
const referring = (i: number): string => `[ref_${i}:Tool {description: "Refers"} | (city)==>(::String)]`;

const edit = fc.oneof(
  fc.record({ kind: fc.constant('type' as const), at: fc.nat(), type: fc.constantFrom('String', 'Strin', 'Integer', 'Text') }),
  fc.record({
    kind: fc.constant('insert' as const),
    line: fc.constantFrom('// a comment', '', '[x:Tools {description: "near miss"} | (a::String)==>(::String)]'),
  }),
  fc.record({ kind: fc.constant('remove' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('refer' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('agent' as const), at: fc.nat() }),
);

describe('the compile cache', () => {
  it('loading with the memo, edit after edit, equals loading afresh', () => {
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 12 }), (edits) => {
        let blocks = [0, 1, 2, 3].map((i) => tool(i, 'String'));
        const cache = new CompileCache();
        for (const e of edits) {
          const at = 'at' in e ? e.at % Math.max(1, blocks.length) : 0;
          if (e.kind === 'type') blocks[at] = tool(at + 100, e.type);
          else if (e.kind === 'insert') blocks = [e.line, ...blocks];
          else if (e.kind === 'remove') blocks = blocks.filter((_, k) => k !== at);
          else if (e.kind === 'duplicate') blocks = [...blocks, blocks[at] ?? ''];
          else if (e.kind === 'refer') blocks = [...blocks, referring(at)];
          else blocks = [...blocks, `[agent_${at}:Agent {description: "A", instruction: "Use them"} | tool_${at}, tool_1]`];
          const text = blocks.join('\n');
          const sources = [{ text, filename: 'doc.gram' }];
          expect(loadSpecificationsWith(sources, {}, cache)).toEqual(loadSpecifications(sources));
        }
      }),
      { numRuns: 60 },
    );
  });

  it('keeps only the tools of the last text', () => {
    const cache = new CompileCache();
    const text = [tool(0, 'String'), tool(1, 'String')].join('\n');
    loadSpecificationsWith([{ text }], {}, cache);
    loadSpecificationsWith([{ text: tool(2, 'String') }], {}, cache);
    expect(cache.get(`\u0000${tool(0, 'String')}`)).toBeUndefined();
    expect(loadSpecificationsWith([{ text }], {}, cache)).toEqual(loadSpecifications([{ text }]));
  });
});
