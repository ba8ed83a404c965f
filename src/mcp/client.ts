/**
 * Connecting to an MCP server (`mcp:<url>` or `mcp+stdio:<command line>`) and taking its tools:
 * `tools/list` (every page) goes through the specification importer (`importDefinitions`, MCP
 * format), so each tool becomes a `ToolSpecification`, and each gets a remote implementation in a
 * `ToolLibrary` (`remote-tool.ts`). The result binds like any library: the same agent can run
 * against local tools and against the server's in an A/B experiment.
 *
 * The connection stays open until `close()`, which also ends a stdio server's process. The client
 * is the SDK's v2 `Client` (`@modelcontextprotocol/client`, an optional peer dependency, loaded
 * only here); it speaks the 2025 handshake, which servers of both SDK lines answer.
 */
import { messageOf } from '../core/message.js';
import { type Either, left, right, isLeft } from '../core/either.js';
import { type CodedError, codedError, err, ok, type Result } from '../core/result.js';
import { type Diagnostic, error, info } from '../core/diagnostic.js';
import type { JsonObject } from '../core/json-schema.js';
import { type ToolLibrary, toolLibrary } from '../library/tool-library.js';
import type { ImportReport } from '../specification/import.js';
import type { ToolSpecification } from '../specification/tool-spec.js';
import { type McpAddress, parseMcpAddress } from './address.js';
import { clientFetch } from './client-fetch.js';
import { McpCodes } from './codes.js';
import { importMcpTools } from './import-tools.js';
import { remoteTool } from './remote-tool.js';
import type { SafetyLevel } from '../library/tool.js';
import { ToolFailure } from '../library/result.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface ConnectMcpOptions {
  /** The working directory of a stdio server's process. */
  readonly cwd?: string;
  /** Variables for a stdio server's process, added to the SDK's safe default set (PATH, HOME, ...). */
  readonly env?: Readonly<Record<string, string>>;
  /** What a stdio server's process writes to stderr (by default it is kept only to explain a failed start). */
  readonly onStderr?: (text: string) => void;
  /** HTTP headers of every request (an `Authorization` header...). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Longest wait for the handshake and for each page of `tools/list`, in milliseconds (default 30 s). */
  readonly timeoutMs?: number;
  /**
   * Longest wait for a `tools/call`, in milliseconds, when the caller gives no timeout of its own
   * (default 120 s): a server that never answers fails the call with `TOOL_TIMEOUT` (retryable) and the
   * request is cancelled on the server. A caller's timeout (`invoke`'s) takes precedence.
   */
  readonly callTimeoutMs?: number;
  /**
   * Largest answer read from the server, in bytes (default 32 MiB): a result (or any one message)
   * larger is not read further and the call fails with `MCP_RESULT_TOO_LARGE`, so a hostile server
   * cannot exhaust the client's memory. Over stdio the connection ends with it.
   */
  readonly maxResultBytes?: number;
  /**
   * The permissions the user grants the server's tools (also `#grant=…` at the end of the address;
   * this option wins). A remote tool's permissions are this grant, never what the server claims;
   * without one they are `*`, which a run restricted by `ALLOWED_TOOL_PERMS` refuses.
   */
  readonly grant?: ReadonlyArray<string>;
  /**
   * The safety level the user grants the server's tools (also `level=…` in `#grant=…`; this
   * option wins). Never what the server claims; without one it is `high`, the most cautious, so a
   * run's maximum safety level and its approvals hold for them.
   */
  readonly safetyLevel?: SafetyLevel;
  /** The client's name and version in the handshake (default `gramkit`). */
  readonly clientName?: string;
  readonly clientVersion?: string;
}

export interface McpConnection {
  readonly address: McpAddress;
  /** The server's name and version from the handshake, and its instructions. */
  readonly server: { readonly name: string; readonly version: string; readonly instructions?: string };
  /** The server's tool definitions, as `tools/list` gave them. */
  readonly definitions: ReadonlyArray<JsonObject>;
  /** The import of those definitions: a specification per tool that could be imported, diagnostics for the rest. */
  readonly imported: ImportReport;
  /** The imported specifications, in the server's order. */
  readonly specifications: ReadonlyArray<ToolSpecification>;
  /** A remote implementation of every tool of the server, by name. */
  readonly library: ToolLibrary;
  /** Tools that could not be imported (each one's reasons), and notes of what changed on the way. */
  readonly diagnostics: ReadonlyArray<Diagnostic>;
  /** Closes the connection (a stdio server's process ends). Idempotent. */
  readonly close: () => Promise<void>;
}

