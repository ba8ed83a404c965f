/**
 * Slugs and versions, by the catalog's rules: Unicode letters, digits and the ASCII dash
 * (`-`); versions may also hold dots; no whitespace, slash, control character or symbol;
 * case-sensitive; at most 64 runes (code points). Versions are opaque labels: compared as strings,
 * never ordered.
 *
 * Underscores: a tool's slug may keep a `snake_case` name (`word_count`, as models' tool names
 * are), with single underscores inside it: never two in a row, nor one at either end. A bundle's
 * slug holds none. So a served name `<bundle>__<slug>` (served-names.ts) is never a tool's slug,
 * and splits at its first `__`.
 *
 * "Digit" is read as Unicode decimal digits (`\p{Nd}`); letters are `\p{L}`. Combining marks are
 * not letters, so a decomposed `é` (e + U+0301) is refused: send the composed form (NFC).
 */
import { type Either, isRight, left, right } from '../../core/either.js';
import { type Diagnostic, error } from '../../core/diagnostic.js';
import { CatalogCodes } from '../codes.js';

export const MAX_SLUG_RUNES = 64;

const SLUG = /^[\p{L}\p{Nd}-]+(_[\p{L}\p{Nd}-]+)*$/u;
const BUNDLE_SLUG = /^[\p{L}\p{Nd}-]+$/u;
const VERSION = /^[\p{L}\p{Nd}.-]+$/u;

const runes = (s: string): number => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};

const firstBad = (s: string, ok: RegExp): string | undefined => {
  for (const ch of s) if (!ok.test(ch)) return ch;
  return undefined;
};

const describeRune = (ch: string): string => {
  const cp = ch.codePointAt(0) ?? 0;
  const hex = `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  if (ch === '_') return 'an underscore';
  if (ch === '/' || ch === '\\') return 'a slash';
  if (ch === '.') return 'a dot (allowed in versions only)';
  if (/\s/u.test(ch)) return `whitespace (${hex})`;
  if (/\p{Cc}|\p{Cf}/u.test(ch)) return `a control character (${hex})`;
  if (/\p{M}/u.test(ch)) return `a combining mark (${hex}; send the composed, NFC form)`;
  return `${JSON.stringify(ch)} (${hex})`;
};

const HINTS = {
  slug: 'a tool slug holds Unicode letters, digits, "-" and single "_" inside it',
  'bundle slug': 'a bundle slug holds Unicode letters, digits and "-"',
  version: 'a version holds Unicode letters, digits, "-" and "."',
} as const;

const check = (what: keyof typeof HINTS, s: unknown, pattern: RegExp, rune: RegExp, code: string): Either<ReadonlyArray<Diagnostic>, string> => {
  if (typeof s !== 'string') return left([error(code, `the ${what} must be a string, got ${s === null ? 'null' : typeof s}`)]);
  if (s === '') return left([error(code, `the ${what} is empty`)]);
  const n = runes(s);
  if (n > MAX_SLUG_RUNES) return left([error(code, `the ${what} has ${n} runes; at most ${MAX_SLUG_RUNES} are allowed`)]);
  if (!pattern.test(s)) {
    const bad = firstBad(s, rune);
    const why =
      bad !== undefined
        ? `contains ${describeRune(bad)}${what === 'bundle slug' && bad === '_' ? ' (a bundle slug holds none: "__" separates it from a tool slug in served names)' : ''}`
        : s.includes('__')
          ? 'contains two underscores in a row ("__" separates a bundle slug from a tool slug in served names)'
          : 'begins or ends with an underscore';
    return left([error(code, `the ${what} ${JSON.stringify(s)} ${why}`, { hint: HINTS[what] })]);
  }
  return right(s);
};

/** `s` when it is a valid tool slug (single underscores inside allowed), else why not. */
export const parseSlug = (s: unknown): Either<ReadonlyArray<Diagnostic>, string> => check('slug', s, SLUG, /^[\p{L}\p{Nd}_-]$/u, CatalogCodes.INVALID_SLUG);

/** `s` when it is a valid bundle slug (no underscore), else why not. */
export const parseBundleSlug = (s: unknown): Either<ReadonlyArray<Diagnostic>, string> =>
  check('bundle slug', s, BUNDLE_SLUG, /^[\p{L}\p{Nd}-]$/u, CatalogCodes.INVALID_SLUG);

/** `s` when it is a valid version, else why not. */
export const parseVersion = (s: unknown): Either<ReadonlyArray<Diagnostic>, string> =>
  check('version', s, VERSION, /^[\p{L}\p{Nd}.-]$/u, CatalogCodes.INVALID_VERSION);

export const isSlug = (s: string): boolean => isRight(parseSlug(s));
export const isBundleSlug = (s: string): boolean => isRight(parseBundleSlug(s));
export const isVersion = (s: string): boolean => isRight(parseVersion(s));

/**
 * The slug a registry id maps to: `_` and `.` become `-` (`tool_http_get` →
 * `tool-http-get`). Two ids that map to one slug collide, and the second is refused by name.
 */
export const slugOfRegistryId = (id: string): string => id.replace(/[_.]/g, '-');
