/**
 * The run-time vocabulary: what invoking a tool, asking a model, running an agent, running a
 * process or fetching returns. `{ok: true, value}` or `{ok: false, error}`; such work never throws
 * and never rejects, and its errors are coded (`CodedError`: a stable code from a registry,
 * codes.ts, a message a person or a model can act on, and whether retrying can help).
 *
 * This module owns the type, its constructors, and the conversions to and from fp-ts `Either`
 * (the compile-time vocabulary, either.ts) and `TaskEither` (for composing at an API edge).
 */
import { type CanonicalCode, canonicalOf, codeInfo, isCanonicalCode, retryableCode } from './codes.js';
import { type Either, isLeft, left, right, type TaskEither } from './either.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface Ok<A> {
  readonly ok: true;
  readonly value: A;
}

export interface Err<E> {
  readonly ok: false;
  readonly error: E;
}

/** The outcome of run-time work. */
export type Result<A, E = CodedError> = Ok<A> | Err<E>;

/** An error with stable codes: a canonical one (`code`) and a precise one (`reason`). */
export interface CodedError<C extends string = string> {
  /** The canonical code (`TIMEOUT`, `NOT_FOUND`, `INVALID_PATH`: core/codes.ts `CANONICAL_CODES`), what a client matches on. */
  readonly code: CanonicalCode;
  /** The precise code, prefixed by the layer that detects it (`TOOL_TIMEOUT`, `NET_PRIVATE_ADDRESS`), or an implementation's own. */
  readonly reason: C;
  /** What went wrong, in words a person or a model can act on. */
  readonly message: string;
  /** Whether the same work may succeed if tried again (timeouts, rate limits, transient I/O). */
  readonly retryable: boolean;
  /** Data about the failure (JSON): paths, statuses, limits. */
  readonly details?: unknown;
  /** What to do about it, when the detecting site knows better than the code's registry entry. */
  readonly hint?: string;
}

export interface CodedErrorOptions {
  /**
   * The canonical code of a reason no registry knows (an implementation's own code, a newer
   * server's): used only then; a registered reason always has its registry's canonical code.
   */
  readonly code?: CanonicalCode;
  readonly retryable?: boolean;
  readonly details?: unknown;
  readonly hint?: string;
}

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

export const ok = <A>(value: A): Ok<A> => ({ ok: true, value });

export const err = <E>(error: E): Err<E> => ({ ok: false, error });

/**
 * A coded error from its precise code (its canonical code comes from the code's registry);
 * retryable as said, else as the code's registry entry says (`'sometimes'` and an unregistered code: no).
 */
export const codedError = <C extends string>(reason: C, message: string, options: CodedErrorOptions = {}): CodedError<C> => ({
  code: options.code !== undefined && isCanonicalCode(options.code) && codeInfo(reason) === undefined ? options.code : canonicalOf(reason),
  reason,
  message,
  ...(options.details !== undefined ? { details: options.details } : {}),
  retryable: options.retryable ?? retryableCode(reason),
  ...(options.hint !== undefined ? { hint: options.hint } : {}),
});

/** `err(codedError(...))`. */
export const failWith = <C extends string>(reason: C, message: string, options: CodedErrorOptions = {}): Err<CodedError<C>> =>
  err(codedError(reason, message, options));

// -------------------------------------------------------------------------------------------------
// combinators
// -------------------------------------------------------------------------------------------------

export const mapOk = <A, B, E>(r: Result<A, E>, f: (a: A) => B): Result<B, E> => (r.ok ? ok(f(r.value)) : r);

export const mapErr = <A, E, F>(r: Result<A, E>, f: (e: E) => F): Result<A, F> => (r.ok ? r : err(f(r.error)));

// -------------------------------------------------------------------------------------------------
// conversions
// -------------------------------------------------------------------------------------------------

/** `Right(a)` → `{ok: true, value: a}`, `Left(e)` → `{ok: false, error: e}`. */
export const fromEither = <E, A>(e: Either<E, A>): Result<A, E> => (isLeft(e) ? err(e.left) : ok(e.right));

/** `{ok: true, value: a}` → `Right(a)`, `{ok: false, error: e}` → `Left(e)`. */
export const toEither = <A, E>(r: Result<A, E>): Either<E, A> => (r.ok ? right(r.value) : left(r.error));

/** Run-time work as a `TaskEither` (the work must never reject, as run-time work in gramkit does not). */
export const toTaskEither =
  <A, E>(run: () => Promise<Result<A, E>>): TaskEither<E, A> =>
  () =>
    run().then(toEither);

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

export const isOk = <A, E>(r: Result<A, E>): r is Ok<A> => r.ok;

export const isErr = <A, E>(r: Result<A, E>): r is Err<E> => !r.ok;

/**
 * Whether a value has exactly the shape of a result with a coded error: `{ok: true, value}` (those
 * two keys), or `{ok: false, error}` (those two keys) whose error has a string `code` and a string
 * `message`. `invoke` reads what an implementation returns with it: a returned `fail(...)` is the
 * call's failure, a returned `ok(v)` its value.
 */
export const isCodedResult = (v: unknown): v is Result<unknown, CodedError> => {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as { ok?: unknown; value?: unknown; error?: unknown };
  if (o.ok === true) return Object.hasOwn(o, 'value') && Object.keys(o).length === 2;
  if (o.ok !== false || typeof o.error !== 'object' || o.error === null || Object.keys(o).length !== 2) return false;
  const e = o.error as { code?: unknown; message?: unknown };
  return typeof e.code === 'string' && typeof e.message === 'string';
};
