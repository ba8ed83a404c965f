/**
 * The catalog's rules as pure decisions: given the current state and a write, either the records to
 * store or the refusal. The catalog runs them inside the store's transaction, after syncing, so
 * they always judge the latest state (also across processes).
 *
 * Decisions worth knowing:
 * - `<slug, version>` is taken by any tool of the bundle, enabled or not (a hard delete frees it);
 *   the conflict names the existing tool. Registry ids are unique across the catalog.
 * - A PUT of a tool never replaces one (a conflict, the existing tool unchanged).
 * - Bundle slugs are unique among live bundles (the CLI names bundles by slug).
 * - A PUT of a soft-deleted bundle restores it.
 * - Nothing inside a disabled or soft-deleted bundle may be written (PUT, PATCH); deleting a tool
 *   there is allowed.
 * - The built-in bundle and its tools: only `isEnabled` changes.
 * - `modifiedAt` moves on structural changes only: toggling `isEnabled` keeps it.
 */
import { type Either, left, right, isLeft } from '../core/either.js';
import type { BundleWrite } from './records/bundle-json.js';
import { type CatalogState, toolKey } from './catalog-state.js';
import { type CatalogCode, CatalogCodes } from './codes.js';
import { newId } from './records/ids.js';
import { type BundleRecord, SCHEMA_VERSION, STRUCTURAL_FIELDS, type ToolRecord } from './records/records.js';
import { type CatalogError, catalogCodes } from './result.js';
import type { ToolWrite } from './records/tool-json.js';
import { jsonEqual } from '../core/json-equal.js';

export type Decided<A> = Either<
  CatalogError,
  {
    readonly bundles: ReadonlyArray<BundleRecord | { readonly deleted: string }>;
    readonly tools: ReadonlyArray<ToolRecord | { readonly deleted: string }>;
    readonly value: A;
  }
>;

const refuse = (reason: CatalogCode, message: string, details?: Readonly<Record<string, unknown>>): Decided<never> =>
  left({ ...catalogCodes(reason), message, ...(details !== undefined ? { details } : {}) });

const nothing = <A>(value: A): Decided<A> => right({ bundles: [], tools: [], value });

/** Whether writes inside a bundle are allowed (and why not). */
export const writableBundle = (state: CatalogState, bundleID: string, pending?: BundleRecord): Either<CatalogError, BundleRecord> => {
  const b = pending?.bundleID === bundleID ? pending : state.bundles.get(bundleID);
  if (b === undefined) return left({ ...catalogCodes(CatalogCodes.BUNDLE_NOT_FOUND), message: `there is no bundle ${bundleID}` });
  if (b.softDeletedAt !== null)
    return left({
      ...catalogCodes(CatalogCodes.BUNDLE_DELETED),
      message: `bundle "${b.slug}" (${bundleID}) was deleted at ${b.softDeletedAt}; restore it with a PUT first`,
    });
  if (!b.isEnabled) {
    const message = `bundle "${b.slug}" (${bundleID}) is disabled: tools inside it cannot be written`;
    return left({ ...catalogCodes(CatalogCodes.BUNDLE_DISABLED), message, details: { hint: 'PATCH the bundle with {"isEnabled": true} first' } });
  }
  return right(b);
};

// -------------------------------------------------------------------------------------------------
// bundles
// -------------------------------------------------------------------------------------------------

