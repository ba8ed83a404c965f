/**
 * An MCP server over a tool source, built on the SDK's low-level `Server` (v2,
 * `@modelcontextprotocol/server`): gramkit writes `tools/list` itself, so each `inputSchema` is the
 * one `gramkit schema --format mcp` prints, and `tools/call` goes through the one invoker
 * (library/invoker.ts: validation, the serialise and gate steps when the server has policies, then
 * defaults, timeouts, output checks), so every failure is a result with `isError: true`
 * and a message a model can act on. An unknown tool is a JSON-RPC error (`-32602`, naming the tools
 * there are); the server keeps serving.
 *
 * The SDK's own argument check is switched off (a validator that accepts everything): `invoke`
 * validates with gramkit's messages and applies defaults, which the SDK does not.
 *
 * `mcpServerFactory` makes one SDK server per serving unit (an HTTP request, a stdio connection),
 * as the SDK's serving entries want; `stdio-server.ts` and `http-handler.ts` serve it.
 */
import { type jsonSchemaValidator, ProtocolError, ProtocolErrorCode, Server } from '@modelcontextprotocol/server';
import { type Diagnostic, error } from '../core/diagnostic.js';
import type { BoundTool } from '../library/bind.js';
import { createInvoker, type Invoker } from '../library/invoker.js';
import { CallLock, serialise } from '../library/serial.js';
import type { Approver } from '../policy/approvals.js';
import type { Policies } from '../policy/evaluate.js';
import { gateStep } from '../policy/gate-step.js';
import { toMcpCallResult } from './call-result.js';
import { McpCodes } from './codes.js';
import { servedTools } from './tool-definitions.js';
import type { McpToolSource } from './tool-source.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** The policies a server puts its calls through. */
export interface McpGateOptions {
  /** Permissions, rules and approvals applied before each call; none: every valid call runs. */
  readonly policies?: Policies;
  /** Answers calls that need approval; without one they are refused (`POLICY_DENIED`, saying why). */
  readonly approver?: Approver;
}

export interface McpServeOptions extends McpGateOptions {
  /** The server's name in the MCP handshake (default `gramkit`). */
  readonly name?: string;
  /** The server's version in the handshake (default `0.0.0`). */
  readonly version?: string;
  /** Instructions for clients (shown to models by some hosts). */
  readonly instructions?: string;
  /** Timeout of each call in milliseconds (default: the binding's, else the tool's own). */
  readonly timeoutMs?: number;
  /** Told about tools left out of `tools/list` (a schema MCP cannot take) and names changed for MCP. */
  readonly onDiagnostic?: (d: Diagnostic) => void;
}

/** Makes a fresh SDK server; `track` is told about it until it closes (for list-changed notifications). */
export type ServerFactory = (track?: (server: Server) => void) => Server;

const ACCEPT_EVERYTHING: jsonSchemaValidator = {
  getValidator: () => (input: unknown) => ({ valid: true, data: input as never, errorMessage: undefined }),
};

// -------------------------------------------------------------------------------------------------
// the factory
// -------------------------------------------------------------------------------------------------

/**
 * The server's invoker: with policies, calls that change state run alone and every call is judged
 * when it starts (one lock for every connection of the server); without, `invoke`.
 */
const serverInvoker = (options: McpGateOptions): Invoker =>
  options.policies === undefined
    ? createInvoker([])
    : createInvoker([serialise(new CallLock()), gateStep({ policies: options.policies, ...(options.approver !== undefined ? { approver: options.approver } : {}) })]);

export const mcpServerFactory = (source: McpToolSource, options: McpServeOptions = {}): ServerFactory => {
  const invoker = serverInvoker(options);
  // a source that runs its own calls (the catalog's) takes them, with the caller's scopes
  const call = source.call ?? invoker;
  const reported = new WeakSet<ReadonlyArray<BoundTool>>();
  const served = () => {
    const tools = source.tools();
    const s = servedTools(tools);
    if (!reported.has(tools)) {
      reported.add(tools);
      for (const d of s.diagnostics) {
        options.onDiagnostic?.(d.severity === 'error' ? error(McpCodes.TOOL_NOT_SERVED, `a tool is left out of tools/list: ${d.message}`, { ...(d.hint !== undefined ? { hint: d.hint } : {}) }) : d);
      }
    }
    return s;
  };
  return (track) => {
    const server = new Server(
      { name: options.name ?? 'gramkit', version: options.version ?? '0.0.0' },
      {
        capabilities: { tools: { listChanged: true } },
        ...(options.instructions !== undefined ? { instructions: options.instructions } : {}),
        jsonSchemaValidator: ACCEPT_EVERYTHING,
      },
    );
    server.setRequestHandler('tools/list', async () => ({ tools: served().definitions as never }));
    server.setRequestHandler('tools/call', async (request, ctx) => {
      const s = served();
      const name = request.params.name;
      const bound = s.byMcpName.get(name);
      if (bound === undefined) {
        const names = [...s.byMcpName.keys()];
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `unknown tool "${name}"; the tools of this server are: ${names.length > 0 ? names.join(', ') : 'none'} (the list may have changed: list the tools again)`,
          { code: McpCodes.UNKNOWN_TOOL, tools: names },
        );
      }
      const scopes = ctx.http?.authInfo?.scopes;
      const result = await call(bound, request.params.arguments ?? {}, {
        signal: ctx.mcpReq.signal,
        ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
        ...(scopes !== undefined ? { scopes: new Set(scopes) } : {}),
      });
      return toMcpCallResult(result, s.structured.has(name)) as never;
    });
    track?.(server);
    return server;
  };
};
