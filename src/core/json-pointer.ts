/**
 * JSON Pointers (RFC 6901): `/properties/a~1b/type` addresses `type` in the property `a/b`. One
 * place escapes and unescapes segments (`~` as `~0`, `/` as `~1`), reads the URI-fragment form of
 * `$ref` (`#/$defs/x`, percent-encoded) and follows a pointer into a value.
 */

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

/** One segment as written in a pointer: `a/b` → `a~1b`, `~x` → `~0x`. */
export const escapePointer = (segment: string): string =>
  segment.includes('~') || segment.includes('/') ? segment.replace(/~/g, '~0').replace(/\//g, '~1') : segment;

/** A segment as its key: `a~1b` → `a/b` (`~1` first, so that `~01` stays `~1`). */
export const unescapePointer = (segment: string): string => (segment.includes('~') ? segment.replace(/~1/g, '/').replace(/~0/g, '~') : segment);

/** The pointer of a list of keys: `['properties', 'a/b']` → `/properties/a~1b`; `[]` → `` (the whole value). */
export const pointerOf = (segments: ReadonlyArray<string | number>): string => segments.map((s) => `/${escapePointer(String(s))}`).join('');

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

/** The keys of a pointer: `/a~1b/0` → `['a/b', '0']`; `` → `[]`. Undefined when it does not start with `/`. */
export const pointerSegments = (pointer: string): ReadonlyArray<string> | undefined => {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) return undefined;
  return pointer.slice(1).split('/').map(unescapePointer);
};

/**
 * The keys of a local reference in URI-fragment form (`#`, `#/$defs/a%20b`; `#/` is the key ``,
 * as RFC 6901 reads it), percent-decoding
 * each segment before unescaping it. Undefined for anything else (a remote or relative reference,
 * bad percent-encoding).
 */
export const refSegments = (ref: string): ReadonlyArray<string> | undefined => {
  if (ref === '#') return [];
  if (!ref.startsWith('#/')) return undefined;
  try {
    return ref
      .slice(2)
      .split('/')
      .map((raw) => unescapePointer(decodeURIComponent(raw)));
  } catch {
    return undefined;
  }
};

/** The value at a list of keys inside `root` (array items by index); undefined when the path leaves the value. */
export const valueAt = (root: unknown, segments: ReadonlyArray<string>): unknown => {
  let cur: unknown = root;
  for (const key of segments) {
    if (cur === null || typeof cur !== 'object') return undefined;
    if (!Object.prototype.hasOwnProperty.call(cur, key)) return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
};
