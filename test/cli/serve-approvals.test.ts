/**
 * `gramkit serve` queues calls that need approval, end to end on a socket: a REST invoke of
 * write_file over an existing file holds; a second client lists it (`GET /api/v1/approvals`) and
 * approves it with changed arguments, denies it, or lets it time out; the first call then answers
 * accordingly. A real MCP client's call through `/mcp` holds the same way until approved over REST.
 * And the options: `--approvals queue|deny|yes`, `--yes`, `--approval-timeout`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PolicyCodes } from 'gramkit/policy';
import { cli, type RunningCli, SERVE_AUTH_ARGS, startCli } from '../support/cli.js';
import { httpClient } from '../mcp/support.js';

const root = mkdtempSync(join(tmpdir(), 'gramkit-serve-approvals-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let n = 0;
/** A server on a free port with its own workspace (holding notes.txt) and catalog. */
const serve = async (argv: ReadonlyArray<string> = []): Promise<{ s: RunningCli; url: string; workspace: string }> => {
  const workspace = mkdtempSync(join(root, `ws-${++n}-`));
  writeFileSync(join(workspace, 'notes.txt'), 'original\n');
  const s = await startCli(['serve', '--port', '0', '--data', join(root, `data-${n}`), '--workspace', workspace, ...SERVE_AUTH_ARGS, ...argv], { cwd: root });
  const url = s.url();
  if (url === undefined) throw new Error(`serve did not start: ${s.err()}`);
  return { s, url, workspace };
};

const post = (url: string, body: unknown): Promise<Response> =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** The calls waiting, once there are `count` (asked again as each event arrives: no sleeps). */
const waitingCalls = async (
  url: string,
  count: number,
): Promise<Array<{ id: string; tool: string; args: Record<string, unknown>; reason: string; caller: Record<string, unknown> }>> => {
  const events = await fetch(`${url}/api/v1/events?types=approval_requested`);
  const reader = (events.body as ReadableStream<Uint8Array>).getReader();
  try {
    for (;;) {
      const { approvals } = (await (await fetch(`${url}/api/v1/approvals`)).json()) as {
        approvals: Array<{ id: string; tool: string; args: Record<string, unknown>; reason: string; caller: Record<string, unknown> }>;
      };
      if (approvals.length >= count) return approvals;
      const { done } = await reader.read();
      if (done) throw new Error('the events stream ended');
    }
  } finally {
    await reader.cancel();
  }
};

