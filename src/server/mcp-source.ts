/**
 * The catalog as an MCP tool source (`gramkit serve` mounts `createMcpHttpHandler` on it at
 * `/mcp`): the enabled, available tools, the newest version of each slug (what agents bind with
 * `--catalog`), each named by its slug.
 *
 * A call goes through the catalog (`invokeTool`, the catalog's invoker): the same validation,
 * serialisation, policies, usage, history and events as the REST invoke routes, and the caller's
 * scopes checked by the same step (`requireScope`). Its result is the call's result as it is
 * (`retryable` kept); a refusal before the tool runs (disabled meanwhile) is a failed call with
 * the catalog's code and its registry's `retryable`. The served tool keeps the record's schemas,
 * limits and annotations, so `tools/list` shows what the catalog stores.
 *
 * `tools()` is synchronous (the MCP server reads it on every request): it answers the list built
 * last, and asks the catalog to sync (another process's writes then arrive as `changed` events).
 * Every `changed` event rebuilds the list, then tells the subscribers (`notifications/tools/list_changed`).
 */
import type { Catalog } from '../catalog/catalog.js';
import type { ToolRecord } from '../catalog/records.js';
import { retryableCode } from '../core/codes.js';
import { type BoundTool, bindTool } from '../library/bind.js';
import { fail, type ToolResult } from '../library/result.js';
import { createTool, type Tool } from '../library/tool.js';
import { emptyToolLibrary, registerTool } from '../library/tool-library.js';
import { McpCodes } from '../mcp/codes.js';
import type { McpToolSource, SourceCallOptions } from '../mcp/tool-source.js';
import { Scopes } from './codes.js';
import { requireScope } from './scopes.js';
import type { Mount } from './service.js';

export interface CatalogToolSource extends McpToolSource {
  readonly subscribe: (onChange: () => void) => () => void;
  /** Resolves once the list reflects the catalog as it is now. */
  readonly ready: () => Promise<void>;
  readonly close: () => void;
}

/** One call of a catalog tool: through the catalog's invoker, the caller's scope checked first. Never rejects. */
const callThroughCatalog = async (catalog: Catalog, toolID: string, args: unknown, options: SourceCallOptions): Promise<ToolResult> => {
  const r = await catalog.invokeTool({ id: toolID }, args, {
    ...(options.signal !== undefined ? { signal: options.signal } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.scopes !== undefined ? { steps: [requireScope(options.scopes, Scopes.INVOKE)] } : {}),
  });
  if (r.ok) return r.value;
  return fail(r.error.code, r.error.message, { ...(r.error.details !== undefined ? { details: r.error.details } : {}), retryable: retryableCode(r.error.code) });
};

/** The catalog tool each served tool stands for. */
const servedIds = new WeakMap<object, string>();

/** A tool whose calls go through the catalog, with the catalog tool's name, schemas, limits and annotations. */
const throughCatalog = (catalog: Catalog, record: ToolRecord, shape: Tool): Tool => {
  const tool = createTool(shape.name, shape.description, shape.schema, (args: unknown, ctx) => callThroughCatalog(catalog, record.toolID, args, { signal: ctx.signal }), {
    ...(shape.outputSchema !== undefined ? { outputSchema: shape.outputSchema } : {}),
    ...(shape.limits !== undefined ? { limits: shape.limits } : {}),
    ...(shape.annotations !== undefined ? { annotations: shape.annotations } : {}),
  });
  servedIds.set(tool, record.toolID);
  return tool;
};

