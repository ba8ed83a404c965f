/**
 * Attack class (issue 18, item 7): the sensitive-file rule bypassed by renaming. `move_file .aws →
 * renamed-.aws` needed no approval, then `read_file renamed-.aws/credentials` returned the secret
 * (same for `.kube`, `.docker`, and for any parent of them). Moving a protected file or any of its
 * parents is now judged by the rule, and the rule recognises credentials by what they hold:
 * renamed, copied or hard-linked, they are refused by `read_file` and skipped by `text_search`.
 */
import { existsSync, linkSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PolicyCodes, checkRules, defaultRuleEngine } from '../../src/entries/policy.js';
import { caller, code, value, workspace } from '../tools/builtin/support.js';

const AWS = '[default]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEYab\n';
const KUBE =
  'apiVersion: v1\nkind: Config\nclusters:\n- cluster:\n    server: https://k8s.example\n  name: prod\nusers:\n- name: admin\n  user:\n    token: eyJhbGciOiJSUzI1NiJ9.secret\n';
const DOCKER = '{\n  "auths": {\n    "registry.example": { "auth": "dXNlcjpzM2NyM3Q=" }\n  }\n}\n';
const KEY = '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n-----END OPENSSH PRIVATE KEY-----\n';

const CREDENTIALS: ReadonlyArray<readonly [string, string, string]> = [
  ['.aws', 'credentials', AWS],
  ['.kube', 'config', KUBE],
  ['.docker', 'config.json', DOCKER],
];

describe('attack: credentials carried past the rule by a rename', () => {
  for (const [dir, file, content] of CREDENTIALS) {
    it(`move_file ${dir} (or a parent of it) is refused, and the file is refused by what it holds`, async () => {
      const s = workspace();
      s.file(`${dir}/${file}`, content);
      s.file(`home/${dir}/${file}`, content);
      const call = caller({ workspace: s.ws });
      const moved = await call('move_file', { from: dir, to: `renamed-${dir}` });
      expect(code(moved)).toBe(PolicyCodes.DENIED);
      const parent = await call('move_file', { from: 'home', to: 'elsewhere' });
      expect(code(parent)).toBe(PolicyCodes.DENIED);
      expect(existsSync(path.join(s.ws, dir, file))).toBe(true);
      expect(existsSync(path.join(s.ws, 'home', dir, file))).toBe(true);
      // the same content under another name, and through a hard link, is still refused
      s.file(`backup/${file}.txt`, content);
      linkSync(path.join(s.ws, dir, file), path.join(s.ws, 'hardlink'));
      for (const p of [`backup/${file}.txt`, 'hardlink']) {
        const r = await call('read_file', { path: p });
        expect(code(r), p).toBe(PolicyCodes.DENIED);
      }
      // the shell meets the same judgment on the files its words name
      for (const command of ['cat hardlink', `wc -c < backup/${file}.txt`, `cd backup && cat ${file}.txt`]) {
        const r = await call('shell', { command });
        expect(r.ok ? 'ok' : r.error.reason, command).toBe(PolicyCodes.DENIED);
      }
      const found = value<{ matches: ReadonlyArray<{ path: string }> }>(await call('text_search', { pattern: '.', path: '.', includeHidden: true }));
      expect(found.matches.map((m) => m.path).filter((p) => p.startsWith('backup') || p === 'hardlink')).toEqual([]);
    });
  }

  it('a private key is recognised under any name; the shell may not move the directories either', async () => {
    const s = workspace();
    s.file('deploy/key.pem', KEY);
    s.file('deploy/auth', 'machine github.com login bob password s3cr3t-token\n');
    s.file('deploy/hashes', 'root:$6$saltsalt$0123456789abcdefghijklmnopqrstuv:19000:0:99999:7:::\n');
    const call = caller({ workspace: s.ws });
    for (const p of ['deploy/key.pem', 'deploy/auth', 'deploy/hashes']) expect(code(await call('read_file', { path: p })), p).toBe(PolicyCodes.DENIED);
    for (const command of ['mv .aws renamed', 'cp -r ~/.kube k', 'tar cf x.tar .docker'])
      expect(
        checkRules(defaultRuleEngine, 'shell', { command }).map((v) => v.rule),
        command,
      ).toContain('no-sensitive-files');
  });

  it('files that only talk about credentials, and ordinary moves, are left alone', async () => {
    const s = workspace();
    s.file(
      'README.md',
      'Put aws_access_key_id and aws_secret_access_key in ~/.aws/credentials; kind: Config goes in a kubeconfig.\nA docker "auths" map.\nThe machine learning model asks for a password twice.\n',
    );
    s.file('src/a/b.txt', 'x');
    const call = caller({ workspace: s.ws });
    expect(value<{ content: string }>(await call('read_file', { path: 'README.md' })).content).toContain('aws_access_key_id');
    expect((await call('move_file', { from: 'src', to: 'lib' })).ok).toBe(true);
    expect(existsSync(path.join(s.ws, 'lib', 'a', 'b.txt'))).toBe(true);
  });
});
