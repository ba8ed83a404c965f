/**
 * Attack corpus: options smuggled through argv templates (issue 13, item 8). The leading-dash check
 * looked at the first placeholder of an element only: `"{a}{b}"` with a = "" and b = "--output=…"
 * passed an option to the program. The rendered element is checked now.
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { ToolCodes, bindTool, invoke, toolLibrary, type JsonObject, type ToolResult, type ToolSpecification } from '../../src/index.js';
import { commandTool } from '../../src/entries/tools.js';

const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'gramkit-argv-')));
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

const text = { type: 'string' } as const;
const spec: ToolSpecification = {
  name: 'echo_args',
  description: 'prints its arguments',
  typeSignature: '',
  schema: { type: 'object', properties: { a: text, b: text, c: text }, required: ['a', 'b'], additionalProperties: false } as JsonObject,
  outputSchema: {},
};

const tool = (argv: ReadonlyArray<unknown>) => {
  const t = commandTool(spec, { argv: argv as never, output: 'text', allowLeadingDash: false, env: ['PATH'] }, { workspace, env: { PATH: '/usr/bin:/bin' } });
  if (t._tag === 'Left') throw new Error(JSON.stringify(t.left));
  const b = bindTool(spec, toolLibrary([t.right]));
  if (b._tag === 'Left') throw new Error(JSON.stringify(b.left));
  return b.right;
};

const printf = tool(['printf', '%s\\0', 'first', '{a}{b}', '{c}']);
const received = (r: ToolResult): string[] => {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return (r.value as { output: string }).output.split('\0').slice(1, -1);
};

describe('attack: a leading dash assembled from several placeholders', () => {
  it('"{a}{b}" with a = "" and b = "--output=/etc/x" is refused, naming b', async () => {
    const r = await invoke(printf, { a: '', b: '--output=/etc/x' });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.reason).toBe(ToolCodes.INVALID_ARGUMENTS);
      expect(r.error.message).toContain('"b"');
    }
  });

  it('law: no argument the program receives from values alone starts with "-"', async () => {
    const piece = fc.oneof(
      fc.constant(''),
      fc.constant('-'),
      fc.constant('--x'),
      fc.string({ maxLength: 6 }).filter((s) => !s.includes('\0')),
    );
    await fc.assert(
      fc.asyncProperty(piece, piece, piece, async (a, b, c) => {
        const r = await invoke(printf, { a, b, c });
        if (r.ok) for (const arg of received(r)) expect(arg.startsWith('-')).toBe(false);
        else expect(r.error.reason).toBe(ToolCodes.INVALID_ARGUMENTS);
        expect(r.ok).toBe(!`${a}${b}`.startsWith('-') && !c.startsWith('-'));
      }),
      { numRuns: 60 },
    );
  });

  it('a dash the template writes itself stays allowed ("--name={a}{b}")', async () => {
    const t = tool(['printf', '%s\\0', 'first', '--name={a}{b}']);
    expect(received(await invoke(t, { a: '', b: '-x' }))).toEqual(['--name=-x']);
  });
});
