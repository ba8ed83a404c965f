/**
 * Attack class (issue 18, item 6): a path parameter checked, then opened again by the program. A
 * process swapping `target.txt` between a regular file and a link to a secret outside the
 * workspace made a `sandbox: "none"` tool print the secret (15/60 calls). On the host a program
 * now gets the descriptor of what was checked (`/proc/self/fd/N`), so over N racing calls none
 * escapes; each call either reads the file inside or is refused.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bindTool, invoke, toolLibrary, type JsonObject, type Tool, type ToolResult, type ToolSpecification } from '../../src/index.js';
import { commandTool, type CommandToolConfigInput } from '../../src/entries/tools.js';
import { SECRET, workspace } from '../tools/builtin/support.js';

const spec = (params: ReadonlyArray<string>): ToolSpecification => ({
  name: 'reader',
  description: 'test tool',
  typeSignature: '',
  schema: { type: 'object', properties: Object.fromEntries(params.map((p) => [p, { type: 'string' }])), required: [], additionalProperties: false },
  outputSchema: {},
});

const hostTool = (
  ws: string,
  argv: ReadonlyArray<string>,
  params: ReadonlyArray<string>,
  extra: Partial<CommandToolConfigInput> = {},
): ((args: JsonObject) => Promise<ToolResult>) => {
  const s = spec(params);
  const config = { argv, env: ['PATH'], pathParameters: params, sandbox: 'none', output: 'text', ...extra } as CommandToolConfigInput;
  const t = commandTool(s, config, { workspace: ws, env: { PATH: '/usr/bin:/bin' } });
  if (t._tag === 'Left') throw new Error(t.left.map((d) => d.message).join('; '));
  const b = bindTool(s, toolLibrary([t.right as Tool]));
  if (b._tag === 'Left') throw new Error('bind');
  return (args) => invoke(b.right, args);
};

/** Text of a result, ok or not (an error's message and details can carry what the program printed). */
const text = (r: ToolResult): string => JSON.stringify(r);

/** Swaps `ws/target.txt` between a regular file and a link to `outside/secret.txt`, until stopped. */
const swapper = (ws: string, outside: string): { stop: () => void } => {
  const script = `while :; do ln -sfn '${path.join(outside, 'secret.txt')}' l.tmp && mv -fT l.tmp target.txt; printf before > f.tmp && mv -fT f.tmp target.txt; done`;
  const child = spawn('sh', ['-c', script], { cwd: ws, stdio: 'ignore' });
  return { stop: () => void child.kill('SIGKILL') };
};

const CALLS = 100;

describe("attack: a link swapped between the check and the program's open", () => {
  it(`a sandbox: "none" tool reading {file} prints nothing from outside over ${CALLS} racing calls`, async () => {
    const s = workspace();
    writeFileSync(path.join(s.ws, 'target.txt'), 'before');
    // the program opens its argument 20 ms after the check: a wide window for the swapper
    const read = hostTool(s.ws, ['sh', '-c', 'sleep 0.02; cat "$1"', 'sh', '{file}'], ['file']);
    const swap = swapper(s.ws, s.outside);
    let escapes = 0;
    let reads = 0;
    try {
      for (let i = 0; i < CALLS; i++) {
        const r = await read({ file: 'target.txt' });
        if (text(r).includes(SECRET)) escapes += 1;
        if (r.ok) reads += 1;
      }
    } finally {
      swap.stop();
    }
    expect(escapes, `${escapes}/${CALLS} calls printed the secret`).toBe(0);
    // the tool still works while racing: some calls read the file inside
    expect(reads).toBeGreaterThan(0);
  });

  it('on the host, files, directories and new files are handed over opened; other kinds are refused', async () => {
    const s = workspace();
    s.file('notes/a.txt', 'hello');
    expect(await hostTool(s.ws, ['cat', '{file}'], ['file'])({ file: 'notes/a.txt' })).toMatchObject({ ok: true, value: { output: 'hello' } });
    const listed = await hostTool(s.ws, ['ls', '{dir}'], ['dir'])({ dir: 'notes' });
    expect(listed).toMatchObject({ ok: true, value: { output: 'a.txt\n' } });
    const wrote = await hostTool(s.ws, ['sh', '-c', 'printf new > "$1"', 'sh', '{file}'], ['file'])({ file: 'notes/b.txt' });
    expect(wrote.ok).toBe(true);
    expect(await hostTool(s.ws, ['cat', '{file}'], ['file'])({ file: 'notes/b.txt' })).toMatchObject({ ok: true, value: { output: 'new' } });
    mkdirSync(path.join(s.ws, 'fifo-dir'));
    execFileSync('mkfifo', [path.join(s.ws, 'fifo-dir', 'p')]);
    const fifo = await hostTool(s.ws, ['cat', '{file}'], ['file'])({ file: 'fifo-dir/p' });
    expect(fifo.ok ? 'ok' : fifo.error.reason).toBe('COMMAND_INVALID_PATH');
    const deep = await hostTool(s.ws, ['touch', '{file}'], ['file'])({ file: 'no/such/dir/x' });
    expect(deep.ok ? 'ok' : deep.error.reason).toBe('COMMAND_INVALID_PATH');
  });
});
