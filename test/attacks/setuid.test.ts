/**
 * Attack class: setuid and setgid files made in the sandbox. bubblewrap maps the sandbox's user to
 * the host user that started it; when that is root, a setuid copy of a shell left in the workspace
 * would be a root shell for every local user. Every way a program sets those bits is tried, from
 * `shell` and from `run_code`; no file of the workspace may carry them afterwards.
 */
import { lstatSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { probeSandbox } from '../../src/entries/builtins.js';
import { emptyRuleEngine } from '../../src/entries/policy.js';
import { findBwrap } from '../../src/tools/builtin/sandbox.js';
import { caller, value, workspace } from '../tools/builtin/support.js';

const bwrap = await findBwrap(undefined);
const sandboxWorks = bwrap !== undefined && (await probeSandbox(bwrap, false, workspace().ws)).ok;

/** Every file and directory under `dir` whose mode has S_ISUID or S_ISGID, with its mode. */
const privileged = (dir: string): string[] => {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    const st = lstatSync(p);
    if ((st.mode & 0o6000) !== 0) out.push(`${name} ${(st.mode & 0o7777).toString(8)} uid=${st.uid}`);
    if (st.isDirectory()) out.push(...privileged(p).map((x) => `${name}/${x}`));
  }
  return out;
};

const SHELL_ATTACKS = [
  'cp /bin/bash sh1 && chmod 4755 sh1',
  'cp /bin/bash sh2 && chmod u+s,g+s sh2',
  'install -m 6755 /bin/true sh3',
  'cp /bin/true sh4 && chmod 755 sh4 && chmod 2755 sh4',
  'mkdir -m 2777 d1',
  'mkdir d2 && chmod g+s d2',
  'cp -p /bin/true sh5 && chmod =4755 sh5',
  'tar -C /tmp -cf x.tar . 2>/dev/null; printf x > f && chmod 4755 f',
];

const PYTHON_ATTACK = `
import os, stat
attempts = [
  lambda: os.close(os.open('p1', os.O_CREAT | os.O_WRONLY, 0o4755)),
  lambda: os.close(os.open('.', os.O_TMPFILE | os.O_WRONLY, 0o4755)),
  lambda: os.close(os.open('p2', os.O_CREAT | os.O_WRONLY, 0o2755)),
  lambda: os.mkdir('p3', 0o2755),
  lambda: os.mknod('p4', stat.S_IFREG | 0o4755),
  lambda: (open('p5', 'w').close(), os.chmod('p5', 0o4755)),
  lambda: (open('p6', 'w').close(), os.chmod(os.open('p6', os.O_RDONLY), 0o6755)),
  lambda: (open('p7', 'w').close(), os.chmod('p7', 0o4755, follow_symlinks=False)),
]
for f in attempts:
  try:
    f()
  except (OSError, NotImplementedError) as e:
    print('refused', type(e).__name__, getattr(e, 'errno', None))
`;

describe.skipIf(!sandboxWorks)('attack: setuid files from the sandbox', () => {
  it('no way of setting S_ISUID or S_ISGID from shell leaves such a file in the workspace', async () => {
    const s = workspace();
    const call = caller({ workspace: s.ws, rules: emptyRuleEngine });
    for (const command of SHELL_ATTACKS) await call('shell', { command: `${command}; true` });
    expect(privileged(s.ws)).toEqual([]);
  });

  it('nor from run_code (python: open with a mode, O_TMPFILE, mkdir, mknod, chmod, fchmod)', async () => {
    const s = workspace();
    const call = caller({ workspace: s.ws, rules: emptyRuleEngine });
    const r = value<{ stdout: string; exitCode: number }>(await call('run_code', { language: 'python', code: PYTHON_ATTACK }));
    expect(r.exitCode).toBe(0);
    expect(privileged(s.ws)).toEqual([]);
    // each attempt was refused with EPERM (1), none silently changed into something else
    expect(r.stdout.split('\n').filter((l) => l.startsWith('refused')).length).toBeGreaterThanOrEqual(7);
  });

  it('ordinary modes still work: chmod +x, 0600, a directory 0700, umask', async () => {
    const s = workspace();
    const call = caller({ workspace: s.ws, rules: emptyRuleEngine });
    const r = value<{ stdout: string; exitCode: number }>(
      await call('shell', { command: 'cp /bin/true t && chmod +x t && ./t && printf k > k && chmod 600 k && mkdir -m 700 d && stat -c %a t k d' }),
    );
    expect(r.exitCode).toBe(0);
    expect(r.stdout.split('\n').filter(Boolean)).toEqual(['755', '600', '700']);
  });
});
