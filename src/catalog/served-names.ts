/**
 * The names catalog tools are served under (`/mcp`, `gramkit run --catalog`): one rule, pure,
 * computed per slug, so a change to one record renames nothing outside its slug.
 *
 * - A slug is *owned* by one bundle: the built-in bundle for the slugs of built-in tools (always,
 *   even with no record, enabled or not), else the bundle of the slug's oldest record by tool id
 *   (a UUIDv7 the server assigns at creation: nothing in a request sets it). Every record counts,
 *   live or not, so disabling the owner's tool leaves the name unserved instead of handing it to
 *   another bundle.
 * - Each bundle with an enabled, available tool of that slug serves its newest version; the
 *   owner's is named by the slug, the others by `<bundleSlug>__<slug>` (a bundle slug holds no
 *   `_` and a tool slug no `__`, slug.ts: so a qualified name never equals a tool's slug, and its
 *   first `__` is the separator, whatever underscores the tool's slug keeps: `team__word_count`).
 *
 * So a registration can never take a built-in's or another bundle's name, and a name never moves
 * to another tool while its owner keeps a record of it (it passes on only when the owner's records
 * of the slug are all deleted).
 */
import type { ToolRecord } from './records/records.js';

/** Between a bundle's slug and a tool's slug in a qualified name. */
export const QUALIFIER = '__';

export interface ServedTool {
  readonly name: string;
  readonly record: ToolRecord;
}

/** What the naming reads of the catalog's state. */
export interface NamingState {
  /** Every record with that slug (live or not). */
  readonly toolsWithSlug: (slug: string) => Iterable<ToolRecord>;
  readonly bundleSlug: (bundleID: string) => string | undefined;
  /** Whether a record can be served now (enabled, live bundle, implementation available). */
  readonly servable: (t: ToolRecord) => boolean;
  readonly builtinBundleID: string;
  /** Slugs reserved for the built-in tools. */
  readonly builtinSlugs: ReadonlySet<string>;
}

const newer = (a: ToolRecord, b: ToolRecord): boolean => a.modifiedAt > b.modifiedAt || (a.modifiedAt === b.modifiedAt && a.toolID > b.toolID);

/** The tools served under `slug`, each with its name (owner first, then by bundle slug). */
export const servedOfSlug = (state: NamingState, slug: string): ReadonlyArray<ServedTool> => {
  let owner: ToolRecord | undefined;
  const newest = new Map<string, ToolRecord>();
  for (const t of state.toolsWithSlug(slug)) {
    if (owner === undefined || t.toolID < owner.toolID) owner = t;
    if (!state.servable(t)) continue;
    const seen = newest.get(t.bundleID);
    if (seen === undefined || newer(t, seen)) newest.set(t.bundleID, t);
  }
  const ownerBundle = state.builtinSlugs.has(slug) ? state.builtinBundleID : owner?.bundleID;
  const out: ServedTool[] = [];
  for (const [bundleID, record] of newest) {
    if (bundleID === ownerBundle) out.unshift({ name: slug, record });
    else {
      const b = state.bundleSlug(bundleID);
      if (b !== undefined) out.push({ name: `${b}${QUALIFIER}${slug}`, record });
    }
  }
  return out;
};

/**
 * The served name an agent's tool name may stand for when no tool is served under that exact name:
 * agents write `-` as `_` (`read_file` for `read-file`, `team__word_count` for `team__word-count`).
 */
export const servedNameOf = (agentName: string): string => {
  const i = agentName.indexOf(QUALIFIER);
  const dash = (s: string): string => s.replace(/[_.]/g, '-');
  return i < 0 ? dash(agentName) : `${dash(agentName.slice(0, i))}${QUALIFIER}${dash(agentName.slice(i + QUALIFIER.length))}`;
};

/**
 * The names an agent may call each served tool by: its name, and the same with `_` for `-` unless
 * a tool is served under that name (a slug keeping `word_count` wins over `word-count`'s alias).
 */
export const agentNames = (served: ReadonlyArray<string>): ReadonlyMap<string, string> => {
  const exact = new Set(served);
  const out = new Map<string, string>(served.map((n) => [n, n]));
  for (const n of served) {
    const alias = n.replace(/-/g, '_');
    if (alias !== n && !exact.has(alias) && !out.has(alias)) out.set(alias, n);
  }
  return out;
};
