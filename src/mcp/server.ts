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
 * Beyond tools (each part in its own module): a string result is its text and a tool may return
 * MCP content (call-result.ts); a call that needs approval asks the client through elicitation when
 * it can answer (elicitation-approver.ts; the approver goes to the one policy gate); the client's
 * progress token makes `ctx.progress` send `notifications/progress`; `logging/setLevel` turns on
 * log notifications of the call events (invoked, result, failed); `notifications/cancelled`
 * aborts the call's signal (the SDK's). Agents are prompts and specifications resources
 * (prompts-resources.ts); the lists are paged.
 *
 * `mcpServerFactory` makes one SDK server per serving unit (an HTTP request, a stdio connection),
 * as the SDK's serving entries want; `stdio-server.ts` and `http-handler.ts` serve it.
 */
import { type jsonSchemaValidator, ProtocolError, ProtocolErrorCode, SUPPORTED_PROTOCOL_VERSIONS, Server } from '@modelcontextprotocol/server';
import { type Diagnostic, error } from '../core/diagnostic.js';
import { isRecord } from '../core/json.js';
import type { BoundTool } from '../library/bind.js';
import { createInvoker, type Invoker } from '../library/invoker.js';
import type { ToolResult } from '../library/result.js';
import { CallLock, serialise } from '../library/serial.js';
import type { ProgressReporter } from '../library/tool.js';
import type { Approver } from '../policy/approvals.js';
import type { Policies } from '../policy/evaluate.js';
import { gateStep } from '../policy/gate-step.js';
import { toMcpCallResult } from './call-result.js';
import { McpCodes } from './codes.js';
import { type DirectAnswer, wireCallResult } from './direct-path.js';
import { type Elicit, elicitationApprover } from './elicitation-approver.js';
import { DEFAULT_PAGE_SIZE, pageOf, promptDefinition, promptMessages, readResource, resourceDefinitions } from './prompts-resources.js';
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
  /** Items per page of `tools/list`, `prompts/list` and `resources/list` (default 100). */
  readonly pageSize?: number;
}

/** MCP's log levels, least severe first. */
const LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
type Level = (typeof LEVELS)[number];
const LOG_LEVEL_KEY = 'io.modelcontextprotocol/logLevel';

const invalidParams = (message: string): ProtocolError => new ProtocolError(ProtocolErrorCode.InvalidParams, message);

/** Makes a fresh SDK server; `track` is told about it until it closes (for list-changed notifications). */
export type ServerFactory = (track?: (server: Server) => void) => Server;

/** A plain `tools/call` (direct-path.ts): what the direct path hands the server. */
export interface DirectCall {
  readonly name: string;
  readonly args: Readonly<Record<string, unknown>>;
  /** The call's signal, made on first need (aborted by `notifications/cancelled`, or the HTTP client going away). */
  readonly signalOf: () => AbortSignal;
  /** The HTTP caller's scopes, when the service authenticated the request. */
  readonly scopes?: ReadonlyArray<string>;
}

/** One served source: SDK servers, and the direct answer of plain calls, sharing one invoker and one lock. */
export interface McpServing {
  readonly create: ServerFactory;
  /**
   * The result of a plain call, as the SDK's `tools/call` would give it (its wire schema applied);
   * `undefined` when the tool is unknown (the SDK's error answers it, naming the tools).
   */
  readonly call: (call: DirectCall) => Promise<DirectAnswer> | undefined;
  /**
   * Whether a connection's plain calls may be answered directly: its 2025-era `initialize` is done,
   * it set no log level and its client cannot be asked (elicitation); the SDK path then calls the
   * tool exactly as the direct path does.
   */
  readonly plain: (server: Server) => boolean;
  /**
   * The `tools/list` result of a page, as the SDK sends it to a 2025-era client; `undefined` when
   * the SDK must answer (a cursor the server did not give; an output schema that is not an object,
   * which the SDK rewrites for 2025-era clients).
   */
  readonly list: (cursor: string | undefined) => Readonly<Record<string, unknown>> | undefined;
}

/** Options of one call, as both paths give them. */
interface RunOptions {
  readonly log: ((l: Level, data: Record<string, unknown>) => void) | undefined;
  readonly onProgress: ProgressReporter | undefined;
  readonly approver: Approver | undefined;
  readonly signalOf: () => AbortSignal;
  readonly scopes: ReadonlyArray<string> | undefined;
}

/** The SDK's error for a call of a tool the server does not have, naming the tools there are. */
const unknownTool = (s: ReturnType<typeof servedTools>, name: string): ProtocolError => {
  const names = [...s.byMcpName.keys()];
  return new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `unknown tool "${name}"; the tools of this server are: ${names.length > 0 ? names.join(', ') : 'none'} (the list may have changed: list the tools again)`,
    { code: McpCodes.UNKNOWN_TOOL, tools: names },
  );
};

