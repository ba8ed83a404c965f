/**
 * Attack class: approvals judged on a state the turn itself changes. The calls of one turn used to
 * be judged all at once before any ran, so `move_file a→b` (b free: no approval needed) and
 * `write_file b` (b free: no approval needed) destroyed a's content while every approval was
 * refused. Calls that change state now run one at a time, each judged when it starts. Also the
 * bound on calls per turn.
 */
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createTool, runAgent, ToolCodes, toolLibrary, type AgentSpecification, type ToolSpecification } from '../../src/index.js';
import { builtinLibrary, builtinSpecifications } from '../../src/entries/builtins.js';
import { defaultRuleEngine, denyAll, PolicyCodes } from '../../src/entries/policy.js';
import { scriptedModel } from '../../src/entries/testing.js';
import { workspace } from '../tools/builtin/support.js';

const agent: AgentSpecification = {
  name: 'files',
  description: 'moves and writes files',
  instruction: 'Do as asked.',
  tools: builtinSpecifications().filter((s) => ['move_file', 'write_file', 'read_file', 'shell', 'list_directory'].includes(s.name)),
};

describe('attack: approval races within one turn', () => {
  it('move_file a→b then write_file b never destroys a, 30 runs of 30, every approval refused', async () => {
    for (let run = 0; run < 30; run++) {
      const s = workspace();
      s.file('a.txt', `precious ${run}`);
      const model = scriptedModel([
        {
          toolCalls: [
            { id: 'm', name: 'move_file', arguments: { from: 'a.txt', to: 'b.txt' } },
            { id: 'w', name: 'write_file', arguments: { path: 'b.txt', content: 'clobbered' } },
          ],
        },
        { text: 'done' },
      ]);
      const r = await runAgent(agent, builtinLibrary({ workspace: s.ws }), 'move and write', {
        model,
        approve: denyAll,
        policies: { rules: defaultRuleEngine, permissions: { maxSafetyLevel: 'medium' } },
      });
      expect(r.ok).toBe(true);
      const survivors = ['a.txt', 'b.txt']
        .map((f) => path.join(s.ws, f))
        .filter(existsSync)
        .map((f) => readFileSync(f, 'utf8'));
      expect(survivors, `run ${run}`).toContain(`precious ${run}`);
      const used = r.ok ? r.value.toolsUsed : [];
      expect(used.map((u) => [u.id, u.result.ok ? 'ok' : u.result.error.reason])).toEqual([
        ['m', 'ok'],
        ['w', PolicyCodes.DENIED],
      ]);
    }
  });

  it('a turn runs at most maxToolCallsPerTurn calls; the rest answer TOOL_TOO_MANY_CALLS without running', async () => {
    const s = workspace();
    const calls = Array.from({ length: 60 }, (_, i) => ({ id: `c${i}`, name: 'write_file', arguments: { path: `f${i}.txt`, content: 'x' } }));
    const model = scriptedModel([{ toolCalls: calls }, { text: 'done' }]);
    const r = await runAgent(agent, builtinLibrary({ workspace: s.ws }), 'write many', { model, maxToolCallsPerTurn: 8 });
    expect(r.ok).toBe(true);
    const used = r.ok ? r.value.toolsUsed : [];
    expect(used).toHaveLength(60);
    expect(used.slice(0, 8).every((u) => u.result.ok)).toBe(true);
    expect(new Set(used.slice(8).map((u) => (u.result.ok ? 'ok' : u.result.error.reason)))).toEqual(new Set([ToolCodes.TOO_MANY_CALLS]));
    expect(existsSync(path.join(s.ws, 'f7.txt'))).toBe(true);
    expect(existsSync(path.join(s.ws, 'f8.txt'))).toBe(false);
    // the default is 16
    const again = await runAgent(agent, builtinLibrary({ workspace: workspace().ws }), 'write many', {
      model: scriptedModel([{ toolCalls: calls }, { text: 'done' }]),
    });
    expect(again.ok && again.value.toolsUsed.filter((u) => u.result.ok).length).toBe(16);
  });

  it('calls that run programs never overlap: 10 shell calls of one turn run one at a time', async () => {
    const s = workspace();
    // each call appends "start" then "end" to one log; overlapping calls would interleave them
    const calls = Array.from({ length: 10 }, (_, i) => ({
      id: `s${i}`,
      name: 'shell',
      arguments: { command: `echo start >> log; sleep 0.05; echo end >> log` },
    }));
    const model = scriptedModel([{ toolCalls: calls }, { text: 'done' }]);
    const r = await runAgent(agent, builtinLibrary({ workspace: s.ws, sandbox: { mode: 'none' } }), 'run', { model, maxToolCallsPerTurn: 10 });
    expect(r.ok).toBe(true);
    expect(readFileSync(path.join(s.ws, 'log'), 'utf8')).toBe('start\nend\n'.repeat(10));
  });

  it('law: a call that writes overlaps no other call, at most `toolConcurrency` run at once, results keep the order asked', async () => {
    const spec = (name: string): ToolSpecification => ({
      name,
      description: `${name} tool`,
      typeSignature: '',
      schema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'], additionalProperties: false },
      outputSchema: {},
    });
    const tools = [spec('reader'), spec('writer')];
    const lawAgent: AgentSpecification = { name: 'law', description: 'law', instruction: 'go', tools };
    await fc.assert(
      fc.asyncProperty(fc.array(fc.boolean(), { minLength: 1, maxLength: 12 }), fc.integer({ min: 1, max: 5 }), async (writes, width) => {
        let running = 0;
        let most = 0;
        const overlaps: string[] = [];
        const active = new Set<string>();
        const body =
          (kind: string) =>
          async ({ n }: { n: number }) => {
            const me = `${kind}${n}`;
            if (kind === 'writer' && active.size > 0) overlaps.push(`${me} with ${[...active].join(',')}`);
            for (const a of active) if (a.startsWith('writer')) overlaps.push(`${a} with ${me}`);
            active.add(me);
            running++;
            most = Math.max(most, running);
            await new Promise((r) => setTimeout(r, 1 + (n % 3)));
            running--;
            active.delete(me);
            return n;
          };
        const library = toolLibrary([
          createTool('reader', 'reader tool', tools[0]!.schema, body('reader')),
          createTool('writer', 'writer tool', tools[1]!.schema, body('writer'), { annotations: { permissions: ['fs:write'] } }),
        ]);
        const calls = writes.map((w, n) => ({ id: `c${n}`, name: w ? 'writer' : 'reader', arguments: { n } }));
        const r = await runAgent(lawAgent, library, 'go', { model: scriptedModel([{ toolCalls: calls }, { text: 'done' }]), toolConcurrency: width });
        expect(r.ok).toBe(true);
        expect(overlaps).toEqual([]);
        expect(most).toBeLessThanOrEqual(width);
        expect(r.ok && r.value.toolsUsed.map((u) => (u.result.ok ? u.result.value : u.result.error.reason))).toEqual(writes.map((_, n) => n));
      }),
      { numRuns: 40 },
    );
  });
});
