/**
 * Attack class: symbolic links that carry a command tool's path argument out of the workspace.
 * A dangling link pointing outside (it looks like "a new file"), a link in a parent directory, a
 * link planted by the sandboxed `shell`, and a link swapped in between the check and the
 * program's write. Nothing outside may change, and no program planted in the workspace may run
 * through an empty `PATH` entry.
 */
import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bindTool, invoke, toolLibrary, type JsonObject, type Tool, type ToolResult, type ToolSpecification } from '../../src/index.js';
import { probeSandbox } from '../../src/entries/builtins.js';
import { emptyRuleEngine } from '../../src/entries/policy.js';
import { CommandCodes, commandTool, type CommandToolConfigInput } from '../../src/entries/tools.js';
import { findBwrap } from '../../src/tools/builtin/sandbox.js';
import { caller, workspace } from '../tools/builtin/support.js';

const bwrap = await findBwrap(undefined);
const sandboxWorks = bwrap !== undefined && (await probeSandbox(bwrap, false, workspace().ws)).ok;

const spec = (name: string, properties: JsonObject): ToolSpecification => ({
  name,
  description: `test tool ${name}`,
  typeSignature: '',
  schema: { type: 'object', properties, required: [], additionalProperties: false },
  outputSchema: {},
});
const FILE = spec('write_to', { file: { type: 'string' }, text: { type: 'string' } });

/** A tool that writes its stdin to `{file}` (a path parameter), after `delay` seconds. */
const writer = (
  ws: string,
  sandbox: 'auto' | 'none',
  delay = 0,
  env: Readonly<Record<string, string>> = { PATH: '/usr/bin:/bin' },
): ((args: JsonObject) => Promise<ToolResult>) => {
  const config: CommandToolConfigInput = {
    argv: ['sh', '-c', `sleep ${delay}; cat > "$1"`, 'sh', '{file}'],
    stdin: 'text',
    env: ['PATH'],
    pathParameters: ['file'],
    sandbox,
  };
  const t = commandTool(FILE, config, { workspace: ws, env });
  if (t._tag === 'Left') throw new Error(t.left.map((d) => d.message).join('; '));
  const b = bindTool(FILE, toolLibrary([t.right as Tool]));
  if (b._tag === 'Left') throw new Error('bind');
  const bound = b.right;
  return (args) => invoke(bound, args);
};

describe('attack: symbolic links through command tools', () => {
  for (const mode of ['none', 'auto'] as const) {
    it(`a dangling link, or a link in a parent directory, pointing outside is refused (${mode === 'none' ? 'on the host' : 'sandboxed'})`, async () => {
      const s = workspace();
      symlinkSync(path.join(s.outside, 'planted.txt'), path.join(s.ws, 'dangling'));
      symlinkSync(path.join(s.outside, 'no-such-dir'), path.join(s.ws, 'dangling-dir'));
      symlinkSync(s.outside, path.join(s.ws, 'dir-link'));
      mkdirSync(path.join(s.ws, 'sub'));
      symlinkSync('../dangling', path.join(s.ws, 'sub', 'chain'));
      const write = writer(s.ws, mode);
      for (const file of ['dangling', 'dangling-dir/x.txt', 'dir-link/x.txt', 'sub/chain', 'sub/../dangling', `${s.ws}/dangling`]) {
        const r = await write({ file, text: 'pwned' });
        expect(r.ok ? 'ok' : r.error.reason, file).toBe(CommandCodes.INVALID_PATH);
      }
      // an ordinary new file and a link to a file inside still work
      symlinkSync('inside.txt', path.join(s.ws, 'good-link'));
      expect((await write({ file: 'good-link', text: 'fine' })).ok).toBe(true);
      expect((await write({ file: 'sub/new.txt', text: 'fine' })).ok).toBe(true);
      expect(readdirSync(s.outside)).toEqual(['secret.txt']);
    });
  }

  it.skipIf(!sandboxWorks)('a dangling link planted by the sandboxed shell cannot be written through', async () => {
    const s = workspace();
    const shell = caller({ workspace: s.ws, rules: emptyRuleEngine });
    const planted = await shell('shell', { command: `ln -s ${path.join(s.outside, 'planted.txt')} out.txt && ln -s ${path.join(s.outside, 'made')} madedir` });
    expect(planted.ok).toBe(true);
    const write = writer(s.ws, 'auto');
    for (const file of ['out.txt', 'madedir/x']) expect((await write({ file, text: 'pwned' })).ok, file).toBe(false);
    expect(readdirSync(s.outside)).toEqual(['secret.txt']);
  });

  it.skipIf(!sandboxWorks)('a link swapped in between the check and the write lands nowhere outside (sandboxed)', async () => {
    for (let i = 0; i < 5; i++) {
      const s = workspace();
      const target = path.join(s.ws, 'target.txt');
      writeFileSync(target, 'before');
      const write = writer(s.ws, 'auto', 0.4);
      const pending = write({ file: 'target.txt', text: 'pwned' });
      // the check has passed on a regular file; now it becomes a link to a file outside
      await new Promise((r) => setTimeout(r, 150));
      unlinkSync(target);
      symlinkSync(path.join(s.outside, 'swapped.txt'), target);
      await pending;
      expect(readdirSync(s.outside)).toEqual(['secret.txt']);
    }
  });

  it('an empty or relative PATH entry never runs a program planted in the workspace', async () => {
    const s = workspace();
    const marker = path.join(s.outside, 'ran');
    for (const name of ['sh', 'cat', 'sleep']) writeFileSync(path.join(s.ws, name), `#!/bin/sh\ntouch ${marker}\n`, { mode: 0o755 });
    for (const PATH of ['/nonexistent::/usr/bin:/bin', ':/usr/bin:/bin', '/usr/bin:/bin:', '.:/usr/bin:/bin', 'bin:/usr/bin:/bin']) {
      for (const mode of ['none', 'auto'] as const) {
        const r = await writer(s.ws, mode, 0, { PATH })({ file: 'out.txt', text: 'x' });
        expect(r.ok, `${PATH} ${mode}`).toBe(true);
        expect(existsSync(marker), `${PATH} ${mode}`).toBe(false);
      }
    }
    rmSync(marker, { force: true });
  });
});
