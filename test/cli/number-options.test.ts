/**
 * The options every command reads the same way (agent-setup.ts `positiveInteger(s)`,
 * catalog-store.ts `storeLocation`): a bad value is a usage error through the one renderer,
 * `error[CLI_USAGE]: …` with exit 2, whichever command reads it, and before anything is loaded.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, SERVE_AUTH_ARGS } from '../support/cli.js';

const AGENT = 'examples/helloAgent.gram';

describe('number and store options', () => {
  it.each([
    [['run', AGENT, 'hi', '--max-steps', '0'], '--max-steps must be a positive whole number, got "0"'],
    [['run', AGENT, 'hi', '--timeout', '1.5'], '--timeout must be a positive whole number, got "1.5"'],
    [['ab', AGENT, '-l', 'x.ts', '-i', 'in.jsonl', '--runs', 'two'], '--runs must be a positive whole number, got "two"'],
    [['ab', AGENT, '-l', 'x.ts', '-i', 'in.jsonl', '--concurrency', '-1'], '--concurrency must be a positive whole number, got "-1"'],
    [['mcp', AGENT, '--timeout', '0'], '--timeout must be a positive whole number, got "0"'],
    [['worker', '--queue', 'redis://127.0.0.1:1', '--lock-duration', 'x'], '--lock-duration must be a positive whole number, got "x"'],
    [['catalog', 'ls', '--data', 'd', '--store', 'redis://127.0.0.1:1'], '--data and --store cannot be used together'],
    [['serve', '--store', 'dir'], '--store takes a Redis URL (redis://host:port), got "dir"; a directory is --data DIR'],
  ])('%j', async (argv, message) => {
    const r = await cli(argv);
    expect([r.code, r.stderr.split('\n')[0]]).toEqual([2, `error[CLI_USAGE]: ${message}`]);
  });
});

describe("serve's bootstrap file", () => {
  const dir = mkdtempSync(join(tmpdir(), 'gramkit-serve-bootstrap-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'broken.json'), '{"tools": [');
  const serve = (bootstrap: string) => cli(['serve', '--port', '0', '--data', join(dir, 'data'), '--bootstrap', bootstrap, ...SERVE_AUTH_ARGS], { cwd: dir });

  it('that cannot be read is CLI_UNREADABLE, one that is not JSON CLI_INVALID_JSON (exit 1, not a usage error)', async () => {
    const missing = await serve('nowhere.json');
    expect([missing.code, missing.stderr]).toEqual([1, expect.stringMatching(/^error\[CLI_UNREADABLE\]: cannot read the bootstrap file nowhere\.json: /m)]);
    const broken = await serve('broken.json');
    expect([broken.code, broken.stderr]).toEqual([1, expect.stringMatching(/^error\[CLI_INVALID_JSON\]: the bootstrap file .*broken\.json is not JSON: /m)]);
  });
});