describe('gramkit serve: approvals a person gives', () => {
  it('a REST call holds; a second client approves it with changed arguments; it completes with them', async () => {
    const { s, url, workspace } = await serve();
    try {
      expect(s.out()).toContain(`approvals: queued for 300 s at ${url}/api/v1/approvals`);
      const call = fetch(`${url}/api/v1/tools/tool_file_write/invoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-agent-id': 'writer' },
        body: JSON.stringify({ path: 'notes.txt', content: "the agent's text" }),
      });
      const [pending] = await waitingCalls(url, 1);
      expect(pending).toMatchObject({
        tool: 'write_file',
        args: { path: 'notes.txt', content: "the agent's text" },
        caller: { via: 'rest', agentId: 'writer' },
      });
      expect(readFileSync(join(workspace, 'notes.txt'), 'utf8')).toBe('original\n');
      const approved = await post(`${url}/api/v1/approvals/${pending!.id}/approve`, { args: { path: 'notes.txt', content: "the person's text" } });
      expect(approved.status).toBe(200);
      const result = await call;
      expect(result.status).toBe(200);
      expect(((await result.json()) as { ok: boolean }).ok).toBe(true);
      expect(readFileSync(join(workspace, 'notes.txt'), 'utf8')).toBe("the person's text");
    } finally {
      s.stop();
    }
    expect(await s.done).toBe(0);
  });

  it('denied, the call is refused with the message; the file is untouched', async () => {
    const { s, url, workspace } = await serve();
    try {
      const call = post(`${url}/api/v1/tools/tool_file_write/invoke`, { path: 'notes.txt', content: 'never' });
      const [pending] = await waitingCalls(url, 1);
      expect((await post(`${url}/api/v1/approvals/${pending!.id}/deny`, { message: 'leave my notes alone' })).status).toBe(200);
      const result = await call;
      expect(result.status).toBe(403);
      const problem = (await result.json()) as { code: string; reason: string; detail: string };
      expect(problem.reason).toBe(PolicyCodes.DENIED);
      expect(problem.detail).toContain('leave my notes alone');
      expect(readFileSync(join(workspace, 'notes.txt'), 'utf8')).toBe('original\n');
    } finally {
      s.stop();
    }
    expect(await s.done).toBe(0);
  });

  it('no one decides: --approval-timeout refuses the call, and a late decision is a conflict', async () => {
    const { s, url, workspace } = await serve(['--approval-timeout', '1']);
    try {
      const call = post(`${url}/api/v1/tools/tool_file_write/invoke`, { path: 'notes.txt', content: 'too late' });
      const [pending] = await waitingCalls(url, 1);
      const result = await call;
      expect(result.status).toBe(403);
      const problem = (await result.json()) as { code: string; reason: string; detail: string };
      expect(problem.reason).toBe(PolicyCodes.DENIED);
      expect(problem.detail).toContain('no one approved the call within 1 second');
      const late = await post(`${url}/api/v1/approvals/${pending!.id}/approve`, {});
      expect(late.status).toBe(409);
      expect(((await late.json()) as { outcome: string }).outcome).toBe('expired');
      expect(readFileSync(join(workspace, 'notes.txt'), 'utf8')).toBe('original\n');
    } finally {
      s.stop();
    }
    expect(await s.done).toBe(0);
  });

  it("an MCP client's call through /mcp holds until approved over REST, then runs", async () => {
    const { s, url, workspace } = await serve();
    const client = await httpClient('v2-modern', new URL(`${url}/mcp`));
    try {
      const names = (await client.listTools()).tools.map((t) => t['name'] as string);
      const writer = names.find((name) => name === 'write-file') ?? names.find((name) => name.includes('write'));
      expect(writer, names.join(', ')).toBeDefined();
      const call = client.callTool(writer as string, { path: 'notes.txt', content: 'over MCP' });
      const [pending] = await waitingCalls(url, 1);
      expect(pending).toMatchObject({ tool: 'write_file', caller: { via: 'mcp' }, args: { content: 'over MCP' } });
      expect((await post(`${url}/api/v1/approvals/${pending!.id}/approve`, { args: { path: 'notes.txt', content: 'over MCP, approved' } })).status).toBe(200);
      const result = await call;
      expect(result['isError']).not.toBe(true);
      expect(readFileSync(join(workspace, 'notes.txt'), 'utf8')).toBe('over MCP, approved');
      // denied over REST, the MCP call is an error naming the refusal
      const second = client.callTool(writer as string, { path: 'notes.txt', content: 'again' });
      const [next] = await waitingCalls(url, 1);
      await post(`${url}/api/v1/approvals/${next!.id}/deny`, { message: 'enough' });
      const refused = await second;
      expect(refused['isError']).toBe(true);
      expect(JSON.stringify(refused['content'])).toContain('enough');
    } finally {
      await client.close();
      s.stop();
    }
    expect(await s.done).toBe(0);
  });

  it('a server with calls still waiting stops at once: they are refused, their connections closed', async () => {
    const { s, url, workspace } = await serve();
    // the answer may be the refusal or a closed socket, whichever the shutdown reaches first; never a
    // write (the handler is attached at once: a socket closed during the shutdown is not unhandled)
    const answered = post(`${url}/api/v1/tools/tool_file_write/invoke`, { path: 'notes.txt', content: 'x' }).then(
      (r) => r.status,
      () => 'closed',
    );
    await waitingCalls(url, 1);
    s.stop();
    expect(await s.done).toBe(0);
    expect([403, 'closed']).toContain(await answered);
    expect(readFileSync(join(workspace, 'notes.txt'), 'utf8')).toBe('original\n');
  });

  it('--approvals deny refuses at once, --yes and --approvals yes approve; contradictions are usage errors', async () => {
    const deny = await serve(['--approvals', 'deny']);
    try {
      const r = await post(`${deny.url}/api/v1/tools/tool_file_write/invoke`, { path: 'notes.txt', content: 'x' });
      expect(((await r.json()) as { code: string; reason: string }).reason).toBe(PolicyCodes.APPROVAL_REQUIRED);
      expect(((await (await fetch(`${deny.url}/api/v1/approvals`)).json()) as { enabled: boolean }).enabled).toBe(false);
    } finally {
      deny.s.stop();
    }
    expect(await deny.s.done).toBe(0);
    for (const flags of [['--yes'], ['--approvals', 'yes']]) {
      const yes = await serve(flags);
      try {
        const r = await post(`${yes.url}/api/v1/tools/tool_file_write/invoke`, { path: 'notes.txt', content: 'approved by --yes' });
        expect(((await r.json()) as { ok: boolean }).ok).toBe(true);
        expect(readFileSync(join(yes.workspace, 'notes.txt'), 'utf8')).toBe('approved by --yes');
      } finally {
        yes.s.stop();
      }
      expect(await yes.s.done).toBe(0);
    }
    for (const argv of [
      ['--approvals', 'maybe'],
      ['--yes', '--approvals', 'queue'],
      ['--approval-timeout', '0'],
      ['--approval-timeout', '5m'],
      ['--approvals', 'deny', '--approval-timeout', '10'],
    ]) {
      const r = await cli(['serve', '--port', '0', '--data', join(root, 'never'), ...argv], { cwd: root });
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/--approval/);
    }
  });
});
