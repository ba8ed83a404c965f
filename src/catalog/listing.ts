/**
 * Lists and search pages over the catalog's state: filters, keyset page tokens (ids, or a search
 * tier, time and id), and never an empty page that carries a token. Pure functions of the state;
 * the catalog turns the records into views.
 */
import { isLeft } from '../core/either.js';
import type { CatalogState } from './catalog-state.js';
import type { BundleQuery, SearchQuery, ToolQuery } from './catalog-types.js';
import { decodePageToken, encodePageToken, queryFingerprint } from './page-token.js';
import type { BundleRecord, ToolRecord } from './records/records.js';
import type { CatalogResult } from './result.js';
import type { SearchCursor, SearchTier } from './search-index.js';

export const MAX_PAGE = 1000;
export const DEFAULT_PAGE = 50;

const pageSize = (n: number | undefined): number => Math.min(Math.max(1, Math.floor(n ?? DEFAULT_PAGE)), MAX_PAGE);

export interface Listed<A> {
  readonly items: ReadonlyArray<A>;
  readonly nextPageToken?: string;
}

/** Whether a tool can be invoked as far as its state goes: enabled, in a live, enabled bundle. */
export const isLive = (state: CatalogState, t: ToolRecord): boolean => {
  const b = state.bundles.get(t.bundleID);
  return t.isEnabled && b !== undefined && b.isEnabled && b.softDeletedAt === null;
};

/**
 * One page of records in id (creation) order, after the page token's id: the records `keep`
 * accepts, one more read to know whether a next page exists, and never a token on the last page.
 */
const idPage = <A>(
  pageToken: string | undefined,
  fingerprint: string,
  requested: number | undefined,
  idsAfter: (after: string | undefined) => Iterable<string>,
  keep: (id: string) => A | undefined,
  idOf: (a: A) => string,
): CatalogResult<Listed<A>> => {
  let after: string | undefined;
  if (pageToken !== undefined) {
    const p = decodePageToken(pageToken, fingerprint, 'id');
    if (isLeft(p)) return { ok: false, error: p.left };
    after = p.right.kind === 'id' ? p.right.after : undefined;
  }
  const size = pageSize(requested);
  const out: A[] = [];
  for (const id of idsAfter(after)) {
    const a = keep(id);
    if (a === undefined) continue;
    out.push(a);
    if (out.length > size) break;
  }
  const shown = out.slice(0, size);
  return {
    ok: true,
    value: {
      items: shown,
      ...(out.length > size ? { nextPageToken: encodePageToken({ kind: 'id', after: idOf(shown[shown.length - 1] as A) }, fingerprint) } : {}),
    },
  };
};

/** A page of bundles in id (creation) order. */
export const bundlePage = (state: CatalogState, query: BundleQuery): CatalogResult<Listed<BundleRecord>> => {
  const ids = query.bundleIDs?.map((b) => b.toLowerCase());
  const fingerprint = queryFingerprint({ l: 'bundles', ids: ids ?? null, d: query.includeDisabled === true });
  const wanted = ids !== undefined ? new Set(ids) : undefined;
  const keep = (id: string): BundleRecord | undefined => {
    if (wanted !== undefined && !wanted.has(id)) return undefined;
    const b = state.bundles.get(id);
    if (b === undefined || (query.includeDisabled !== true && (!b.isEnabled || b.softDeletedAt !== null))) return undefined;
    return b;
  };
  return idPage(
    query.pageToken,
    fingerprint,
    query.pageSize,
    (after) => state.bundleIdsAfter(after),
    keep,
    (b) => b.bundleID,
  );
};

/** A page of tools in id (creation) order. */
export const toolPage = (state: CatalogState, query: ToolQuery): CatalogResult<Listed<ToolRecord>> => {
  const ids = query.bundleIDs?.map((b) => b.toLowerCase());
  const tags = query.tags !== undefined ? [...new Set(query.tags)].sort() : undefined;
  const fingerprint = queryFingerprint({ l: 'tools', ids: ids ?? null, tags: tags ?? null, d: query.includeDisabled === true, c: query.createdBy ?? null });
  const wanted = ids !== undefined ? new Set(ids) : undefined;
  const keep = (id: string): ToolRecord | undefined => {
    const t = state.tools.get(id);
    if (t === undefined) return undefined;
    if (wanted !== undefined && !wanted.has(t.bundleID)) return undefined;
    if (tags !== undefined && !tags.every((g) => t.tags.includes(g))) return undefined;
    if (query.createdBy !== undefined && t.createdBy !== query.createdBy) return undefined;
    if (query.includeDisabled !== true && !isLive(state, t)) return undefined;
    return t;
  };
  return idPage(
    query.pageToken,
    fingerprint,
    query.pageSize,
    (after) => state.toolIdsAfter(after),
    keep,
    (t) => t.toolID,
  );
};

const TIERS: Readonly<Record<SearchTier, string>> = { 1: 'prefix', 2: 'word', 3: 'fuzzy' };

/** A page of search results, best first, each with the tier that matched (`prefix`, `word`, `fuzzy`). */
export const searchPage = (state: CatalogState, query: SearchQuery): CatalogResult<Listed<{ readonly record: ToolRecord; readonly match: string }>> => {
  const fingerprint = queryFingerprint({ l: 'search', q: query.q, d: query.includeDisabled === true });
  let after: SearchCursor | undefined;
  if (query.pageToken !== undefined) {
    const p = decodePageToken(query.pageToken, fingerprint, 'search');
    if (isLeft(p)) return { ok: false, error: p.left };
    after = p.right.kind === 'search' ? p.right.cursor : undefined;
  }
  const includeDisabled = query.includeDisabled === true;
  const page = state.search.search(query.q, {
    limit: pageSize(query.pageSize),
    ...(after !== undefined ? { after } : {}),
    visible: (id) => {
      const t = state.tools.get(id);
      return t !== undefined && (includeDisabled || isLive(state, t));
    },
  });
  return {
    ok: true,
    value: {
      items: page.hits.map((h) => ({ record: state.tools.get(h.id) as ToolRecord, match: TIERS[h.tier] })),
      ...(page.next !== undefined ? { nextPageToken: encodePageToken({ kind: 'search', cursor: page.next }, fingerprint) } : {}),
    },
  };
};