type ClientSdk = typeof import('@modelcontextprotocol/client');
type StdioSdk = typeof import('@modelcontextprotocol/client/stdio');

const DEFAULT_TIMEOUT_MS = 30_000;
/** Default longest wait for a `tools/call` (`callTimeoutMs`). */
export const DEFAULT_MCP_CALL_TIMEOUT_MS = 120_000;
/** Default largest answer read from a server (`maxResultBytes`). */
export const DEFAULT_MCP_MAX_RESULT_BYTES = 32 * 1024 * 1024;
/** The SDK's own per-request timeout for calls: off in practice (invoke's timeout governs calls). */
const CALL_TIMEOUT_MS = 2_147_483_647;
const MAX_PAGES = 1000;
const STDERR_KEPT = 4000;

// -------------------------------------------------------------------------------------------------
// connecting
// -------------------------------------------------------------------------------------------------

const loadSdk = async (stdio: boolean): Promise<{ readonly client: ClientSdk; readonly stdio?: StdioSdk } | Diagnostic> => {
  try {
    const client = await import('@modelcontextprotocol/client');
    return stdio ? { client, stdio: await import('@modelcontextprotocol/client/stdio') } : { client };
  } catch (e) {
    return error(McpCodes.SDK_MISSING, `the MCP client SDK could not be loaded: ${messageOf(e)}`, {
      hint: 'install it: npm install @modelcontextprotocol/client',
    });
  }
};

/** A failure found as a diagnostic (an address, the SDK), as the coded error of a connection. */
const failureOf = (d: Diagnostic): CodedError => codedError(d.code, d.message, d.hint !== undefined ? { hint: d.hint } : {});

/**
 * Connects to the server at `address`, lists its tools and imports them: the connection, or why
 * there is none (`MCP_INVALID_ADDRESS`, `MCP_SDK_MISSING`, `MCP_CONNECT_FAILED`, `MCP_LIST_FAILED`).
 * Never rejects. What the CLI opens servers with.
 */
