/**
 * `gramkit serve`'s failures at start, each under its precise code (not `CLI_USAGE`): tokens it
 * cannot use (exit 2), a NATS bus it cannot reach, a port it cannot listen on, a token it cannot
 * save (exit 1). Each line is `error[REASON]: message` and the hint of the code's registry entry.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CliCodes } from '../../src/cli/codes.js';
import { codeInfo } from '../../src/core/codes.js';
import { cli, SERVE_AUTH_ARGS } from '../support/cli.js';
import { freePort } from '../support/redis.js';

const root = mkdtempSync(join(tmpdir(), 'gramkit-serve-failures-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const fresh = (): string => join(root, `data-${n++}`);

/** The first line is `error[REASON]: …`, the second the registry's hint of REASON. */
const expectReported = (stderr: string, reason: string, message: string): void => {
  const [first, second] = stderr.trimEnd().split('\n');
  expect(first).toMatch(new RegExp(`^error\\[${reason}\\]: `));
  expect(first).toContain(message);
  expect(second).toBe(`  hint: ${codeInfo(reason)?.hint as string}`);
};

describe('gramkit serve: failures at start under precise codes', () => {
  it('a token file others may read, or that is not a regular file: CLI_TOKEN_FILE_UNSAFE, exit 2', async () => {
    const file = join(root, 'open.token');
    writeFileSync(file, 'a-token-of-enough-characters');
    chmodSync(file, 0o644);
    const open = await cli(['serve', '--port', '0', '--data', fresh(), '--token-file', file], { cwd: root });
    expect(open.code).toBe(2);
    expectReported(open.stderr, CliCodes.TOKEN_FILE_UNSAFE, 'may be read by others (mode 644): chmod 600');
    const dir = join(root, 'a-directory');
    mkdirSync(dir);
    const notFile = await cli(['serve', '--port', '0', '--data', fresh(), '--token-file', dir], { cwd: root });
    expect(notFile.code).toBe(2);
    expectReported(notFile.stderr, CliCodes.TOKEN_FILE_UNSAFE, 'is not a regular file');
  });

  it('a token file that cannot be read (missing, or a link): CLI_UNREADABLE, exit 2', async () => {
    const missing = await cli(['serve', '--port', '0', '--data', fresh(), '--token-file', join(root, 'none.token')], { cwd: root });
    expect(missing.code).toBe(2);
    expectReported(missing.stderr, CliCodes.UNREADABLE, 'cannot read the token file');
    const target = join(root, 'target.token');
    writeFileSync(target, 'a-token-of-enough-characters', { mode: 0o600 });
    const link = join(root, 'link.token');
    symlinkSync(target, link);
    const linked = await cli(['serve', '--port', '0', '--data', fresh(), '--token-file', link], { cwd: root });
    expect(linked.code).toBe(2);
    expectReported(linked.stderr, CliCodes.UNREADABLE, 'cannot read the token file');
  });

  it('tokens that are not tokens ($GRAMKIT_TOKEN too short, a malformed file): CLI_INVALID_TOKENS, exit 2', async () => {
    const short = await cli(['serve', '--port', '0', '--data', fresh()], { cwd: root, env: { GRAMKIT_TOKEN: 'short' } });
    expect(short.code).toBe(2);
    expectReported(short.stderr, CliCodes.INVALID_TOKENS, '$GRAMKIT_TOKEN: ');
    const file = join(root, 'bad.json');
    writeFileSync(file, '{"tokens": [{"name": "ci"}]}', { mode: 0o600 });
    const bad = await cli(['serve', '--port', '0', '--data', fresh(), '--token-file', file], { cwd: root });
    expect(bad.code).toBe(2);
    expectReported(bad.stderr, CliCodes.INVALID_TOKENS, `${file}: `);
  });

  it('--no-auth with --token-file stays a usage error (CLI_USAGE, exit 2)', async () => {
    const both = await cli(['serve', '--port', '0', '--data', fresh(), '--no-auth', '--token-file', join(root, 'x')], { cwd: root });
    expect(both.code).toBe(2);
    expectReported(both.stderr, CliCodes.USAGE, 'contradict each other');
  });

  it('a NATS bus that does not answer: CLI_EVENTS_UNAVAILABLE, exit 1', async () => {
    const port = await freePort();
    const down = await cli(['serve', '--port', '0', '--data', fresh(), ...SERVE_AUTH_ARGS, '--events', `nats://127.0.0.1:${port}`], { cwd: root });
    expect(down.code).toBe(1);
    expectReported(down.stderr, CliCodes.EVENTS_UNAVAILABLE, `cannot connect to NATS at nats://127.0.0.1:${port}`);
  });

  it('a port another server holds: CLI_LISTEN_FAILED, exit 1', async () => {
    const holder: Server = createServer();
    const port = await new Promise<number>((resolve) => holder.listen(0, '127.0.0.1', () => resolve((holder.address() as { port: number }).port)));
    try {
      const taken = await cli(['serve', '--host', '127.0.0.1', '--port', String(port), '--data', fresh(), ...SERVE_AUTH_ARGS], { cwd: root });
      expect(taken.code).toBe(1);
      expectReported(taken.stderr, CliCodes.LISTEN_FAILED, `cannot listen on 127.0.0.1:${port}`);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });

  it('a generated token it cannot save (.gramkit is a file): CLI_UNWRITABLE, exit 1', async () => {
    const cwd = join(root, 'no-token-dir');
    mkdirSync(cwd);
    writeFileSync(join(cwd, '.gramkit'), 'not a directory');
    const unsaved = await cli(['serve', '--port', '0', '--data', fresh()], { cwd });
    expect(unsaved.code).toBe(1);
    expectReported(unsaved.stderr, CliCodes.UNWRITABLE, 'cannot save the token in');
  });
});
