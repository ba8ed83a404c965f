/**
 * Canonical codes on the CLI's surface (issue 22; the law of test/policy/canonical-codes.test.ts,
 * which checks the library's surfaces): the `ToolResult` `gramkit invoke` prints for a failed call
 * has a canonical `code` and the precise `reason`, mapped to that code by its registry. Checked on a
 * sample of the ways a call fails: a library tool that throws a `ToolFailure` or returns `fail(...)`
 * with a registered code of a result registry or a code of its own (with or without a canonical code),
 * that throws anything else, that returns something not JSON; arguments that do not validate; a
 * permission `ALLOWED_TOOL_PERMS` refuses; a call that needs approval where no one can give it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { type Behaviour, behaviourArb, type Codes, lawful as lawfulOn, writeProbes } from '../policy/canonical-support.js';
import { cli } from '../support/cli.js';

/** Ways a call fails (the generators of test/policy/canonical-codes.test.ts, one copy). */
const behaviours: ReadonlyArray<Behaviour> = fc.sample(
  behaviourArb.filter((b) => b.kind !== 'ok'),
  { numRuns: 12, seed: 22 },
);

const tmp = mkdtempSync(join(tmpdir(), 'gramkit-invoke-canonical-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const { gram: GRAM, library: LIBRARY } = writeProbes(tmp, behaviours);

/** What `gramkit invoke` printed of a call: the ToolResult, with the exit code. */
const invoke = async (tool: string, args: unknown, env: Record<string, string> = {}) => {
  const r = await cli(['invoke', GRAM, '--tool', tool, '--library', LIBRARY, '--args', JSON.stringify(args)], { cwd: tmp, env });
  expect(r.stdout, r.stderr).not.toBe('');
  return { code: r.code, result: JSON.parse(r.stdout) as { ok: boolean; error?: Codes } };
};

/** The law (canonical-support.ts), on what `gramkit invoke` printed. */
const lawful = (e: Codes | undefined, b: Behaviour = { kind: 'ok' }): void => lawfulOn('gramkit invoke', e as Codes, b);

describe('gramkit invoke: canonical codes', () => {
  it.each(behaviours.map((b, i) => [i, b] as const))('probe%i fails lawfully (%o), exit 1', async (i, b) => {
    const { code, result } = await invoke(`probe${i}`, { command: 'go' });
    expect([code, result.ok]).toEqual([1, false]);
    lawful(result.error, b);
  });

  it('arguments that do not validate, a refused permission, an approval no one can give', async () => {
    const invalid = await invoke('probe0', { command: 7 });
    lawful(invalid.result.error);
    expect(invalid.result.error?.code).toBe('INVALID_ARGUMENTS');
    const denied = await invoke('guarded', { command: 'go' }, { ALLOWED_TOOL_PERMS: 'fs:read' });
    lawful(denied.result.error);
    expect(denied.result.error?.code).toBe('DENIED');
    const unapproved = await invoke('confirmed', { command: 'go' });
    lawful(unapproved.result.error);
    expect(unapproved.result.ok).toBe(false);
    // and the same tools run when nothing refuses them
    expect((await invoke('guarded', { command: 'go' })).result).toEqual({ ok: true, value: 'ran' });
  });
});
