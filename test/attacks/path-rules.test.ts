/**
 * Attack class: path rules bypassed by what a tool reads rather than what its arguments say. A
 * search with no path (or over a directory) walks into `.env` and `.ssh`; a link, or a directory
 * link, leads `read_file` to a file the rules refuse by name. The rules must judge the files really
 * read.
 */
import { symlinkSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { addRule, defaultRuleEngine, forbiddenPathsRule, PolicyCodes } from '../../src/entries/policy.js';
import { caller, code, value, workspace } from '../tools/builtin/support.js';

const KEY = 'sk-live-0123456789abcdef';
const PRIVATE = 'PRIVATE-KEY-MATERIAL-9f8e7d';

const setup = () => {
  const s = workspace();
  s.file('config/.env', `API_KEY=${KEY}\n`);
  s.file('.ssh/id_rsa', `-----BEGIN OPENSSH PRIVATE KEY-----\n${PRIVATE}\n`);
  s.file('keys/id_ed25519', `${PRIVATE}\n`);
  s.file('notes/readme.md', 'nothing secret: KEY material lives elsewhere\n');
  symlinkSync('../config/.env', path.join(s.ws, 'notes', 'env-link.txt'));
  symlinkSync('config', path.join(s.ws, 'cfg'));
  symlinkSync(path.join(s.ws, '.ssh', 'id_rsa'), path.join(s.ws, 'key.txt'));
  const rules = addRule(defaultRuleEngine, forbiddenPathsRule({ name: 'no-env-files', paths: ['.env', '.env.*'] }));
  return { s, call: caller({ workspace: s.ws, rules }) };
};

const leaks = (r: unknown): boolean => JSON.stringify(r).includes(KEY) || JSON.stringify(r).includes(PRIVATE);

describe('attack: path rules bypassed through walks and links', () => {
  it('text_search over the whole workspace (hidden files included) returns no line of a refused file', async () => {
    const { call } = setup();
    for (const args of [
      { pattern: 'KEY|PRIVATE|sk-live' },
      { pattern: 'KEY|PRIVATE|sk-live', includeHidden: true },
      { pattern: '.', includeHidden: true, path: '.' },
      { pattern: 'API_KEY', includeHidden: true, path: 'config' },
      { pattern: 'API_KEY', includeHidden: true, path: 'cfg' },
      { pattern: 'PRIVATE', includeHidden: true, path: 'keys' },
    ]) {
      const r = await call('text_search', args);
      expect(leaks(r), JSON.stringify(args)).toBe(false);
    }
    // the ordinary file is still searched
    const ok = value<{ matches: Array<{ path: string }> }>(await call('text_search', { pattern: 'KEY material', includeHidden: true }));
    expect(ok.matches.map((m) => m.path)).toEqual(['notes/readme.md']);
  });

  it('read_file, json_parse and text_search through a link meet the rules of the file linked to', async () => {
    const { call } = setup();
    for (const [tool, args] of [
      ['read_file', { path: 'notes/env-link.txt' }],
      ['read_file', { path: 'cfg/.env' }],
      ['read_file', { path: 'key.txt' }],
      ['json_parse', { path: 'notes/env-link.txt' }],
      ['text_search', { pattern: 'API', path: 'notes/env-link.txt' }],
      ['text_search', { pattern: 'PRIVATE', path: 'key.txt' }],
    ] as const) {
      const r = await call(tool, args);
      expect(leaks(r), `${tool} ${JSON.stringify(args)}`).toBe(false);
      expect(code(r), `${tool} ${JSON.stringify(args)}`).toBe(PolicyCodes.DENIED);
    }
    // writing through the link is judged on its target too
    expect(code(await call('write_file', { path: 'notes/env-link.txt', content: 'API_KEY=attacker' }))).toBe(PolicyCodes.DENIED);
    const denied = await call('read_file', { path: 'notes/env-link.txt' });
    expect(denied.ok ? '' : denied.error.message).toContain('no-env-files');
    expect(denied.ok ? '' : denied.error.message).toContain('config/.env');
  });
});