export const catalogToolSource = (catalog: Catalog): CatalogToolSource => {
  let current: ReadonlyArray<BoundTool> = Object.freeze([]);
  const listeners = new Set<() => void>();
  let building: Promise<void> | undefined;
  let again = false;
  let syncing = false;

  const build = async (): Promise<void> => {
    const out: BoundTool[] = [];
    for (const { record } of await catalog.specifications()) {
      const b = await catalog.boundTool({ id: record.toolID });
      if (!b.ok) continue;
      const tool = throughCatalog(catalog, record, b.value.tool);
      const bound = bindTool(b.value.spec, registerTool(tool.name, tool, emptyToolLibrary), b.value.options);
      if (bound._tag === 'Right') out.push(bound.right);
    }
    current = Object.freeze(out);
  };

  /** Rebuilds (once more if a change came while building), then notifies. */
  const rebuild = (): Promise<void> => {
    if (building !== undefined) {
      again = true;
      return building;
    }
    building = (async () => {
      do {
        again = false;
        await build().catch(() => undefined);
      } while (again);
      building = undefined;
      for (const l of [...listeners]) {
        try {
          l();
        } catch {
          // a listener cannot break the source
        }
      }
    })();
    return building;
  };

  const unsubscribe = catalog.subscribe((e) => {
    if (e.type === 'changed') void rebuild();
  });
  const first = rebuild();

  return Object.freeze({
    call: (bound: BoundTool, args: unknown, options: SourceCallOptions): Promise<ToolResult> => {
      const id = servedIds.get(bound.tool);
      return id !== undefined
        ? callThroughCatalog(catalog, id, args, options)
        : Promise.resolve(fail(McpCodes.UNKNOWN_TOOL, `"${bound.name}" is not a tool of this catalog`));
    },
    tools: () => {
      if (!syncing) {
        syncing = true;
        void catalog.sync().finally(() => {
          syncing = false;
        });
      }
      return current;
    },
    subscribe: (onChange: () => void) => {
      listeners.add(onChange);
      return () => void listeners.delete(onChange);
    },
    ready: async () => {
      await first;
      while (building !== undefined) await building;
    },
    close: () => {
      unsubscribe();
      listeners.clear();
    },
  });
};

/** What `gramkit serve` mounts at `/mcp`: the catalog's tools over MCP Streamable HTTP. */
export interface McpMount {
  readonly mount: Mount;
  readonly source: CatalogToolSource;
  readonly close: () => Promise<void>;
}

/** Why the MCP endpoint could not be made (the SDK, an optional peer, is not installed). */
export interface McpMountError {
  readonly code: typeof McpCodes.SDK_MISSING;
  readonly message: string;
}

/**
 * The MCP endpoint of a service: `createMcpHttpHandler` over the catalog's tools, at `path`
 * (default `/mcp`). `local`: the server listens on loopback, so the handler keeps its DNS-rebinding
 * checks (Host and Origin must be local names); otherwise the service's token guards it and the
 * checks are off. The MCP server SDK is an optional peer, loaded here (not when `gramkit/server`
 * is): without it the answer is `MCP_SDK_MISSING`, and the service runs without `/mcp`.
 */
export const catalogMcpMount = async (
  catalog: Catalog,
  options: { readonly path?: string; readonly local?: boolean; readonly name?: string; readonly version?: string } = {},
): Promise<{ readonly ok: true; readonly value: McpMount } | { readonly ok: false; readonly error: McpMountError }> => {
  let createMcpHttpHandler: typeof import('../mcp/http-handler.js').createMcpHttpHandler;
  try {
    ({ createMcpHttpHandler } = await import('../mcp/http-handler.js'));
  } catch (e) {
    return { ok: false, error: { code: McpCodes.SDK_MISSING, message: `MCP at /mcp needs the MCP server SDK, which could not be loaded (npm install @modelcontextprotocol/server): ${e instanceof Error ? e.message : String(e)}` } };
  }
  const source = catalogToolSource(catalog);
  const handler = createMcpHttpHandler(source, {
    name: options.name ?? 'gramkit-catalog',
    ...(options.version !== undefined ? { version: options.version } : {}),
    ...(options.local === false ? { allowedHosts: 'any' as const, allowedOrigins: 'any' as const } : {}),
  });
  return {
    ok: true,
    value: {
      mount: { path: options.path ?? '/mcp', handler: handler.fetch },
      source,
      close: async () => {
        source.close();
        await handler.close();
      },
    },
  };
};
