/**
 * Tool annotations both ways: what gramkit knows about a tool (permissions, safety level,
 * approval) as MCP's hints (`readOnlyHint`, `destructiveHint`, `openWorldHint`) plus the exact
 * values under `_meta["gramkit/annotations"]`, and back, for the remote tools of an MCP client.
 *
 * | gramkit                                   | MCP                                                   |
 * | ----------------------------------------- | ----------------------------------------------------- |
 * | safety level `low` (reads)                | `readOnlyHint: true`                                  |
 * | `medium` (writes), approval `auto`        | `readOnlyHint: false, destructiveHint: false`         |
 * | `medium` with an approval (may overwrite) | `readOnlyHint: false, destructiveHint: true`          |
 * | `high` (runs, deletes)                    | `readOnlyHint: false, destructiveHint: true`          |
 * | permissions with `net:…` / without        | `openWorldHint: true` / `false`                       |
 * | nothing stated                            | no hints (MCP's defaults: may write, may destroy)     |
 */
import { isRecord } from '../core/json.js';
import type { JsonObject, JsonValue } from '../core/json-schema.js';
import type { SafetyLevel, ToolAnnotations } from '../library/tool.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** MCP's tool annotations (hints a client may show or act on; never trusted for security). */
export interface McpToolHints {
  readonly title?: string;
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

/** The `_meta` key holding gramkit's own annotations of a served tool. */
export const ANNOTATIONS_META_KEY = 'gramkit/annotations';

// -------------------------------------------------------------------------------------------------
// gramkit → MCP
// -------------------------------------------------------------------------------------------------

/** MCP hints for a tool's annotations; `undefined` when the tool states nothing. */
export const mcpHints = (a: ToolAnnotations | undefined): McpToolHints | undefined => {
  if (a === undefined) return undefined;
  const approval = a.approval === undefined ? undefined : typeof a.approval === 'function' ? 'predicate' : a.approval;
  const hints: Record<string, boolean> = {};
  if (a.safetyLevel === 'low') hints['readOnlyHint'] = true;
  else if (a.safetyLevel === 'medium') {
    hints['readOnlyHint'] = false;
    hints['destructiveHint'] = approval !== undefined && approval !== 'auto';
  } else if (a.safetyLevel === 'high') {
    hints['readOnlyHint'] = false;
    hints['destructiveHint'] = true;
  }
  if (a.permissions !== undefined) hints['openWorldHint'] = a.permissions.some((p) => p === '*' || p.startsWith('net:'));
  return Object.keys(hints).length > 0 ? hints : undefined;
};

/** gramkit's annotations as JSON for `_meta` (an approval predicate is written `"predicate"`). */
export const annotationsMeta = (a: ToolAnnotations | undefined): JsonObject | undefined => {
  if (a === undefined) return undefined;
  const out: Record<string, JsonValue> = {};
  if (a.permissions !== undefined) out['permissions'] = [...a.permissions];
  if (a.safetyLevel !== undefined) out['safetyLevel'] = a.safetyLevel;
  if (a.approval !== undefined) out['approval'] = typeof a.approval === 'function' ? 'predicate' : a.approval;
  return Object.keys(out).length > 0 ? out : undefined;
};

// -------------------------------------------------------------------------------------------------
// MCP → gramkit
// -------------------------------------------------------------------------------------------------

const SAFETY: ReadonlyArray<SafetyLevel> = ['low', 'medium', 'high'];

/**
 * The annotations of a remote tool, for the policies of the client's runs: gramkit's own when the
 * server is gramkit (`_meta`), else read from the hints (read-only → `low`, destructive → `high`,
 * otherwise `medium`); `undefined` when the server says nothing. An approval predicate cannot
 * travel: a remote `"predicate"` becomes `confirm` (ask every time, the safe side).
 */
export const annotationsFromMcp = (tool: Readonly<Record<string, unknown>>): ToolAnnotations | undefined => {
  const meta = isRecord(tool['_meta']) ? tool['_meta'][ANNOTATIONS_META_KEY] : undefined;
  if (isRecord(meta)) {
    const out: { permissions?: ReadonlyArray<string>; safetyLevel?: SafetyLevel; approval?: 'auto' | 'confirm' } = {};
    const p = meta['permissions'];
    if (Array.isArray(p) && p.every((x) => typeof x === 'string')) out.permissions = Object.freeze([...(p as string[])]);
    const s = meta['safetyLevel'];
    if (typeof s === 'string' && (SAFETY as ReadonlyArray<string>).includes(s)) out.safetyLevel = s as SafetyLevel;
    const a = meta['approval'];
    if (a === 'auto') out.approval = 'auto';
    else if (a === 'confirm' || a === 'predicate') out.approval = 'confirm';
    if (Object.keys(out).length > 0) return out;
  }
  const hints = isRecord(tool['annotations']) ? tool['annotations'] : undefined;
  if (hints === undefined) return undefined;
  if (hints['readOnlyHint'] === true) return { safetyLevel: 'low' };
  if (hints['destructiveHint'] === true) return { safetyLevel: 'high' };
  if (hints['readOnlyHint'] === false || hints['destructiveHint'] === false) return { safetyLevel: 'medium' };
  return undefined;
};
