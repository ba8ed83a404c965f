/**
 * An inspector-style MCP session: the MCP SDK's own client starts `gramkit mcp builtin` (the
 * built-in tools, confined to a workspace) as a child process, lists its tools with their
 * annotations, and calls some, as an MCP host (Claude Desktop, an IDE) would. Needs the built
 * package (`npm ci` builds it). Run it: `npx tsx examples/ecosystem/mcp-session.ts`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

type CallResult = { content?: Array<{ type: string; text?: string }>; isError?: boolean };

export const mcpSession = async (): Promise<string[]> => {
  const workspace = mkdtempSync(join(tmpdir(), 'gramkit-mcp-'));
  writeFileSync(join(workspace, 'notes.txt'), 'gram is a notation for graphs\n');
  const client = new Client({ name: 'example-inspector', version: '1.0.0' });
  const out: string[] = [];
  const text = (r: CallResult): string => `${r.isError === true ? 'error ' : ''}${(r.content ?? []).map((c) => c.text ?? `[${c.type}]`).join(' ')}`;
  try {
    // 1. start the server as a host does: a command line, talking MCP on stdin and stdout
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', 'builtin', '--workspace', workspace] }));
    out.push(`server: ${client.getServerVersion()?.name}`);

    // 2. tools/list: each tool's JSON Schema, and hints from its safety level
    const { tools } = await client.listTools();
    for (const t of tools.filter((t) => ['read_file', 'delete_file', 'web_fetch'].includes(t.name))) out.push(`${t.name}: ${JSON.stringify(t.annotations)}`);

    // 3. tools/call: a read, arguments a model got wrong, a path outside the workspace, a call that needs approval
    out.push(
      text((await client.callTool({ name: 'read_file', arguments: { path: 'notes.txt' } })) as CallResult).replace(/"modified":"[^"]+"/, '"modified":"…"'),
    );
    out.push(text((await client.callTool({ name: 'read_file', arguments: { path: 42 } })) as CallResult));
    out.push(text((await client.callTool({ name: 'read_file', arguments: { path: '../secrets.txt' } })) as CallResult));
    out.push(text((await client.callTool({ name: 'delete_file', arguments: { path: 'notes.txt' } })) as CallResult));
    return out;
  } finally {
    await client.close(); // ends the server's process
    rmSync(workspace, { recursive: true, force: true });
  }
};

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const line of await mcpSession()) console.log(line);
}
