/**
 * MCP servers named where a specification file or a library goes (`mcp:<url>`,
 * `mcp+stdio:<command line>`): one connection per server and command, opened on first use and
 * closed when the command ends (`ctx.defer`), so `gramkit invoke mcp:… --tool t` lists the tools
 * and calls one over the same connection. The MCP client is loaded only when an argument names a
 * server.
 */
import type { CodedError, Result } from '../../core/result.js';
import { formatDiagnostics } from '../../core/format-diagnostic.js';
import type { McpConnection } from '../../mcp/client.js';
import type { CommandContext } from '../context.js';
import type { NamedLibrary } from '../../project/load-library.js';
import { VERSION } from '../version.js';

export { isMcpAddress } from '../../mcp/address.js';

const connections = new WeakMap<CommandContext, Map<string, Promise<Result<McpConnection, CodedError>>>>();

/** The connection to the server `address` names, opened once per command, or why there is none (an `MCP_` code). */
export const openMcp = (ctx: CommandContext, address: string): Promise<Result<McpConnection, CodedError>> => {
  let open = connections.get(ctx);
  if (open === undefined) {
    open = new Map();
    connections.set(ctx, open);
  }
  let connecting = open.get(address);
  if (connecting === undefined) {
    connecting = import('../../mcp/client.js').then(({ openMcpConnection }) =>
      openMcpConnection(address, { cwd: ctx.io.cwd, clientName: 'gramkit', clientVersion: VERSION }),
    );
    open.set(address, connecting);
    ctx.defer(async () => {
      const c = await connecting;
      if (c?.ok === true) await c.value.close();
    });
  }
  return connecting;
};

/** The server as a named library: its remote tools, and its tools' specifications. */
export const mcpLibrary = (ctx: CommandContext, address: string): NamedLibrary => {
  const connection = async (): Promise<McpConnection> => {
    const c = await openMcp(ctx, address);
    if (!c.ok) throw new Error(formatDiagnostics([(await import('../../mcp/client.js')).failureDiagnostic(c.error)]).trimEnd());
    return c.value;
  };
  return {
    library: async () => (await connection()).library,
    specifications: async () => (await connection()).specifications,
  };
};
