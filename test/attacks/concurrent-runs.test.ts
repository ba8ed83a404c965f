/**
 * Attack class (issue 18, weak): no cap on concurrent sandboxed runs (100 at once ran). Programs of
 * `shell`, `run_code` and sandboxed command tools now take a slot of a process-wide cap
 * (`setMaxConcurrentRuns`, default CPUs × 2); the others wait in a queue. Each run below marks
 * itself in the workspace while it runs and records how many marks it saw: never more than the cap.
 */
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { emptyRuleEngine } from '../../src/entries/policy.js';
import { concurrentRuns, setMaxConcurrentRuns } from '../../src/entries/tools.js';
import { availableParallelism } from 'node:os';
import { caller, workspace } from '../tools/builtin/support.js';

const before = setMaxConcurrentRuns(2);
afterAll(() => void setMaxConcurrentRuns(before));

describe('attack: many sandboxed runs at once', () => {
  it('the default cap is twice the CPUs', () => {
    expect(before).toBe(availableParallelism() * 2);
  });

  it('8 shell calls at once: at most 2 programs run together, all 8 finish', async () => {
    const s = workspace();
    const call = caller({ workspace: s.ws, rules: emptyRuleEngine });
    const command = 'm=$(mktemp m.XXXXXX); sleep 0.3; ls m.* | wc -l > "seen.${m#m.}"; rm "$m"';
    const results = await Promise.all(Array.from({ length: 8 }, () => call('shell', { command })));
    expect(results.map((r) => (r.ok ? 'ok' : r.error.code))).toEqual(Array(8).fill('ok'));
    const seen = readdirSync(s.ws)
      .filter((f) => f.startsWith('seen.'))
      .map((f) => Number(readFileSync(path.join(s.ws, f), 'utf8')));
    expect(seen).toHaveLength(8);
    expect(Math.max(...seen)).toBeLessThanOrEqual(2);
    expect(concurrentRuns()).toMatchObject({ active: 0, waiting: 0 });
  });
});
