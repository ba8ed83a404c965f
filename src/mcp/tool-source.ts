/**
 * What an MCP server serves: a source of bound tools that may change while it runs (a file
 * reloaded, a catalog edited). The server reads `tools()` on every `tools/list` and `tools/call`
 * and tells its clients `notifications/tools/list_changed` when the source says it changed.
 *
 * A source is the seam for mounting the server elsewhere (a tool service's catalog): anything with
 * `tools()` and, optionally, `subscribe()` can be served.
 */
import type { BoundTool, BoundTools } from '../library/bind.js';
import type { InvokerOptions } from '../library/invoker.js';
import type { ToolResult } from '../library/result.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface McpToolSource {
  /** The tools to serve now. Return the same array while nothing changed (exports are cached by identity). */
  readonly tools: () => ReadonlyArray<BoundTool>;
  /** Calls `onChange` after `tools()` changed; returns a function that stops the calls. */
  readonly subscribe?: (onChange: () => void) => () => void;
  /**
   * Runs a call of one of its tools through its own invoker (the catalog's: its steps, usage and
   * events); without it the server runs calls with its own. `scopes`: the caller's, when the HTTP
   * request carried an identity (a service with `--require-scopes`).
   */
  readonly call?: (bound: BoundTool, args: unknown, options: SourceCallOptions) => Promise<ToolResult>;
}

/** What a server tells a source's `call`. */
export interface SourceCallOptions extends InvokerOptions {
  readonly scopes?: ReadonlySet<string>;
}

/** A source whose tools can be replaced; each replacement notifies the subscribers. */
export interface MutableToolSource extends McpToolSource {
  readonly subscribe: (onChange: () => void) => () => void;
  readonly set: (tools: BoundTools | ReadonlyArray<BoundTool>) => void;
}

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

const listOf = (tools: BoundTools | ReadonlyArray<BoundTool>): ReadonlyArray<BoundTool> =>
  Object.freeze([...(isBoundTools(tools) ? tools.tools : tools)]);

const isBoundTools = (v: BoundTools | ReadonlyArray<BoundTool>): v is BoundTools => !Array.isArray(v);

/** A source that never changes. */
export const staticToolSource = (tools: BoundTools | ReadonlyArray<BoundTool>): McpToolSource => {
  const list = listOf(tools);
  return Object.freeze({ tools: () => list });
};

/** A source whose tools are replaced with `set` (e.g. when the specification file is edited). */
export const mutableToolSource = (initial: BoundTools | ReadonlyArray<BoundTool>): MutableToolSource => {
  let current = listOf(initial);
  const listeners = new Set<() => void>();
  return Object.freeze({
    tools: () => current,
    subscribe: (onChange: () => void) => {
      listeners.add(onChange);
      return () => void listeners.delete(onChange);
    },
    set: (tools: BoundTools | ReadonlyArray<BoundTool>) => {
      current = listOf(tools);
      for (const l of [...listeners]) {
        try {
          l();
        } catch {
          // a listener cannot break the source or the other listeners
        }
      }
    },
  });
};
