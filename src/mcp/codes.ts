/**
 * Stable codes of the MCP layer: diagnostics of connecting and importing, and the codes of tool
 * failures that come from a remote MCP server. Tools and tests match on these, never on messages.
 */
export const McpCodes = {
  /** The MCP SDK package the operation needs is not installed (an optional peer dependency). */
  SDK_MISSING: 'MCP_SDK_MISSING',
  /** An `mcp:` or `mcp+stdio:` address that cannot be read (no URL, not http(s), no command). */
  INVALID_ADDRESS: 'MCP_INVALID_ADDRESS',
  /** The server could not be reached or the MCP handshake failed. */
  CONNECT_FAILED: 'MCP_CONNECT_FAILED',
  /** `tools/list` failed (a protocol error, or a connection lost while listing). */
  LIST_FAILED: 'MCP_LIST_FAILED',
  /** A tool of the server's list could not become a specification (its schema, its name...). */
  TOOL_NOT_IMPORTED: 'MCP_TOOL_NOT_IMPORTED',
  /** A remote tool answered `isError: true` without a gramkit error code: the server's text is the message. */
  TOOL_ERROR: 'MCP_TOOL_ERROR',
  /** The connection failed during a call (closed, reset, a protocol error): retryable. */
  TRANSPORT_ERROR: 'MCP_TRANSPORT_ERROR',
  /** The server refused the call as a protocol error (an unknown tool, invalid parameters). */
  PROTOCOL_ERROR: 'MCP_PROTOCOL_ERROR',
  /** A tool of the served list could not be exported to MCP (left out of `tools/list`). */
  TOOL_NOT_SERVED: 'MCP_TOOL_NOT_SERVED',
  /** `tools/call` named a tool the server does not serve (a JSON-RPC error, the server keeps serving). */
  UNKNOWN_TOOL: 'MCP_UNKNOWN_TOOL',
} as const;

export type McpCode = (typeof McpCodes)[keyof typeof McpCodes];
