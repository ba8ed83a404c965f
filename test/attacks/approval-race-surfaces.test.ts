/**
 * Attack class: approvals judged on a state another call of the same caller is changing, outside
 * the agent loop (issue 18, item 5). `move_file keep→new` and `write_file new` sent at the same
 * time were both judged while `new` did not exist (no approval needed for either), then both ran:
 * the write replaced what the move had just put there, and `keep`'s content was gone, 20 rounds of
 * 20, through `gramkit mcp` and through `serve`'s REST API, though no approval was ever given. The
 * one invoker now runs calls that change state one at a time, each judged when it starts, on every
 * surface; the loser of the race is refused (`POLICY_DENIED`: overwriting needs approval) or finds
 * the file there (`BUILTIN_FILE_EXISTS`), and the content survives.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultRuleEngine } from '../../src/entries/policy.js';
import { CLI, stdioClient } from '../mcp/support.js';
import { harness } from '../server/support.js';

const ROUNDS = 20;

/** Whether the round's precious content is still in keep.txt or new.txt. */
const survived = (ws: string, round: number): boolean =>
  ['keep.txt', 'new.txt'].map((f) => join(ws, f)).some((f) => existsSync(f) && readFileSync(f, 'utf8') === `precious ${round}`);

const reset = (ws: string, round: number): void => {
  rmSync(join(ws, 'new.txt'), { force: true });
  writeFileSync(join(ws, 'keep.txt'), `precious ${round}`);
};

describe('attack: move and write sent at once', () => {
  it('through gramkit mcp (stdio, the SDK client), no round destroys the content', async () => {
    const ws = mkdtempSync(join(tmpdir(), 'gramkit-race-mcp-'));
    const client = await stdioClient('v2', process.execPath, [CLI, 'mcp', 'builtin', '--workspace', ws]);
    try {
      const lost: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        reset(ws, round);
        await Promise.all([
          client.callTool('move_file', { from: 'keep.txt', to: 'new.txt' }),
          client.callTool('write_file', { path: 'new.txt', content: 'clobbered' }),
        ]);
        if (!survived(ws, round)) lost.push(round);
      }
      expect(lost, 'rounds whose content was destroyed without approval').toEqual([]);
    } finally {
      await client.close();
      rmSync(ws, { recursive: true, force: true });
    }
  }, 60_000);

  it("through serve's REST API (the policies gramkit serve uses, no approver), no round destroys the content", async () => {
    const h = await harness({}, { policies: { rules: defaultRuleEngine } });
    try {
      const lost: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        reset(h.dir, round);
        const answers = await Promise.all([
          h.call('POST', '/api/v1/tools/move_file/invoke', { body: { from: 'keep.txt', to: 'new.txt' } }),
          h.call('POST', '/api/v1/tools/write_file/invoke', { body: { path: 'new.txt', content: 'clobbered' } }),
        ]);
        for (const a of answers) expect([200, 403]).toContain(a.status);
        if (!survived(h.dir, round)) lost.push(round);
      }
      expect(lost, 'rounds whose content was destroyed without approval').toEqual([]);
    } finally {
      await h.close();
    }
  });
});
