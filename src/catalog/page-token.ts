/**
 * Page tokens: opaque to clients (base64url JSON), keyset positions inside. A token names where
 * the previous page ended (an id, or a search tier, time and id) and a fingerprint of the query it
 * belongs to, so a token reused with other filters is refused rather than silently misread.
 *
 * Keysets on immutable keys (ids are UUIDv7, in creation order) make a listing stable under
 * concurrent writes: a record that exists when the listing begins and is not deleted appears
 * exactly once; records created meanwhile may appear at the end.
 */
import { createHash } from 'node:crypto';
import { type Either, left, right } from '../core/either.js';
import { isJsonObject } from '../core/json.js';
import { stableStringify } from '../core/stable-json.js';
import { CatalogCodes } from './codes.js';
import { type CatalogError, catalogCodes } from './result.js';
import type { SearchCursor, SearchTier } from './search-index.js';

export type PagePosition = { readonly kind: 'id'; readonly after: string } | { readonly kind: 'search'; readonly cursor: SearchCursor };

/** A fingerprint of a query's parameters (what a token must be used with). */
export const queryFingerprint = (params: Readonly<Record<string, unknown>>): string =>
  createHash('sha256').update(stableStringify(params)).digest('base64url').slice(0, 12);

export const encodePageToken = (position: PagePosition, fingerprint: string): string => {
  const body =
    position.kind === 'id'
      ? { v: 1, f: fingerprint, a: position.after }
      : { v: 1, f: fingerprint, t: position.cursor.tier, m: position.cursor.modifiedAt, a: position.cursor.id };
  return Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
};

const bad = (message: string): Either<CatalogError, never> =>
  left({ ...catalogCodes(CatalogCodes.INVALID_PAGE_TOKEN), message, details: { hint: 'start again without pageToken' } });

export const decodePageToken = (token: string, fingerprint: string, kind: PagePosition['kind']): Either<CatalogError, PagePosition> => {
  if (token.length > 1024 || !/^[A-Za-z0-9_-]+$/.test(token)) return bad('the page token is not one this server issued');
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    return bad('the page token is not one this server issued');
  }
  if (!isJsonObject(body) || body['v'] !== 1 || typeof body['a'] !== 'string') return bad('the page token is not one this server issued');
  if (body['f'] !== fingerprint) return bad('the page token belongs to a listing with other parameters');
  if (kind === 'id') return body['t'] === undefined ? right({ kind: 'id', after: body['a'] }) : bad('the page token belongs to another listing');
  const t = body['t'];
  const m = body['m'];
  if ((t !== 1 && t !== 2 && t !== 3) || typeof m !== 'number' || !Number.isFinite(m)) return bad('the page token belongs to another listing');
  return right({ kind: 'search', cursor: { tier: t as SearchTier, modifiedAt: m, id: body['a'] } });
};
