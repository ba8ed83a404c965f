/**
 * The catalog's records, as stored (one JSON document each) and as the catalog routes
 * (`/tools/…`) show them.
 *
 * A tool record is a `ToolSpecification` (slug, description, type signature) plus an
 * implementation declaration (`type`, `impl`) and the catalog's fields (ids, slug, version,
 * switches, the registry's permissions and safety level, timestamps). `signature` (gram)
 * is the source of truth of the schemas: `argSchema` and `outputSchema` are what it compiles to,
 * stored for readers of the files. Records are frozen values.
 */
import type { JsonObject, JsonSchema } from '../../core/json-schema.js';
import type { SafetyLevel, ToolLimits } from '../../library/tool.js';
import { IMPLEMENTATION_PROPERTY_NAMES, type ImplementationProperty } from '../../specification/specifications.js';

/** The `schemaVersion` written in every record. */
export const SCHEMA_VERSION = '1';

/** How a tool is implemented: an HTTP request (`http`), a program (`command`, the registry's `exec` blocks), a built-in, or a function of a loaded library (`function`; a `tool.json`'s `go` reads as this). */
export type ToolType = ImplementationProperty;
/** The types, one per implementation kind (src/tools/kinds.ts). */
export const TOOL_TYPES: ReadonlyArray<ToolType> = IMPLEMENTATION_PROPERTY_NAMES;

export type CreatedBy = 'system' | 'agent';

export interface BundleRecord {
  readonly schemaVersion: string;
  readonly bundleID: string;
  readonly slug: string;
  readonly displayName: string;
  readonly description: string;
  readonly isEnabled: boolean;
  readonly isBuiltIn: boolean;
  /** ISO 8601, set by DELETE; the reaper removes the bundle 2 days later if it holds no tools. */
  readonly softDeletedAt: string | null;
  readonly createdAt: string;
  readonly modifiedAt: string;
}

/** What defines a tool (everything a write may change), without identity, state or timestamps. */
export interface ToolContent {
  readonly slug: string;
  readonly version: string;
  readonly displayName: string;
  readonly description: string;
  readonly type: ToolType;
  /** The gram type signature, e.g. `(city::String)==>(::String)`. */
  readonly signature: string;
  readonly argSchema: JsonObject;
  readonly outputSchema: JsonSchema;
  /** `type: http`: an HTTP tool configuration; `command`: a command configuration; `builtin`: `{builtin: name}`; `function`: `{function: name}`. */
  readonly impl: JsonObject;
  readonly tags: ReadonlyArray<string>;
  readonly permissions: ReadonlyArray<string>;
  readonly safetyLevel: SafetyLevel;
}

export interface ToolRecord extends ToolContent {
  readonly schemaVersion: string;
  readonly bundleID: string;
  readonly toolID: string;
  readonly isEnabled: boolean;
  readonly isBuiltIn: boolean;
  readonly createdBy: CreatedBy;
  /** The registry id (`tool_http_get`), for tools registered through `/api/v1/tools`. */
  readonly registryId?: string;
  /**
   * Per-tool limits applied on invoke (`timeoutMs`, `maxResultBytes`, `maxCallsPerMinute`): the
   * stricter of these and the implementation's own; `timeoutMs` bounds a caller's timeout too.
   */
  readonly limits?: ToolLimits;
  readonly createdAt: string;
  readonly modifiedAt: string;
}

/** Usage of a tool, kept apart from its record (updated off the response path). */
export interface UsageCount {
  readonly callCount: number;
  readonly lastCalledAt: string | null;
}

export const NO_USAGE: UsageCount = Object.freeze({ callCount: 0, lastCalledAt: null });

/** One invocation in a usage history (`{ts, type, tool, ...}`). */
export interface UsageEntry {
  readonly ts: string;
  readonly type: 'invoke';
  /** The tool's registry id, else its toolID. */
  readonly tool: string;
  readonly toolID: string;
  readonly ok: boolean;
  readonly code?: string;
  readonly durationMs: number;
  readonly agent_id?: string;
  readonly project_id?: string;
}

/** The structural fields of a tool: a change of any of them moves `modifiedAt`. */
export const STRUCTURAL_FIELDS: ReadonlyArray<keyof ToolContent> = [
  'slug',
  'version',
  'displayName',
  'description',
  'type',
  'signature',
  'argSchema',
  'outputSchema',
  'impl',
  'tags',
  'permissions',
  'safetyLevel',
];