export const openMcpConnection = async (address: string | McpAddress, options: ConnectMcpOptions = {}): Promise<Result<McpConnection, CodedError>> => {
  const parsed = typeof address === 'string' ? parseMcpAddress(address) : right(address);
  if (isLeft(parsed)) return err(failureOf(parsed.left));
  const where = parsed.right;
  const sdk = await loadSdk(where.kind === 'stdio');
  if ('code' in sdk) return err(failureOf(sdk));
  const timeout = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = options.maxResultBytes ?? DEFAULT_MCP_MAX_RESULT_BYTES;
  /** How many answers were cut at `maxBytes` (a failed call that saw it grow was too large). */
  let oversized = 0;

  // the transport
  let stderr = '';
  let transport: InstanceType<ClientSdk['StreamableHTTPClientTransport']> | InstanceType<StdioSdk['StdioClientTransport']>;
  if (where.kind === 'http') {
    transport = new sdk.client.StreamableHTTPClientTransport(new URL(where.url), {
      ...(options.headers !== undefined ? { requestInit: { headers: { ...options.headers } } } : {}),
      fetch: clientFetch(maxBytes, () => (oversized += 1)),
    });
  } else {
    const stdio = (sdk.stdio as StdioSdk).StdioClientTransport;
    const t = new stdio({
      command: where.command,
      args: [...where.args],
      env: { ...options.env, ...where.env },
      ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
      stderr: 'pipe',
      // one message (a line) larger than this ends the connection
      maxBufferSize: maxBytes,
    });
    t.stderr?.on('data', (chunk: Buffer | string) => {
      const text = chunk.toString();
      stderr = (stderr + text).slice(-STDERR_KEPT);
      options.onStderr?.(text);
    });
    transport = t;
  }
  const client = new sdk.client.Client({ name: options.clientName ?? 'gramkit', version: options.clientVersion ?? '0.0.0' });
  transport.onerror = (e: Error): void => {
    if (/exceeded maximum size/.test(e.message)) oversized += 1;
  };
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    await client.close().catch(() => {});
  };
  const failed = async (code: string, what: string, e: unknown): Promise<Result<never, CodedError>> => {
    await close();
    const said = stderr.trim();
    return err(
      codedError(code, `${what} ${where.text}: ${messageOf(e)}`, {
        ...(said !== ''
          ? { hint: `the server wrote on stderr:\n${said}` }
          : where.kind === 'stdio'
            ? { hint: 'check that the command runs and speaks MCP on stdin/stdout' }
            : { hint: 'check that the URL is an MCP endpoint (Streamable HTTP) and that the server runs' }),
      }),
    );
  };

  try {
    await client.connect(transport, { timeout });
  } catch (e) {
    return failed(McpCodes.CONNECT_FAILED, 'cannot connect to the MCP server', e);
  }

  // every page of tools/list
  const definitions: JsonObject[] = [];
  try {
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const r = await client.listTools(cursor !== undefined ? { cursor } : undefined, { timeout });
      definitions.push(...(r.tools as unknown as JsonObject[]));
      cursor = r.nextCursor;
      if (cursor === undefined || cursor === '') break;
    }
  } catch (e) {
    return failed(McpCodes.LIST_FAILED, 'cannot list the tools of the MCP server', e);
  }

  // specifications and remote implementations
  const imported = importMcpTools(definitions, where.text);
  const specByName = new Map<string, ToolSpecification>();
  for (const t of imported.tools) if (t.spec !== undefined) specByName.set(t.name, t.spec);
  const isProtocolError = (e: unknown): boolean => e instanceof sdk.client.ProtocolError;
  const call = async (name: string, args: unknown, signal: AbortSignal): Promise<Readonly<Record<string, unknown>>> => {
    if (closed) throw new Error('the connection to the MCP server is closed');
    const before = oversized;
    try {
      const r = await client.callTool({ name, arguments: (args ?? {}) as Record<string, unknown> }, { signal, timeout: CALL_TIMEOUT_MS });
      return r as unknown as Readonly<Record<string, unknown>>;
    } catch (e) {
      if (oversized > before && !signal.aborted)
        throw new ToolFailure(
          McpCodes.RESULT_TOO_LARGE,
          `the answer of the MCP server to "${name}" is larger than ${maxBytes} bytes; it was not read further`,
          { details: { maxResultBytes: maxBytes } },
        );
      throw e;
    }
  };
  const callTimeoutMs = options.callTimeoutMs ?? DEFAULT_MCP_CALL_TIMEOUT_MS;
  const grant = { permissions: options.grant ?? where.grant ?? ['*'], safetyLevel: options.safetyLevel ?? where.level ?? 'high' };
  const tools = definitions
    .filter((d) => typeof d['name'] === 'string')
    .map((d) => remoteTool(d, specByName.get(d['name'] as string), call, isProtocolError, callTimeoutMs, grant));
  const diagnostics: Diagnostic[] = [...imported.diagnostics];
  for (const t of imported.tools) {
    if (t.spec === undefined) {
      diagnostics.push(
        error(
          McpCodes.TOOL_NOT_IMPORTED,
          `the tool "${t.name}" of ${where.text} has no specification: ${t.diagnostics
            .filter((d) => d.severity === 'error')
            .map((d) => d.message)
            .join('; ')}`,
          {
            hint: 'it can still implement a specification you write for it (a library position)',
          },
        ),
      );
    } else diagnostics.push(...t.diagnostics.filter((d) => d.severity === 'warning'));
  }
  const version = client.getServerVersion();
  const instructions = client.getInstructions();
  const specifications = [...specByName.values()];
  if (definitions.length === 0) diagnostics.push(info(McpCodes.LIST_FAILED, `${where.text} serves no tools`));
  return ok(
    Object.freeze({
      address: where,
      server: { name: version?.name ?? 'unknown', version: version?.version ?? 'unknown', ...(instructions !== undefined ? { instructions } : {}) },
      definitions: Object.freeze(definitions),
      imported,
      specifications: Object.freeze(specifications),
      library: toolLibrary(tools),
      diagnostics: Object.freeze(diagnostics),
      close,
    }),
  );
};

/** A connection's failure as the one diagnostic `connectMcp` gives (a specification source's failure is diagnostics). */
export const failureDiagnostic = (e: CodedError): Diagnostic => error(e.reason, e.message, e.hint !== undefined ? { hint: e.hint } : {});

/**
 * Connects to the server at `address`, lists its tools and imports them. Never rejects. A failure
 * is one diagnostic (`MCP_INVALID_ADDRESS`, `MCP_SDK_MISSING`, `MCP_CONNECT_FAILED`, `MCP_LIST_FAILED`).
 */
export const connectMcp = async (address: string | McpAddress, options: ConnectMcpOptions = {}): Promise<Either<ReadonlyArray<Diagnostic>, McpConnection>> => {
  const opened = await openMcpConnection(address, options);
  return opened.ok ? right(opened.value) : left([failureDiagnostic(opened.error)]);
};