export const decidePutBundle = (
  state: CatalogState,
  bundleID: string,
  w: BundleWrite,
  now: string,
): Decided<{ readonly bundle: BundleRecord; readonly created: boolean }> => {
  const old = state.bundles.get(bundleID);
  if (old?.isBuiltIn === true) return refuse(CatalogCodes.BUILTIN_READ_ONLY, 'the built-in bundle cannot be replaced; only PATCH {"isEnabled"} changes it');
  const other = state.bundleBySlug(w.slug);
  if (other !== undefined && other.bundleID !== bundleID) {
    return refuse(CatalogCodes.CONFLICT, `a bundle with the slug "${w.slug}" exists: ${other.bundleID}`, {
      existing: { kind: 'bundle', bundleID: other.bundleID, slug: other.slug },
    });
  }
  if (old === undefined) {
    const bundle: BundleRecord = Object.freeze({
      schemaVersion: SCHEMA_VERSION,
      bundleID,
      ...w,
      isBuiltIn: false,
      softDeletedAt: null,
      createdAt: now,
      modifiedAt: now,
    });
    return right({ bundles: [bundle], tools: [], value: { bundle, created: true } });
  }
  const structural = old.slug !== w.slug || old.displayName !== w.displayName || old.description !== w.description;
  const same = !structural && old.isEnabled === w.isEnabled && old.softDeletedAt === null;
  if (same) return nothing({ bundle: old, created: false });
  const bundle: BundleRecord = Object.freeze({ ...old, ...w, softDeletedAt: null, modifiedAt: structural ? now : old.modifiedAt });
  return right({ bundles: [bundle], tools: [], value: { bundle, created: false } });
};

export const decidePatchBundle = (state: CatalogState, bundleID: string, isEnabled: boolean): Decided<BundleRecord> => {
  const old = state.bundles.get(bundleID);
  if (old === undefined) return refuse(CatalogCodes.BUNDLE_NOT_FOUND, `there is no bundle ${bundleID}`);
  if (old.softDeletedAt !== null)
    return refuse(CatalogCodes.BUNDLE_DELETED, `bundle "${old.slug}" (${bundleID}) was deleted at ${old.softDeletedAt}; restore it with a PUT first`);
  if (old.isEnabled === isEnabled) return nothing(old);
  const bundle = Object.freeze({ ...old, isEnabled });
  return right({ bundles: [bundle], tools: [], value: bundle });
};

export const decideDeleteBundle = (state: CatalogState, bundleID: string, now: string): Decided<BundleRecord> => {
  const old = state.bundles.get(bundleID);
  if (old === undefined) return refuse(CatalogCodes.BUNDLE_NOT_FOUND, `there is no bundle ${bundleID}`);
  if (old.isBuiltIn) return refuse(CatalogCodes.BUILTIN_READ_ONLY, 'the built-in bundle cannot be deleted; disable it with PATCH {"isEnabled": false}');
  if (old.softDeletedAt !== null) return nothing(old);
  const bundle = Object.freeze({ ...old, softDeletedAt: now });
  return right({ bundles: [bundle], tools: [], value: bundle });
};

/** What a bundle import decided: the bundles it writes, how many were there already, and each refusal by its index. */
export interface BundleImportDecision {
  readonly created: ReadonlyArray<BundleRecord>;
  readonly existing: number;
  readonly refused: ReadonlyArray<{ readonly index: number; readonly error: CatalogError }>;
}

/**
 * The bundles of an export, written exactly as exported (id, switch, deletion, timestamps): a
 * bundle whose id is stored already is counted as existing, not changed; a live slug taken by
 * another bundle (in the state or earlier in the batch) is a conflict; the built-in bundle is never
 * imported (each catalog has its own).
 */
