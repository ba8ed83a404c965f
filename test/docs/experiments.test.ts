/**
 * docs/agent.md's scored experiment: the command it shows runs, and prints the lines it shows.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';

const doc = readFileSync(new URL('../../docs/agent.md', import.meta.url), 'utf8');
const section = doc.split('### Scored, resumable experiments')[1] ?? '';

describe('docs/agent.md: scored, resumable experiments', () => {
  it('the command prints the lines the doc shows', async () => {
    const command = /```sh\n(gramkit ab [^\n]+)\n```/.exec(section)?.[1];
    const shown = /```text\n([\s\S]*?)\n```/.exec(section)?.[1];
    expect(command).toBeDefined();
    expect(shown).toBeDefined();
    const dir = mkdtempSync(join(tmpdir(), 'gramkit-docs-ab-'));
    const args = (command as string).split(' ').slice(1).map((a) => (a === 'results.jsonl' ? join(dir, a) : a));
    const r = await cli(args);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    for (const line of (shown as string).split('\n')) expect(r.stdout.split('\n')).toContain(line);
  });
});
