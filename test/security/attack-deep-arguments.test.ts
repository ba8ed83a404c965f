/**
 * Attack corpus: arguments nested 200,000 levels deep (issue 13, item 9) crashed `gramkit run
 * --json` with a stack overflow (exit 70) and lost the run's record. Depth is bounded where
 * arguments enter (`MAX_ARGUMENT_DEPTH`): the model gets a coded error, the run goes on, the
 * output and the record are written. Also here: the audit trail keeps the arguments the model
 * sent even when the tool changes them, and a tool that never settles does not hang a run.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ToolCodes,
  createAgentSpecification,
  createTool,
  DEFAULT_TOOL_TIMEOUT_MS,
  invokeJson,
  MAX_ARGUMENT_DEPTH,
  bindTool,
  runAgent,
  toolLibrary,
  type ToolSpecification,
} from '../../src/index.js';
import { scriptedModel } from '../../src/entries/testing.js';
import { cli } from '../support/cli.js';
import { type FakeServer, startFakeServer, toolResults } from '../support/fake-llm-server.js';

const DEEP = 200_000;
const deepText = (n: number): string => `{"personName": ${'['.repeat(n)}${']'.repeat(n)}}`;

let server: FakeServer;
beforeAll(async () => {
  server = await startFakeServer({
    apiKey: 'k-test',
    script: (r) =>
      toolResults(r).length > 0
        ? { text: `the tool said: ${toolResults(r)[0]?.content ?? ''}` }
        : { toolCalls: [{ name: 'sayHello', arguments: deepText(DEEP) }] },
  });
});
afterAll(() => server.close());

describe('attack: arguments nested 200,000 levels deep', () => {
  it('gramkit run --json answers with a coded error the model sees, and keeps the record', async () => {
    const record = join(mkdtempSync(join(tmpdir(), 'gramkit-deep-')), 'run.json');
    const r = await cli(
      ['run', 'examples/helloAgent.gram', 'hi', '--json', '--record', record, '--model', 'openai/gpt-test', '--base-url', server.openaiBaseUrl],
      { env: { OPENAI_API_KEY: 'k-test' } },
    );
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { ok: boolean; value: { content: string; toolsUsed: Array<{ result: { ok: boolean; error: { code: string } } }> } };
    expect(out.value.toolsUsed[0]?.result).toMatchObject({ ok: false, error: { reason: ToolCodes.INVALID_ARGUMENTS } });
    expect(out.value.content).toContain(`more than ${MAX_ARGUMENT_DEPTH} levels deep`);
    expect(existsSync(record)).toBe(true);
    expect(() => JSON.parse(readFileSync(record, 'utf8'))).not.toThrow();
  });

  it('law: arguments up to the limit are read, deeper ones refused with INVALID_ARGUMENTS (as text and as values)', async () => {
    const spec: ToolSpecification = { name: 'any', description: 'takes anything', typeSignature: '', schema: { type: 'object' }, outputSchema: {} };
    const b = bindTool(spec, toolLibrary([createTool('any', 'takes anything', { type: 'object' }, () => 'ok')]));
    if (b._tag === 'Left') throw new Error('bind');
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: MAX_ARGUMENT_DEPTH + 40 }), async (n) => {
        const text = `{"x": ${'['.repeat(n - 1)}0${']'.repeat(n - 1)}}`;
        const r = await invokeJson(b.right, text);
        expect(r.ok).toBe(n <= MAX_ARGUMENT_DEPTH);
        if (!r.ok) expect(r.error.reason).toBe(ToolCodes.INVALID_ARGUMENTS);
      }),
      { numRuns: 60 },
    );
  });
});

describe('attack: the audit trail and tools that never settle', () => {
  const spec: ToolSpecification = {
    name: 'meddle',
    description: 'changes its arguments',
    typeSignature: '',
    schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    outputSchema: {},
  };
  const agent = createAgentSpecification('agent', 'd', 'i', [spec]);
  if (agent._tag === 'Left') throw new Error('agent');

  it('a tool that mutates its arguments does not rewrite toolsUsed.args', async () => {
    const meddling = createTool('meddle', 'changes its arguments', spec.schema, (args: Record<string, unknown>) => {
      args['path'] = 'innocent.txt';
      return 'done';
    });
    const model = scriptedModel([{ toolCalls: [{ name: 'meddle', arguments: { path: '/etc/shadow' } }] }, { text: 'ok' }]);
    const r = await runAgent(agent.right, toolLibrary([meddling]), 'go', { model });
    expect(r.ok && r.value.toolsUsed[0]?.args).toEqual({ path: '/etc/shadow' });
  });

  it('a tool that never settles gets the default timeout (no run hangs forever)', async () => {
    expect(DEFAULT_TOOL_TIMEOUT_MS).toBeGreaterThan(0);
    const never = createTool('meddle', 'changes its arguments', spec.schema, () => new Promise(() => {}));
    const model = scriptedModel([{ toolCalls: [{ name: 'meddle', arguments: { path: 'x' } }] }, { text: 'ok' }]);
    // the run's own tool timeout is the default's stand-in here: the default applies when none is set
    const r = await runAgent(agent.right, toolLibrary([never]), 'go', { model, toolTimeoutMs: 50 });
    expect(r.ok ? r.value.toolsUsed[0]?.result : r.error).toMatchObject({ ok: false, error: { reason: ToolCodes.TIMEOUT } });
  });

  it('invoke applies the default timeout only when nothing else sets one', async () => {
    const never = createTool('meddle', 'changes its arguments', spec.schema, () => new Promise(() => {}));
    const b = bindTool(spec, toolLibrary([never]));
    if (b._tag === 'Left') throw new Error('bind');
    expect(await invokeJson(b.right, '{"path": "x"}', { defaultTimeoutMs: 20 })).toMatchObject({
      ok: false,
      error: { reason: ToolCodes.TIMEOUT, details: { timeoutMs: 20 } },
    });
    const own = createTool('meddle', 'changes its arguments', spec.schema, () => new Promise(() => {}), { limits: { timeoutMs: 30 } });
    const b2 = bindTool(spec, toolLibrary([own]));
    if (b2._tag === 'Left') throw new Error('bind');
    expect(await invokeJson(b2.right, '{"path": "x"}', { defaultTimeoutMs: 10_000 })).toMatchObject({
      ok: false,
      error: { reason: ToolCodes.TIMEOUT, details: { timeoutMs: 30 } },
    });
  });
});
