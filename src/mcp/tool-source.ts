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
import type { Approver } from '../policy/approvals.js';
import type { AgentSpecification } from '../specification/agent-spec.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface McpToolSource {
  /** The tools to serve now. Return the same array while nothing changed (exports are cached by identity). */
  readonly tools: () => ReadonlyArray<BoundTool>;
  /** Calls `onChange` after `tools()` changed; returns a function that stops the calls. */
  readonly subscribe?: (onChange: () => void) => () => void;
  /** The agents served as MCP prompts (none without it). */
  readonly agents?: () => ReadonlyArray<AgentSpecification>;
  /**
   * Runs a call of one of its tools through its own invoker (the catalog's: its steps, usage and
   * events); without it the server runs calls with its own. The server hands it the approver of
   * this call (the MCP client's elicitation, when it can ask) and the progress listener; `scopes`:
   * the caller's, when the HTTP request carried an identity (a service with `--require-scopes`).
   */
  readonly call?: (bound: BoundTool, args: unknown, options: SourceCallOptions) => Promise<ToolResult>;
}

/** What a server tells a source's `call`. */
export interface SourceCallOptions extends InvokerOptions {
  readonly scopes?: ReadonlySet<string>;
  /** Answers the call's approval: the MCP client when it can ask, else the source's own. */
  readonly approver?: Approver;
}

/** A source whose tools can be replaced; each replacement notifies the subscribers. */
export interface MutableToolSource extends McpToolSource {
  readonly subscribe: (onChange: () => void) => () => void;
  /** Replaces the tools (and the agents, when given). */
  readonly set: (tools: BoundTools | ReadonlyArray<BoundTool>, agents?: ReadonlyArray<AgentSpecification>) => void;
  readonly agents: () => ReadonlyArray<AgentSpecification>;
}

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

const listOf = (tools: BoundTools | ReadonlyArray<BoundTool>): ReadonlyArray<BoundTool> => Object.freeze([...(isBoundTools(tools) ? tools.tools : tools)]);

const isBoundTools = (v: BoundTools | ReadonlyArray<BoundTool>): v is BoundTools => !Array.isArray(v);

/** A source that never changes (with `agents` as its prompts). */
export const staticToolSource = (tools: BoundTools | ReadonlyArray<BoundTool>, agents: ReadonlyArray<AgentSpecification> = []): McpToolSource => {
  const list = listOf(tools);
  const prompts = Object.freeze([...agents]);
  return Object.freeze({ tools: () => list, agents: () => prompts });
};

/** A source whose tools are replaced with `set` (e.g. when the specification file is edited). */
export const mutableToolSource = (initial: BoundTools | ReadonlyArray<BoundTool>, initialAgents: ReadonlyArray<AgentSpecification> = []): MutableToolSource => {
  let current = listOf(initial);
  let agents = Object.freeze([...initialAgents]);
  const listeners = new Set<() => void>();
  return Object.freeze({
    tools: () => current,
    agents: () => agents,
    subscribe: (onChange: () => void) => {
      listeners.add(onChange);
      return () => void listeners.delete(onChange);
    },
    set: (tools: BoundTools | ReadonlyArray<BoundTool>, next?: ReadonlyArray<AgentSpecification>) => {
      current = listOf(tools);
      if (next !== undefined) agents = Object.freeze([...next]);
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
