/**
 * The catalog as an MCP tool source (`gramkit serve` mounts `createMcpHttpHandler` on it at
 * `/mcp`): the enabled, available tools, each bundle's newest version of each slug (what agents
 * bind with `--catalog`).
 *
 * A call goes through the catalog (`invokeTool`, the catalog's invoker): the same validation,
 * serialisation, policies, usage, history and events as the REST invoke routes, and the caller's
 * scopes checked by the same step (`requireScope`). Its result is the call's result as it is
 * (`retryable` kept); a refusal before the tool runs (disabled meanwhile) is a failed call with
 * the catalog's code and its registry's `retryable`. The served tool keeps the record's schemas,
 * limits and annotations, so `tools/list` shows what the catalog stores. A call that needs approval
 * waits in the service's queue (`approvals`), as a REST call does, until a person decides over REST
 * (or the MCP client decides, when it can be asked through elicitation); the MCP server calls
 * through `call`, so each call's approver and progress listener reach the catalog's gate.
 *
 * Names follow the catalog's one rule (`servedTools`, catalog/served-names.ts): the slug for the
 * bundle that owns it, `<bundle>__<slug>` for the others, so a registration never takes a
 * built-in's or another bundle's name.
 *
 * The list is built once, after the catalog opens (`ready()` resolves then), and kept, not rebuilt:
 * a change to a record only marks its slug (a bundle's change, the slugs of its tools) and tells
 * the subscribers (`notifications/tools/list_changed`, once per turn of the event loop however
 * many changes came). `tools()` is synchronous (the MCP server reads it on every request): it
 * binds the slugs marked since it was last read, on the state as it is (`servedNow`, `boundNow`:
 * no store round trip), and asks the catalog to sync (another process's writes then arrive as
 * changes). So a write binds nothing (its cost is the same whether or not `/mcp` is used, in a
 * catalog of a hundred tools or of a hundred thousand), a read after writes binds each changed
 * slug once, and a tool written through any server is in the next `tools/list` or `tools/call`
 * that begins after the write was applied here.
 */
import type { Catalog } from '../catalog/catalog.js';
import type { ToolRecord } from '../catalog/records/records.js';
import type { ServedTool } from '../catalog/served-names.js';
import { retryableCode } from '../core/codes.js';
import { type CodedError, codedError, type Result } from '../core/result.js';
import { type BoundTool, bindTool } from '../library/bind.js';
import { fail, type ToolResult } from '../library/result.js';
import { createTool, type Tool } from '../library/tool.js';
import { emptyToolLibrary, registerTool } from '../library/tool-library.js';
import { McpCodes } from '../mcp/codes.js';
import type { McpToolSource, SourceCallOptions } from '../mcp/tool-source.js';
import { type ApprovalQueue, queueApprover } from '../policy/approval-queue.js';
import { Scopes } from './codes.js';
import { requireScope } from './scopes.js';
import type { FetchHandler, Mount } from './service.js';
import { isLeft } from '../core/either.js';

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
    ...(options.onProgress !== undefined ? { onProgress: options.onProgress } : {}),
    ...(options.approver !== undefined ? { approver: options.approver } : {}),
    ...(options.scopes !== undefined ? { steps: [requireScope(options.scopes, Scopes.INVOKE)] } : {}),
  });
  if (r.ok) return r.value;
  return fail(r.error.reason, r.error.message, {
    ...(r.error.details !== undefined ? { details: r.error.details } : {}),
    retryable: retryableCode(r.error.reason),
  });
};

/** The catalog tool each served tool stands for. */
const servedIds = new WeakMap<object, string>();

/** A tool whose calls go through the catalog, with the catalog tool's name, schemas, limits and annotations. */
const throughCatalog = (catalog: Catalog, record: ToolRecord, shape: Tool): Tool => {
  const tool = createTool(
    shape.name,
    shape.description,
    shape.schema,
    (args: unknown, ctx) =>
      callThroughCatalog(catalog, record.toolID, args, { signal: ctx.signal, ...(ctx.progress !== undefined ? { onProgress: ctx.progress } : {}) }),
    {
      ...(shape.outputSchema !== undefined ? { outputSchema: shape.outputSchema } : {}),
      ...(shape.limits !== undefined ? { limits: shape.limits } : {}),
      ...(shape.annotations !== undefined ? { annotations: shape.annotations } : {}),
    },
  );
  servedIds.set(tool, record.toolID);
  return tool;
};

/** Past this many changed slugs not yet read, the list is made again from every slug when it is next read (instead of keeping them one by one). */
const DIRTY_LIMIT = 65_536;

