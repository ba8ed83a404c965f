/**
 * A tool whose implementation is a tool of an MCP server: calling it sends `tools/call`. The result
 * is read as `call-result.ts` says (an `isError` result is a failure with the server's code and
 * text); a connection that fails during the call is a retryable `MCP_TRANSPORT_ERROR`, a JSON-RPC
 * error from the server (an unknown tool, invalid parameters) an `MCP_PROTOCOL_ERROR`. The call
 * carries the invocation's signal, so a timeout or a cancellation cancels the request on the
 * server too (`notifications/cancelled`).
 */
import { messageOf } from '../core/message.js';
import { isJsonObject } from '../core/json.js';
import type { JsonObject, JsonSchema } from '../core/json-schema.js';
import { ToolFailure } from '../library/result.js';
import { createTool, type InvocationContext, type SafetyLevel, type Tool, type ToolAnnotations } from '../library/tool.js';
import type { ToolSpecification } from '../specification/tool-spec.js';
import { annotationsFromMcp } from './annotations.js';
import { valueOf } from './call-result.js';
import { McpCodes } from './codes.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** Sends `tools/call` and resolves with the raw result; rejects when the request fails. */
export type McpCall = (name: string, args: unknown, signal: AbortSignal) => Promise<Readonly<Record<string, unknown>>>;

/** What the user grants a server's tools: their permissions and their safety level. */
export interface RemoteGrant {
  readonly permissions: ReadonlyArray<string>;
  readonly safetyLevel: SafetyLevel;
}

/** Whether an error of the MCP client is a JSON-RPC error the server answered with (not a transport failure). */
export type IsProtocolError = (e: unknown) => boolean;

// -------------------------------------------------------------------------------------------------
// constructor
// -------------------------------------------------------------------------------------------------

/**
 * The remote tool for one definition of the server's `tools/list`. With the definition's imported
 * specification it claims that specification's schemas (so it binds to it, and to a local
 * specification the server was made from); without one, the server's raw schemas.
 */
export const remoteTool = (
  definition: JsonObject,
  spec: ToolSpecification | undefined,
  call: McpCall,
  isProtocolError: IsProtocolError,
  timeoutMs?: number,
  grant?: RemoteGrant,
): Tool => {
  const mcpName = String(definition['name']);
  const description = typeof definition['description'] === 'string' ? definition['description'] : (spec?.description ?? '');
  const schema: JsonSchema = spec?.schema ?? (isJsonObject(definition['inputSchema']) ? definition['inputSchema'] : { type: 'object' });
  const declaresOutput = isJsonObject(definition['outputSchema']);
  const outputSchema = declaresOutput ? (spec?.outputSchema ?? (definition['outputSchema'] as JsonObject)) : undefined;
  // the permissions and the safety level are the user's grant; of the server's claims only one
  // that asks for more caution (approval `confirm`) is kept
  const claimed = annotationsFromMcp(definition);
  const annotations: ToolAnnotations | undefined =
    grant !== undefined
      ? {
          permissions: Object.freeze([...grant.permissions]),
          safetyLevel: grant.safetyLevel,
          ...(claimed?.approval === 'confirm' ? { approval: 'confirm' as const } : {}),
        }
      : claimed;
  const invoke = async (args: unknown, ctx: InvocationContext): Promise<unknown> => {
    let result: Readonly<Record<string, unknown>>;
    try {
      result = await call(mcpName, args, ctx.signal);
    } catch (e) {
      // a timeout or a cancellation: invoke reports it (TIMEOUT, CANCELLED)
      if (ctx.signal.aborted || e instanceof ToolFailure) throw e;
      if (isProtocolError(e)) throw new ToolFailure(McpCodes.PROTOCOL_ERROR, `the MCP server refused the call of "${mcpName}": ${messageOf(e)}`);
      throw new ToolFailure(McpCodes.TRANSPORT_ERROR, `the call of "${mcpName}" did not reach the MCP server or got no answer: ${messageOf(e)}`, {
        retryable: true,
      });
    }
    return valueOf(result);
  };
  return createTool(spec?.name ?? mcpName, description, schema, invoke, {
    ...(outputSchema !== undefined ? { outputSchema } : {}),
    ...(annotations !== undefined ? { annotations } : {}),
    // the default wait for an answer (a caller's own timeout takes precedence)
    ...(timeoutMs !== undefined ? { limits: { timeoutMs } } : {}),
  });
};
