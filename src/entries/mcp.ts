/**
 * `gramkit/mcp`: the Model Context Protocol both ways. Serve bound tools to MCP clients (stdio, and
 * a Streamable HTTP handler for `node:http` or any web-standard framework), and take the tools of
 * an MCP server as specifications with remote implementations.
 *
 * Needs the MCP SDK (v2), an optional peer dependency: `@modelcontextprotocol/server` to serve,
 * `@modelcontextprotocol/client` to connect.
 */
export { McpCodes } from '../mcp/codes.js';
export type { McpCode } from '../mcp/codes.js';
export type { McpToolSource, MutableToolSource } from '../mcp/tool-source.js';
export { staticToolSource, mutableToolSource } from '../mcp/tool-source.js';
export type { McpServeOptions } from '../mcp/server.js';
export type { McpGateOptions } from '../mcp/server.js';
export type { McpStdioOptions, McpStdioServer } from '../mcp/stdio-server.js';
export { serveMcpStdio } from '../mcp/stdio-server.js';
export type { McpHttpOptions, McpHttpHandler } from '../mcp/http-handler.js';
export { createMcpHttpHandler } from '../mcp/http-handler.js';
export type { ServedTools } from '../mcp/tool-definitions.js';
export { servedTools } from '../mcp/tool-definitions.js';
export type { McpToolHints } from '../mcp/annotations.js';
export { mcpHints } from '../mcp/annotations.js';
export type { McpAddress } from '../mcp/address.js';
export { isMcpAddress, parseMcpAddress } from '../mcp/address.js';
export type { ConnectMcpOptions, McpConnection } from '../mcp/client.js';
export { connectMcp, DEFAULT_MCP_CALL_TIMEOUT_MS, DEFAULT_MCP_MAX_RESULT_BYTES } from '../mcp/client.js';
