/**
 * The CLI reports an error one way (issue 22): `error[REASON]: message`, then `  hint: ...`, with
 * REASON the precise code a user searches for in docs/errors.md (`CLI_USAGE`, `CLI_UNREADABLE`,
 * `CLI_UNKNOWN_TOOL`, a layer's code). Checked on commands that fail for different reasons, run
 * in-process: each prints exactly that shape on stderr, with a registered code, and none prints
 * the old prefixes (`gramkit: `, `gramkit <command>: `, `error: `).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { codeInfo } from '../../src/core/codes.js';
import { formatError } from '../../src/core/format-error.js';
import { cli } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'gramkit-report-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, 'tools.gram'), '[add:Tool {description: "Adds"} | (a::Integer)==>(::Integer)]\n');

/** `error[REASON]: message` and a hint line, nothing else. */
const SHAPE = /^error\[([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\]: [^\n]+\n {2}hint: [^\n]+\n$/;

describe('the CLI reports errors one way', () => {
  it.each([
    ['conflicting options', 'CLI_USAGE', ['invoke', join(dir, 'tools.gram'), '--yes', '--deny']],
    ['a file that does not exist', 'CLI_UNREADABLE', ['invoke', join(dir, 'absent.gram'), '-t', 'add']],
    ['a tool the file does not define', 'CLI_UNKNOWN_TOOL', ['invoke', join(dir, 'tools.gram'), '-t', 'sub', '-l', 'builtin']],
    ['a width out of range', 'CLI_USAGE', ['fmt', join(dir, 'tools.gram'), '--width', '5']],
    ['a file that does not exist (parse)', 'CLI_UNREADABLE', ['parse', join(dir, 'absent.gram')]],
    ['--write with --check', 'CLI_USAGE', ['fmt', join(dir, 'tools.gram'), '--write', '--check']],
  ])('%s: error[%s]', async (_what, reason, argv) => {
    const r = await cli(argv, { cwd: dir });
    expect(r.code).not.toBe(0);
    const m = SHAPE.exec(r.stderr);
    expect(m, r.stderr).not.toBeNull();
    expect(m?.[1]).toBe(reason);
    expect(codeInfo(reason)).toBeDefined();
    expect(r.stderr).not.toMatch(/^(gramkit( [a-z]+)*: |error: )/m);
  });

  it('renders the precise code, the message, and the hint of the site or else of the registry', () => {
    expect(formatError({ reason: 'TOOL_TIMEOUT', message: 'too slow' })).toBe(`error[TOOL_TIMEOUT]: too slow\n  hint: ${codeInfo('TOOL_TIMEOUT')?.hint}`);
    expect(formatError({ reason: 'TOOL_TIMEOUT', message: 'too slow', hint: 'wait' })).toBe('error[TOOL_TIMEOUT]: too slow\n  hint: wait');
    expect(formatError({ reason: 'WEATHER_UNKNOWN_CITY', message: 'no city' })).toBe('error[WEATHER_UNKNOWN_CITY]: no city');
  });
});