/** `approvals`: the service's queue, where calls that need approval wait (else the catalog's approver answers). */
export const catalogToolSource = (catalog: Catalog, options: { readonly approvals?: ApprovalQueue } = {}): CatalogToolSource => {
  const approvals = options.approvals;
  /** The served tools: a flat list, each tool's place in it by name, and the names of each slug. */
  const list: BoundTool[] = [];
  const place = new Map<string, number>();
  const namesOf = new Map<string, ReadonlyArray<string>>();
  /** Bound tools by tool id, kept while the record and its served name stay the same. */
  const made = new Map<string, { readonly key: string; readonly bound: BoundTool }>();
  let snapshot: ReadonlyArray<BoundTool> = Object.freeze([]);
  let stale = false;
  const listeners = new Set<() => void>();
  /** The slugs changed since the list was last read (bound when it is next read, not when they change). */
  const dirty = new Set<string>();
  /** Too many changed slugs to keep: every slug is looked at again when the list is next read. */
  let everything = false;
  /** The first build, until it is done (the list is not read from the state meanwhile). */
  let first: Promise<void> | undefined;
  let notifying = false;
  let syncing = false;

  /** Takes a name off the list (and its tool out of the cache, unless bound again meanwhile). */
  const remove = (name: string): void => {
    const i = place.get(name);
    if (i === undefined) return;
    const gone = list[i] as BoundTool;
    const id = servedIds.get(gone.tool);
    if (id !== undefined && made.get(id)?.bound === gone) made.delete(id);
    const last = list.pop() as BoundTool;
    place.delete(name);
    if (i < list.length) {
      list[i] = last;
      place.set(last.name, i);
    }
  };

  const put = (b: BoundTool): void => {
    const i = place.get(b.name);
    if (i !== undefined) list[i] = b;
    else {
      place.set(b.name, list.length);
      list.push(b);
    }
  };

  /** The record bound under its served name, through the catalog (made once per record version and name). */
  const bind = (name: string, record: ToolRecord): BoundTool | undefined => {
    const key = `${name}\u0000${record.modifiedAt}\u0000${record.type}`;
    const cached = made.get(record.toolID);
    if (cached?.key === key) return cached.bound;
    const b = catalog.boundNow({ id: record.toolID });
    if (!b.ok) return undefined;
    const shape =
      b.value.tool.name === name ? b.value.tool : createTool(name, b.value.tool.description, b.value.tool.schema, b.value.tool.invoke, b.value.tool);
    const tool = throughCatalog(catalog, record, shape);
    const bound = bindTool({ ...b.value.spec, name }, registerTool(tool.name, tool, emptyToolLibrary), b.value.options);
    if (isLeft(bound)) return undefined;
    made.set(record.toolID, { key, bound: bound.right });
    return bound.right;
  };

  /** Binds the served tools of these slugs (`served`, read from the state just now): the other entries stay as they are. */
  const apply = (slugs: Iterable<string>, served: ReadonlyArray<ServedTool>): void => {
    const seen = new Map<string, string[]>();
    for (const slug of slugs) seen.set(slug, []);
    const fresh: BoundTool[] = [];
    for (const { name, record } of served) {
      const b = bind(name, record);
      if (b === undefined) continue;
      fresh.push(b);
      const names = seen.get(record.slug) ?? [];
      names.push(name);
      seen.set(record.slug, names);
    }
    for (const [slug, names] of seen) {
      const keep = new Set(names);
      for (const old of namesOf.get(slug) ?? []) if (!keep.has(old)) remove(old);
      if (names.length > 0) namesOf.set(slug, names);
      else namesOf.delete(slug);
    }
    for (const b of fresh) put(b);
    stale = true;
  };

  /** The changes told of since the list was last read, bound now (each slug once, however often it changed). */
  const catchUp = (): void => {
    if (first !== undefined || (dirty.size === 0 && !everything)) return;
    if (everything) {
      const slugs = new Set([...namesOf.keys(), ...dirty]);
      everything = false;
      dirty.clear();
      apply(slugs, catalog.servedNow());
      return;
    }
    const slugs = [...dirty];
    dirty.clear();
    apply(slugs, catalog.servedNow(slugs));
  };

  const notify = (): void => {
    for (const l of [...listeners]) {
      try {
        l();
      } catch {
        // a listener cannot break the source
      }
    }
  };

  // a change marks its slugs, and the subscribers are told once the change is done (the list is
  // bound when it is read next: a write binds nothing, however many follow before a read)
  const unsubscribe = catalog.onServedChange((slugs) => {
    if (!everything) for (const s of slugs) dirty.add(s);
    if (dirty.size > DIRTY_LIMIT) {
      everything = true;
      dirty.clear();
    }
    if (notifying || first !== undefined || listeners.size === 0) return;
    notifying = true;
    setImmediate(() => {
      notifying = false;
      notify();
    });
  });
  // the first build: every served tool, after a sync (the subscribers are told when it is done)
  first = catalog
    .servedTools()
    .then((served) =>
      apply(
        served.map((s) => s.record.slug),
        served,
      ),
    )
    .catch(() => {
      everything = true;
    })
    .finally(() => {
      first = undefined;
      notify();
    });

  return Object.freeze({
    call: (bound: BoundTool, args: unknown, options: SourceCallOptions): Promise<ToolResult> => {
      const id = servedIds.get(bound.tool);
      if (id === undefined) return Promise.resolve(fail(McpCodes.UNKNOWN_TOOL, `"${bound.name}" is not a tool of this catalog`));
      // the client's elicitation when it can ask, else the service's queue (a person decides over REST)
      const approver = options.approver ?? (approvals !== undefined ? queueApprover(approvals, { via: 'mcp' }, () => options.signal) : undefined);
      return callThroughCatalog(catalog, id, args, { ...options, ...(approver !== undefined ? { approver } : {}) });
    },
    tools: () => {
      if (!syncing) {
        syncing = true;
        void catalog.sync().finally(() => {
          syncing = false;
        });
      }
      catchUp();
      if (stale) {
        stale = false;
        snapshot = Object.freeze(list.slice());
      }
      return snapshot;
    },
    subscribe: (onChange: () => void) => {
      listeners.add(onChange);
      return () => void listeners.delete(onChange);
    },
    ready: async () => {
      await first;
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
export type McpMountError = CodedError<typeof McpCodes.SDK_MISSING>;

/** `createMcpHttpHandler`, from the module that loads the MCP server SDK. */
type HandlerFactory = typeof import('../mcp/http-handler.js').createMcpHttpHandler;

const loadHandlerFactory = async (): Promise<HandlerFactory> => (await import('../mcp/http-handler.js')).createMcpHttpHandler;

/**
 * The MCP endpoint of a service: `createMcpHttpHandler` over the catalog's tools, at `path`
 * (default `/mcp`). `local`: the server listens on loopback, so the handler keeps its DNS-rebinding
 * checks (Host and Origin must be local names); otherwise the service's token guards it and the
 * checks are off. The MCP server SDK is an optional peer, loaded here (not when `gramkit/server`
 * is): without it the answer is `MCP_SDK_MISSING`, and the service runs without `/mcp`.
 * `lazy`: for a caller that carries the SDK itself (the CLI bundles it, so it cannot be missing),
 * the SDK and zod are loaded on the first request to `/mcp` instead (not at every start).
 */
export const catalogMcpMount = async (
  catalog: Catalog,
  options: {
    readonly path?: string;
    readonly local?: boolean;
    readonly name?: string;
    readonly version?: string;
    readonly approvals?: ApprovalQueue;
    readonly lazy?: boolean;
  } = {},
): Promise<Result<McpMount, McpMountError>> => {
  let eager: HandlerFactory | undefined;
  if (options.lazy !== true) {
    try {
      eager = await loadHandlerFactory();
    } catch (e) {
      return {
        ok: false,
        error: codedError(
          McpCodes.SDK_MISSING,
          `MCP at /mcp needs the MCP server SDK, which could not be loaded (npm install @modelcontextprotocol/server): ${e instanceof Error ? e.message : String(e)}`,
        ),
      };
    }
  }
  const source = catalogToolSource(catalog, options.approvals !== undefined ? { approvals: options.approvals } : {});
  const create = (factory: HandlerFactory) =>
    factory(source, {
      name: options.name ?? 'gramkit-catalog',
      ...(options.version !== undefined ? { version: options.version } : {}),
      ...(options.local === false ? { allowedHosts: 'any' as const, allowedOrigins: 'any' as const } : {}),
    });
  const eagerHandler = eager !== undefined ? create(eager) : undefined;
  let lazyHandler: Promise<ReturnType<HandlerFactory>> | undefined;
  const lazyFetch: FetchHandler = async (request, caller) => {
    lazyHandler ??= loadHandlerFactory().then(create);
    return (await lazyHandler).fetch(request, caller);
  };
  return {
    ok: true,
    value: {
      mount: { path: options.path ?? '/mcp', handler: eagerHandler?.fetch ?? lazyFetch },
      source,
      close: async () => {
        source.close();
        await eagerHandler?.close();
        if (lazyHandler !== undefined) await (await lazyHandler).close();
      },
    },
  };
};