export const decideImportBundles = (state: CatalogState, bundles: ReadonlyArray<BundleRecord>): Decided<BundleImportDecision> => {
  const created: BundleRecord[] = [];
  const refused: Array<{ readonly index: number; readonly error: CatalogError }> = [];
  const slugs = new Map<string, string>();
  let existing = 0;
  bundles.forEach((b, index) => {
    if (state.bundles.has(b.bundleID) || created.some((c) => c.bundleID === b.bundleID)) {
      existing++;
      return;
    }
    if (b.isBuiltIn) {
      const message = `bundle "${b.slug}" (${b.bundleID}) is a built-in bundle: each catalog has its own, it is not imported`;
      refused.push({ index, error: { ...catalogCodes(CatalogCodes.BUILTIN_READ_ONLY), message } });
      return;
    }
    if (b.softDeletedAt === null) {
      const other = state.bundleBySlug(b.slug)?.bundleID ?? slugs.get(b.slug);
      if (other !== undefined) {
        const message = `a bundle with the slug "${b.slug}" exists: ${other}; bundle ${b.bundleID} was left out`;
        refused.push({
          index,
          error: { ...catalogCodes(CatalogCodes.CONFLICT), message, details: { existing: { kind: 'bundle', bundleID: other, slug: b.slug } } },
        });
        return;
      }
      slugs.set(b.slug, b.bundleID);
    }
    created.push(Object.freeze({ ...b }));
  });
  return right({ bundles: created, tools: [], value: { created, existing, refused } });
};

/** Soft-deleted bundles older than `graceMs` that hold no tool: removed for good. */
export const decideReap = (state: CatalogState, nowMs: number, graceMs: number): Decided<ReadonlyArray<string>> => {
  const gone = [...state.bundles.values()]
    .filter((b) => b.softDeletedAt !== null && nowMs - Date.parse(b.softDeletedAt) >= graceMs && state.toolCount(b.bundleID) === 0)
    .map((b) => b.bundleID);
  return right({ bundles: gone.map((deleted) => ({ deleted })), tools: [], value: gone });
};

// -------------------------------------------------------------------------------------------------
// tools
// -------------------------------------------------------------------------------------------------

const describeTool = (t: ToolRecord): Readonly<Record<string, unknown>> => ({
  kind: 'tool',
  toolID: t.toolID,
  bundleID: t.bundleID,
  slug: t.slug,
  version: t.version,
  isEnabled: t.isEnabled,
  ...(t.registryId !== undefined ? { registryId: t.registryId } : {}),
});

/**
 * `pending`: the bundle when the same transaction creates it (the registry bundle). `restoring`: an
 * import puts the tool back where the export found it, in a disabled or deleted bundle too.
 */
export const decideCreateTool = (
  state: CatalogState,
  bundleID: string,
  w: ToolWrite,
  now: string,
  nowMs: number,
  pending?: BundleRecord,
  restoring = false,
): Decided<ToolRecord> => {
  const stored = state.bundles.get(bundleID);
  const bundle = restoring && stored !== undefined ? right(stored) : writableBundle(state, bundleID, pending);
  if (isLeft(bundle)) return left(bundle.left);
  if (bundle.right.isBuiltIn) return refuse(CatalogCodes.BUILTIN_READ_ONLY, 'tools cannot be added to the built-in bundle');
  const c = w.built.content;
  const existing = state.toolByKey(bundleID, c.slug, c.version);
  if (existing !== undefined) {
    return refuse(
      CatalogCodes.CONFLICT,
      `bundle "${bundle.right.slug}" already has ${c.slug} version ${c.version}: tool ${existing.toolID}${existing.isEnabled ? '' : ' (disabled)'}; it was left unchanged`,
      { existing: describeTool(existing) },
    );
  }
  if (w.registryId !== undefined) {
    const taken = state.toolByRegistryId(w.registryId);
    if (taken !== undefined)
      return refuse(CatalogCodes.CONFLICT, `the registry id "${w.registryId}" is taken by tool ${taken.toolID}`, { existing: describeTool(taken) });
  }
  const toolID = w.toolID !== undefined && !state.tools.has(w.toolID) ? w.toolID : newId(nowMs);
  const createdAt = w.createdAt ?? now;
  const tool: ToolRecord = Object.freeze({
    schemaVersion: SCHEMA_VERSION,
    bundleID,
    toolID,
    ...c,
    isEnabled: w.isEnabled ?? true,
    isBuiltIn: false,
    createdBy: w.createdBy ?? 'system',
    ...(w.registryId !== undefined ? { registryId: w.registryId } : {}),
    ...(w.limits !== undefined ? { limits: w.limits } : {}),
    createdAt,
    modifiedAt: w.modifiedAt ?? (w.createdAt !== undefined ? createdAt : now),
  });
  return right({ bundles: [], tools: [tool], value: tool });
};

