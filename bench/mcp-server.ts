/**
 * The servers `bench/mcp.bench.ts` measures, each in a process of its own (so its CPU time is its
 * own, read from `/proc/<pid>/stat`): `tsx bench/mcp-server.ts <gramkit|sdk> <stdio|http>`.
 *
 * - gramkit: the tool `shout` (a string in capitals) bound from gram, served by `serveMcpStdio` or
 *   `createMcpHttpHandler`, every call judged by the default rules (as `gramkit mcp` does; with
 *   `MCP_BENCH_NO_POLICIES=1`, no policies);
 * - sdk: a minimal server on the official SDK with the same tool (`McpServer.registerTool`, a zod
 *   schema), served by the SDK's own `serveStdio` or `createMcpHandler` (stateless).
 *
 * Over HTTP the server listens on 127.0.0.1 (a free port) and prints its URL on stdout.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';
import { defaultRuleEngine } from '../src/entries/policy.js';
import { createMcpHttpHandler, serveMcpStdio, staticToolSource } from '../src/entries/mcp.js';
import { bindAll, defineTool, parseSpecifications, toolLibrary } from '../src/index.js';
import { handleNodeRequest } from '../src/mcp/node-http.js';

const GRAM = '[shout:Tool {description: "The text in capitals"} | (text::String)==>(::String)]';

const gramkitTools = () => {
  const specs = parseSpecifications(GRAM);
  if (specs._tag === 'Left') throw new Error('spec');
  const t = defineTool<{ text: string }>(GRAM, ({ text }) => text.toUpperCase(), { name: 'shout' });
  if (t._tag === 'Left') throw new Error('tool');
  const b = bindAll(specs.right.tools, toolLibrary([t.right]));
  if (b._tag === 'Left') throw new Error('bind');
  return staticToolSource(b.right);
};

const sdkServer = (): McpServer => {
  const s = new McpServer({ name: 'sdk', version: '1.0.0' });
  const register = s.registerTool.bind(s) as (name: string, config: unknown, cb: (args: { text: string }) => unknown) => unknown;
  register('shout', { description: 'The text in capitals', inputSchema: z.object({ text: z.string() }) }, async (args) => ({
    content: [{ type: 'text', text: args.text.toUpperCase() }],
  }));
  return s;
};

const [which, wire] = process.argv.slice(2);
const policies = process.env['MCP_BENCH_NO_POLICIES'] === '1' ? {} : { policies: { rules: defaultRuleEngine } };

if (wire === 'stdio') {
  if (which === 'gramkit') serveMcpStdio(gramkitTools(), { stdin: process.stdin, stdout: process.stdout, ...policies });
  else serveStdio(() => sdkServer() as never, { transport: new StdioServerTransport(process.stdin, process.stdout) });
  process.stdin.once('end', () => process.exit(0));
} else {
  const sdkHandler = createMcpHandler(() => sdkServer() as never, { legacy: 'stateless' });
  const handler =
    which === 'gramkit'
      ? createMcpHttpHandler(gramkitTools(), policies).node
      : (req: IncomingMessage, res: ServerResponse) => handleNodeRequest(sdkHandler.fetch, req, res);
  const server = createServer((req, res) => void handler(req, res));
  server.listen(0, '127.0.0.1', () => process.stdout.write(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp\n`));
  process.stdin.once('end', () => process.exit(0));
  process.stdin.resume();
}
