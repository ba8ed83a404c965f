/**
 * What loading gram (or JSON) gives: every tool and agent specification, with the warnings found;
 * the options of loading; and the labels that mark a pattern as a specification.
 */
import type { Diagnostic } from '../core/diagnostic.js';
import type { AgentSpecification } from './agent-spec.js';
import type { ToolSpecification } from './tool-spec.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export type KnownTools = ReadonlyArray<ToolSpecification> | ReadonlyMap<string, ToolSpecification>;

export interface LoadOptions {
  /** The file the text comes from (diagnostics carry it). */
  readonly filename?: string;
  /** Strict gram conformance (nested values inside records reported by the parser). */
  readonly strict?: boolean;
  /** Specifications defined elsewhere (the built-in tools) that agents may reference by name. */
  readonly knownTools?: KnownTools;
}

export interface Specifications {
  readonly tools: ReadonlyArray<ToolSpecification>;
  readonly agents: ReadonlyArray<AgentSpecification>;
  /** Warnings and notes (the specifications were built; these are worth reading). */
  readonly warnings: ReadonlyArray<Diagnostic>;
}

export const TOOL_LABELS: ReadonlySet<string> = new Set(['Tool', 'ToolSpecification']);
export const AGENT_LABEL = 'Agent';

/**
 * The properties of a tool that gramkit reads: its description, the implementations declared in
 * data (`http`, `command`), the fields of MCP, OpenAI and Anthropic tool definitions that
 * `gramkit import` keeps, and the catalog's fields in the gram it writes (`version`,
 * `displayName`, `tags`, `permissions`, `safetyLevel`, and the `builtin` and `function`
 * implementations). Any other property is kept as metadata with a warning
 * (`SPEC_UNKNOWN_PROPERTY`), except a property of the user's own, whose name starts with `x-`.
 */
export const TOOL_PROPERTIES: ReadonlyArray<string> = ['description', 'http', 'command', 'title', 'annotations', 'icons', '_meta', 'strict', 'cache_control', 'version', 'displayName', 'tags', 'permissions', 'safetyLevel', 'builtin', 'function'];

/** The properties of an agent that gramkit reads (others: as for tools). */
export const AGENT_PROPERTIES: ReadonlyArray<string> = ['description', 'instruction', 'model'];
