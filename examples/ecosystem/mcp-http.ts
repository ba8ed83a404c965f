/**
 * An MCP server over Streamable HTTP, mounted on node:http, and gramkit's MCP client calling it:
 * the capitals specification bound to a library is served (`createMcpHttpHandler`, stateless,
 * localhost only), then read back through `connectMcp`, whose tools bind to the same
 * specification and run remotely. Run it: `npx tsx examples/ecosystem/mcp-http.ts`.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { bindAll, invoke, parseSpecifications, type ToolResult } from 'gramkit';
import { connectMcp, createMcpHttpHandler, staticToolSource } from 'gramkit/mcp';
import library from '../ab/fast-library.js';

export const mcpOverHttp = async (): Promise<string[]> => {
  const specs = parseSpecifications(readFileSync(new URL('../ab/capitals.gram', import.meta.url), 'utf8'));
  if (specs._tag === 'Left') return specs.left.map((d) => d.message);
  const bound = bindAll(specs.right.tools, library);
  if (bound._tag === 'Left') return bound.left.map((e) => e.message);
  const out: string[] = [];
  const show = (r: ToolResult): string => (r.ok ? `ok ${JSON.stringify(r.value)}` : `${r.error.reason}: ${r.error.message}`);

  // the server: a source of bound tools and a handler for it (mount it at any path)
  const mcp = createMcpHttpHandler(staticToolSource(bound.right), { name: 'capitals', version: '1.0.0' });
  const http = createServer(mcp.node);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;

  // the client: the server's tools as specifications, implemented remotely
  const connection = await connectMcp(`mcp:${url}`);
  try {
    if (connection._tag === 'Left') return connection.left.map((d) => d.message);
    const { server, specifications, library: remote } = connection.right;
    out.push(`${server.name} ${server.version}: ${specifications.map((s) => s.name).join(', ')}`);
    const calls = bindAll(specs.right.tools, remote);
    if (calls._tag === 'Left') return calls.left.map((e) => e.message);
    const capitalOf = calls.right.byName.get('capital_of')!;
    out.push(show(await invoke(capitalOf, { country: 'Japan' })));
    out.push(show(await invoke(capitalOf, { country: 'Atlantis' })));
    out.push(show(await invoke(capitalOf, { city: 'Paris' })));
    return out;
  } finally {
    if (connection._tag === 'Right') await connection.right.close();
    await mcp.close();
    http.close();
  }
};

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const line of await mcpOverHttp()) console.log(line);
}
