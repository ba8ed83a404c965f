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
 * The properties that declare a tool's implementation, one per implementation kind (each kind is a
 * module of src/tools/kinds/, listed in src/tools/kinds.ts, which must name exactly these): `self`,
 * a kind the specification implements by itself (`http`, `command`: its file is the
 * implementation); `host`, a kind that names what the host has (a built-in tool, a function of a
 * library loaded with `--library`). The catalog's record `type` is one of them.
 */
export const IMPLEMENTATION_PROPERTIES = { http: 'self', command: 'self', builtin: 'host', function: 'host' } as const;

/** The name of an implementation kind: the property that declares it, and a catalog record's `type`. */
export type ImplementationProperty = keyof typeof IMPLEMENTATION_PROPERTIES;

/** The kinds a specification implements by itself (`http`, `command`). */
export type SelfImplementationProperty = {
  readonly [K in ImplementationProperty]: (typeof IMPLEMENTATION_PROPERTIES)[K] extends 'self' ? K : never;
}[ImplementationProperty];

/** The implementation properties, in their order (http, command, builtin, function). */
export const IMPLEMENTATION_PROPERTY_NAMES = Object.keys(IMPLEMENTATION_PROPERTIES) as ReadonlyArray<ImplementationProperty>;

/**
 * The properties of a tool that gramkit reads: its description, the implementations
 * (`IMPLEMENTATION_PROPERTIES`), the fields of MCP, OpenAI and Anthropic tool definitions that
 * `gramkit import` keeps, and the catalog's fields in the gram it writes (`version`,
 * `displayName`, `tags`, `permissions`, `safetyLevel`). Any other property is kept as metadata
 * with a warning (`SPEC_UNKNOWN_PROPERTY`), except a property of the user's own, whose name starts
 * with `x-`.
 */
export const TOOL_PROPERTIES: ReadonlyArray<string> = [
  'description',
  ...IMPLEMENTATION_PROPERTY_NAMES,
  'title',
  'annotations',
  'icons',
  '_meta',
  'strict',
  'cache_control',
  'version',
  'displayName',
  'tags',
  'permissions',
  'safetyLevel',
];

/** The properties of an agent that gramkit reads (others: as for tools). */
export const AGENT_PROPERTIES: ReadonlyArray<string> = ['description', 'instruction', 'model'];
