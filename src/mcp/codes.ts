/**
 * The MCP layer's codes (`MCP_`): connecting to a server and importing its tools, serving tools,
 * and the failures of calls that go to a remote MCP server. Tools and tests match on these, never
 * on messages. A remote gramkit server's own error keeps its code (a call through it fails as the
 * same call made locally).
 */
import { type CodeOf, defineCodes } from '../core/codes.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export const McpCodes = defineCodes('mcp', 'MCP', {
  SDK_MISSING: {
    canonical: 'FAILED_PRECONDITION',
    summary: 'the MCP SDK package the operation needs is not installed (an optional peer dependency)',
    hint: 'install it: npm install @modelcontextprotocol/client (or /server)',
  },
  INVALID_ADDRESS: {
    canonical: 'INVALID_ARGUMENTS',
    summary: 'an `mcp:` or `mcp+stdio:` address that cannot be read (no URL, not http(s), no command)',
    hint: 'write mcp:<http(s) URL> or mcp+stdio:<command line>',
  },
  CONNECT_FAILED: {
    canonical: 'UNAVAILABLE',
    summary: 'the server could not be reached, or the MCP handshake failed',
    retryable: 'sometimes',
    hint: 'check the address, and that the server runs',
  },
  LIST_FAILED: {
    canonical: 'UNAVAILABLE',
    summary: '`tools/list` failed (a protocol error, a connection lost while listing), or the server serves no tools',
    retryable: 'sometimes',
    hint: 'read the message; try again if the connection was lost',
  },
  TOOL_NOT_IMPORTED: {
    canonical: 'INVALID_CONFIGURATION',
    summary: "a tool of the server's list that cannot become a specification (its schema, its name...)",
    hint: 'the message says why; the other tools are imported',
  },
  TOOL_ERROR: {
    canonical: 'EXECUTION_ERROR',
    summary: "a remote tool answered `isError: true` without a gramkit error code (the server's text is the message)",
    hint: "read the server's message",
  },
  TRANSPORT_ERROR: {
    canonical: 'UNAVAILABLE',
    summary: 'the connection failed during a call (closed, reset, a protocol error)',
    retryable: true,
    hint: 'try again; check the server if it persists',
  },
  RESULT_TOO_LARGE: {
    canonical: 'LIMIT_EXCEEDED',
    summary: "the MCP server's answer to a call is larger than the client reads (`maxResultBytes`, default 32 MiB); it was not read further",
    hint: 'ask for less (a narrower query, a page), or raise maxResultBytes for a server you trust',
  },
  PROTOCOL_ERROR: {
    canonical: 'INVALID_ARGUMENTS',
    summary: 'the server refused the call as a protocol error (an unknown tool, invalid parameters)',
    hint: 'call a tool the server lists, with arguments its schema accepts',
  },
  TOOL_NOT_SERVED: {
    canonical: 'INVALID_CONFIGURATION',
    summary: 'a tool of the served list that cannot be exported to MCP (left out of `tools/list`)',
    hint: 'the message says why; fix its specification',
  },
  UNKNOWN_TOOL: {
    canonical: 'NOT_FOUND',
    summary: '`tools/call` named a tool the server does not serve (a JSON-RPC error; the server keeps serving)',
    hint: 'call one of the tools of tools/list',
  },
});

export type McpCode = CodeOf<typeof McpCodes>;
