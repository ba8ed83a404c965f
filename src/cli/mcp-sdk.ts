/**
 * The MCP SDK as the CLI carries it: a file of its own, `dist/mcp-sdk.cjs` (the SDK is a dev
 * dependency, absent from a user's install), which the CLI's bundle requires for each
 * `@modelcontextprotocol/…` import (tsup.config.ts), so only a command or a request that uses MCP
 * loads it, and the bundle the CLI compiles at every start does not carry it.
 */
export * as server from '@modelcontextprotocol/server';
export * as serverStdio from '@modelcontextprotocol/server/stdio';
export * as client from '@modelcontextprotocol/client';
export * as clientStdio from '@modelcontextprotocol/client/stdio';
