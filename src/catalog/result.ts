/**
 * What catalog operations return: `{ok: true, value}` or `{ok: false, error}`, never a rejection.
 * An error has a canonical `code`, a precise `CATALOG_…` `reason`, a message, and the diagnostics or details behind it.
 */
import { type CanonicalCode, canonicalOf } from '../core/codes.js';
import type { Diagnostic } from '../core/diagnostic.js';
import type { Result } from '../core/result.js';
import { type CatalogCode, CatalogCodes } from './codes.js';

export interface CatalogError {
  /** The canonical code of `reason` (`NOT_FOUND`, `CONFLICT`, ...). */
  readonly code: CanonicalCode;
  /** The precise code (`CATALOG_TOOL_NOT_FOUND`, ...). */
  readonly reason: CatalogCode;
  readonly message: string;
  /** Every problem of a write (field by field), when there are several. */
  readonly diagnostics?: ReadonlyArray<Diagnostic>;
  /** Structured facts: the existing record of a conflict, the issues of invalid arguments, ... */
  readonly details?: Readonly<Record<string, unknown>>;
}

/** The run-time result (core/result.ts) of a catalog operation. */
export type CatalogResult<A> = Result<A, CatalogError>;

/** The codes of a catalog error from its precise code: `{code: canonical, reason}`. */
export const catalogCodes = (reason: CatalogCode): { readonly code: CanonicalCode; readonly reason: CatalogCode } => ({ code: canonicalOf(reason), reason });

export const success = <A>(value: A): CatalogResult<A> => ({ ok: true, value });

export const failure = (
  reason: CatalogCode,
  message: string,
  extra: { readonly diagnostics?: ReadonlyArray<Diagnostic>; readonly details?: Readonly<Record<string, unknown>> } = {},
): CatalogResult<never> => ({
  ok: false,
  error: {
    ...catalogCodes(reason),
    message,
    ...(extra.diagnostics !== undefined && extra.diagnostics.length > 0 ? { diagnostics: extra.diagnostics } : {}),
    ...(extra.details !== undefined ? { details: extra.details } : {}),
  },
});

/** A failure from the diagnostics of a decoding: the first error's code, every message. */
export const invalid = (diagnostics: ReadonlyArray<Diagnostic>): CatalogResult<never> => {
  const errors = diagnostics.filter((d) => d.severity === 'error');
  const first = errors[0] ?? diagnostics[0];
  const code = (first?.code ?? CatalogCodes.INVALID_RECORD) as CatalogCode;
  const message = errors.length <= 1 ? (first?.message ?? 'invalid input') : `${errors.length} problems: ${errors.map((d) => d.message).join('; ')}`;
  return failure(code, message, { diagnostics: errors });
};