/** What a bulk import decided: the tools it creates, how many were there already, and each refusal by its index. */
export interface ImportDecision {
  readonly created: ReadonlyArray<ToolRecord>;
  readonly existing: number;
  readonly refused: ReadonlyArray<{ readonly index: number; readonly error: CatalogError }>;
}

/**
 * Many tools created in one transaction (`gramkit catalog import`): each decided as
 * `decideCreateTool` decides one, against the state and the tools before it in the batch (a key or
 * registry id taken earlier in the batch is a conflict too), in a disabled or deleted bundle too (an
 * export round-trips exactly). A tool whose id is stored already is counted as existing, not written.
 */
export const decideImportTools = (
  state: CatalogState,
  items: ReadonlyArray<{ readonly bundleID: string; readonly write: ToolWrite }>,
  now: string,
  nowMs: number,
): Decided<ImportDecision> => {
  const created: ToolRecord[] = [];
  const refused: Array<{ readonly index: number; readonly error: CatalogError }> = [];
  const keys = new Set<string>();
  const ids = new Set<string>();
  const registryIds = new Set<string>();
  let existing = 0;
  items.forEach(({ bundleID, write }, index) => {
    if (write.toolID !== undefined && (state.tools.has(write.toolID) || ids.has(write.toolID))) {
      existing++;
      return;
    }
    const c = write.built.content;
    const key = toolKey(bundleID, c.slug, c.version);
    if (keys.has(key) || (write.registryId !== undefined && registryIds.has(write.registryId))) {
      refused.push({
        index,
        error: {
          ...catalogCodes(CatalogCodes.CONFLICT),
          message: `${c.slug} version ${c.version} (or its registry id) comes twice in the import; the second is left out`,
        },
      });
      return;
    }
    const d = decideCreateTool(state, bundleID, write, now, nowMs, undefined, true);
    if (isLeft(d)) {
      refused.push({ index, error: d.left });
      return;
    }
    const t = d.right.value;
    keys.add(key);
    ids.add(t.toolID);
    if (t.registryId !== undefined) registryIds.add(t.registryId);
    created.push(t);
  });
  return right({ bundles: [], tools: created, value: { created, existing, refused } });
};

export const decidePatchTool = (state: CatalogState, tool: ToolRecord, isEnabled: boolean): Decided<ToolRecord> => {
  const bundle = writableBundle(state, tool.bundleID);
  if (isLeft(bundle)) return left(bundle.left);
  if (tool.isEnabled === isEnabled) return nothing(tool);
  const updated = Object.freeze({ ...tool, isEnabled });
  return right({ bundles: [], tools: [updated], value: updated });
};

export const decideDeleteTool = (tool: ToolRecord, options: { readonly agentOnly?: boolean } = {}): Decided<ToolRecord> => {
  if (tool.isBuiltIn)
    return refuse(CatalogCodes.BUILTIN_READ_ONLY, `${tool.slug} is a built-in tool: it cannot be deleted; disable it with PATCH {"isEnabled": false}`);
  if (options.agentOnly === true && tool.createdBy !== 'agent') {
    return refuse(
      CatalogCodes.NOT_AGENT_CREATED,
      `tool ${tool.registryId ?? tool.toolID} was created by ${tool.createdBy}: only tools created by an agent may be deleted here`,
    );
  }
  return right({ bundles: [], tools: [{ deleted: tool.toolID }], value: tool });
};

/** Whether two tools differ in a structural field (what moves `modifiedAt`). */
export const structurallyEqual = (a: ToolRecord, b: ToolRecord): boolean => STRUCTURAL_FIELDS.every((k) => jsonEqual(a[k], b[k]));