/** Whether a connection speaks a 2025-era revision (negotiated by `initialize`; none before it). */
const isLegacyConnection = (server: Server): boolean => {
  // deprecated for handlers (which read the request's envelope); here it is the connection's era
  const version = server.getNegotiatedProtocolVersion();
  return version !== undefined && SUPPORTED_PROTOCOL_VERSIONS.includes(version);
};

const ACCEPT_EVERYTHING: jsonSchemaValidator = {
  getValidator: () => (input: unknown) => ({ valid: true, data: input as never, errorMessage: undefined }),
};

// -------------------------------------------------------------------------------------------------
// the factory
// -------------------------------------------------------------------------------------------------

/**
 * The server's invoker: with policies, calls that change state run alone on `lock` and every call is
 * judged when it starts; without, `invoke`.
 */
const serverInvoker = (options: McpGateOptions, lock: CallLock): Invoker =>
  options.policies === undefined
    ? createInvoker([])
    : createInvoker([serialise(lock), gateStep({ policies: options.policies, ...(options.approver !== undefined ? { approver: options.approver } : {}) })]);

export const mcpServing = (source: McpToolSource, options: McpServeOptions = {}): McpServing => {
  // one lock for every connection of the server; a call whose client is asked (elicitation) gets
  // an invoker of its own with that approver, on the same lock
  const lock = new CallLock();
  const invoker = serverInvoker(options, lock);
  const reported = new WeakSet<ReadonlyArray<BoundTool>>();
  const served = () => {
    const tools = source.tools();
    const s = servedTools(tools);
    if (!reported.has(tools)) {
      reported.add(tools);
      for (const d of s.diagnostics) {
        options.onDiagnostic?.(
          d.severity === 'error'
            ? error(McpCodes.TOOL_NOT_SERVED, `a tool is left out of tools/list: ${d.message}`, { ...(d.hint !== undefined ? { hint: d.hint } : {}) })
            : d,
        );
      }
    }
    return s;
  };
  const pageSize = options.pageSize !== undefined && Number.isSafeInteger(options.pageSize) && options.pageSize > 0 ? options.pageSize : DEFAULT_PAGE_SIZE;
  const page = <A>(items: ReadonlyArray<A>, cursor: unknown) => {
    const p = pageOf(items, cursor, pageSize);
    if (!p.ok) throw invalidParams(p.message);
    return p;
  };
  // the level a 2025-era client set on a connection; none: no log notifications
  const levels = new WeakMap<Server, Level>();
  /** Runs one call of a served tool: the source's `call`, else the server's invoker (one with the client's approver when it is asked). */
  const run = async (bound: BoundTool, name: string, args: unknown, o: RunOptions): Promise<ToolResult> => {
    // one literal of every field (an absent one undefined): invoke reads a spread-made object several times slower
    const callOptions = { timeoutMs: options.timeoutMs, onProgress: o.onProgress, signalOf: undefined as (() => AbortSignal) | undefined };
    o.log?.('debug', { event: 'invoked', tool: name, args });
    const t0 = o.log !== undefined ? performance.now() : 0;
    const result: ToolResult =
      source.call !== undefined
        ? await source.call(bound, args, {
            ...callOptions,
            signal: o.signalOf(),
            ...(o.scopes !== undefined ? { scopes: new Set(o.scopes) } : {}),
            ...(o.approver !== undefined ? { approver: o.approver } : {}),
          })
        : await (o.approver === options.approver
            ? invoker
            : serverInvoker({ ...options, ...(o.approver !== undefined ? { approver: o.approver } : {}) }, lock))(bound, args, {
            ...callOptions,
            signalOf: o.signalOf,
          });
    if (o.log !== undefined) {
      const durationMs = Math.round(performance.now() - t0);
      if (result.ok) o.log('info', { event: 'result', tool: name, durationMs });
      else
        o.log('warning', {
          event: 'failed',
          tool: name,
          code: result.error.code,
          reason: String(result.error.reason),
          message: result.error.message,
          durationMs,
        });
    }
    return result;
  };
  const toolsPage = (items: ReadonlyArray<unknown>, nextCursor: string | undefined) => ({
    tools: items,
    ...(nextCursor !== undefined ? { nextCursor } : {}),
  });
  const list = (cursor: string | undefined): Readonly<Record<string, unknown>> | undefined => {
    const p = pageOf(served().definitions, cursor, pageSize);
    if (!p.ok || p.items.some((d) => isRecord(d['outputSchema']) && d['outputSchema']['type'] !== 'object')) return undefined;
    return toolsPage(p.items, p.nextCursor);
  };
  const call = (c: DirectCall): Promise<DirectAnswer> | undefined => {
    const s = served();
    const bound = s.byMcpName.get(c.name);
    if (bound === undefined) return undefined;
    return run(bound, c.name, c.args, { log: undefined, onProgress: undefined, approver: options.approver, signalOf: c.signalOf, scopes: c.scopes }).then(
      (result) => wireCallResult(toMcpCallResult(result, s.structured.has(c.name))),
    );
  };
  const plain = (server: Server): boolean => {
    const client = server.getClientCapabilities();
    return client !== undefined && client.elicitation === undefined && !levels.has(server) && isLegacyConnection(server);
  };
  const create: ServerFactory = (track) => {
    const server = new Server(
      { name: options.name ?? 'gramkit', version: options.version ?? '0.0.0' },
      {
        capabilities: { tools: { listChanged: true }, prompts: {}, resources: {}, logging: {} },
        ...(options.instructions !== undefined ? { instructions: options.instructions } : {}),
        jsonSchemaValidator: ACCEPT_EVERYTHING,
      },
    );
    server.setRequestHandler('logging/setLevel', async (request) => {
      const l = request.params.level as Level;
      if (!LEVELS.includes(l)) throw invalidParams(`unknown log level ${JSON.stringify(l)}; the levels are: ${LEVELS.join(', ')}`);
      levels.set(server, l);
      return {};
    });
    server.setRequestHandler('tools/list', async (request) => {
      const p = page(served().definitions, request.params?.cursor);
      return toolsPage(p.items, p.nextCursor) as never;
    });
    server.setRequestHandler('prompts/list', async (request) => {
      const p = page(source.agents?.() ?? [], request.params?.cursor);
      return { prompts: p.items.map(promptDefinition) as never, ...(p.nextCursor !== undefined ? { nextCursor: p.nextCursor } : {}) };
    });
    server.setRequestHandler('prompts/get', async (request) => {
      const agents = source.agents?.() ?? [];
      const agent = agents.find((a) => a.name === request.params.name);
      if (agent === undefined)
        throw invalidParams(
          `unknown prompt "${request.params.name}"; the prompts of this server are: ${agents.length > 0 ? agents.map((a) => a.name).join(', ') : 'none'}`,
        );
      const task = request.params.arguments?.['task'];
      return promptMessages(agent, new Set(source.tools().map((b) => b.name)), typeof task === 'string' ? task : undefined) as never;
    });
    server.setRequestHandler('resources/list', async (request) => {
      const p = page(resourceDefinitions(source.tools()), request.params?.cursor);
      return { resources: p.items as never, ...(p.nextCursor !== undefined ? { nextCursor: p.nextCursor } : {}) };
    });
    server.setRequestHandler('resources/templates/list', async () => ({ resourceTemplates: [] }));
    server.setRequestHandler('resources/read', async (request) => {
      const r = readResource(source.tools(), request.params.uri);
      if (r === undefined)
        throw new ProtocolError(-32002 as ProtocolErrorCode, `no resource ${request.params.uri}; list the resources to see what there is`, {
          uri: request.params.uri,
        });
      return r as never;
    });
    server.setRequestHandler('tools/call', async (request, ctx) => {
      const s = served();
      const name = request.params.name;
      const bound = s.byMcpName.get(name);
      if (bound === undefined) throw unknownTool(s, name);
      // log notifications: the level of the request (2026-07-28) or of the connection (2025)
      const envelopeLevel = ctx.mcpReq.envelope?.[LOG_LEVEL_KEY as never] as Level | undefined;
      const threshold = envelopeLevel ?? levels.get(server);
      const log =
        threshold === undefined
          ? undefined
          : (l: Level, data: Record<string, unknown>): void => {
              if (LEVELS.indexOf(l) >= LEVELS.indexOf(threshold)) void ctx.mcpReq.log(l, data, 'gramkit').catch(() => {});
            };
      const token =
        (request.params._meta as Record<string, unknown> | undefined)?.['progressToken'] ??
        (ctx.mcpReq._meta as Record<string, unknown> | undefined)?.['progressToken'];
      const onProgress: ProgressReporter | undefined =
        typeof token === 'string' || typeof token === 'number'
          ? (done, total, message) =>
              void ctx.mcpReq
                .notify({
                  method: 'notifications/progress',
                  params: { progressToken: token, progress: done, ...(total !== undefined ? { total } : {}), ...(message !== undefined ? { message } : {}) },
                })
                .catch(() => {})
          : undefined;
      // approvals: the client asks its user when it can (2025-era elicitation), else the server's approver
      const canElicit = ctx.mcpReq.envelope === undefined && server.getClientCapabilities()?.elicitation !== undefined;
      const approver: Approver | undefined = canElicit
        ? elicitationApprover(((form, o) => ctx.mcpReq.elicitInput(form as never, o)) as Elicit)
        : options.approver;
      // over stateless HTTP a cancellation reaches the call as the client closing its request
      const request_ = ctx.http?.req;
      const result = await run(bound, name, request.params.arguments ?? {}, {
        log,
        onProgress,
        approver,
        // the request's signal is made on first need: a tool that answers at once, ungated by a person, never needs one
        signalOf: request_ !== undefined ? () => AbortSignal.any([ctx.mcpReq.signal, request_.signal]) : () => ctx.mcpReq.signal,
        scopes: ctx.http?.authInfo?.scopes,
      });
      return toMcpCallResult(result, s.structured.has(name)) as never;
    });
    track?.(server);
    return server;
  };
  return { create, call, plain, list };
};
