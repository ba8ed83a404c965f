/**
 * Bundle and tool ids (UUIDv7) and the registry's ids (`tool_http_get`).
 *
 * New ids come from `core/call-id.ts` (time-ordered, monotonic within a process), so listing by id
 * lists by creation. Built-in records get fixed ids derived from their names, the same in every
 * process and every release.
 */
import { createHash } from 'node:crypto';
import { type Either, left, right } from '../../core/either.js';
import { callId } from '../../core/call-id.js';
import { type Diagnostic, error } from '../../core/diagnostic.js';
import { CatalogCodes } from '../codes.js';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const REGISTRY_ID = /^[A-Za-z0-9_.-]{1,64}$/;

/** A fresh UUIDv7. */
export const newId = (now?: number): string => callId(now);

/** Whether `s` is a UUIDv7 in canonical (lower-case) form. */
export const isUuidV7 = (s: string): boolean => UUID_V7.test(s);

/** A UUIDv7 in canonical form (upper case accepted), or why not. */
export const parseId = (s: unknown, what = 'id'): Either<ReadonlyArray<Diagnostic>, string> => {
  if (typeof s !== 'string') return left([error(CatalogCodes.INVALID_ID, `${what} must be a UUIDv7 string, got ${typeof s}`)]);
  const lower = s.toLowerCase();
  return UUID_V7.test(lower)
    ? right(lower)
    : left([
        error(CatalogCodes.INVALID_ID, `${what} ${JSON.stringify(s.length > 80 ? `${s.slice(0, 80)}…` : s)} is not a UUIDv7`, {
          hint: 'e.g. 018faf50-b7b6-7a01-9a05-a22a6e0af101 (version 7, variant 10)',
        }),
      ]);
};

/** Whether `s` can be a registry id (and is not a UUID, which names tools by toolID). */
/** Ids a URL cannot reach: `.` and `..` (path segments a client resolves away), and the registry's own routes. */
const UNREACHABLE_IDS = new Set(['.', '..', 'usage', 'discover']);

export const isRegistryId = (s: string): boolean => REGISTRY_ID.test(s) && !UUID_V7.test(s.toLowerCase()) && !UNREACHABLE_IDS.has(s);

export const parseRegistryId = (s: unknown): Either<ReadonlyArray<Diagnostic>, string> =>
  typeof s === 'string' && isRegistryId(s)
    ? right(s)
    : left([
        error(
          CatalogCodes.INVALID_REGISTRY_ID,
          `a registry id is 1 to 64 letters, digits, "_", "-" or ".", not a UUID, and not ".", "..", "usage" or "discover" (a URL cannot name those); got ${JSON.stringify(typeof s === 'string' ? s.slice(0, 80) : s)}`,
        ),
      ]);

/**
 * A fixed UUIDv7-shaped id for a built-in record: the name's SHA-256 with the version and variant
 * bits set, and a zero timestamp (built-ins sort before everything else).
 */
export const fixedId = (name: string): string => {
  const h = createHash('sha256').update(`gramkit:${name}`).digest('hex');
  return `00000000-0000-7${h.slice(0, 3)}-${((parseInt(h.slice(3, 4), 16) & 0x3) | 0x8).toString(16)}${h.slice(4, 7)}-${h.slice(7, 19)}`;
};

/**
 * The name of an agent's usage history in a store (a file, a Redis key): the SHA-256 of its id in
 * hex. Fixed length and collision-free (ids that share a long prefix, or the id `global`, get
 * histories of their own).
 */
export const agentHistoryName = (agentId: string): string => createHash('sha256').update(agentId, 'utf8').digest('hex');
