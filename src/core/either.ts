/**
 * The compile-time vocabulary: work on text and definitions (gram, signatures, specifications,
 * binding, loading, decoding configurations) returns fp-ts `Either<ReadonlyArray<Diagnostic>, A>`:
 * `Left` with every problem found, or `Right` with the value. fp-ts's `Either` is imported here and
 * nowhere else, so that an `Either` is built one way (`left`, `right`), never as a literal.
 *
 * Work that may succeed with warnings returns `Checked<A>`: `Right({value, warnings})` carries
 * them with the value; its `Left` holds every diagnostic found (warnings and notes too), since
 * there is no value to carry them. Values that have warnings of their own keep them in a
 * `warnings` field (a `GramDocument`, `Specifications`).
 *
 * Run-time work (invoke, models, agent runs, processes, fetch) returns a `Result` instead
 * (result.ts), which converts to and from `Either`.
 */
import { type Either, isLeft, isRight, left, right } from 'fp-ts/lib/Either.js';
import type { TaskEither } from 'fp-ts/lib/TaskEither.js';
import { type Diagnostic, isError } from './diagnostic.js';

export type { Either, Left, Right } from 'fp-ts/lib/Either.js';
export type { TaskEither };
export { isLeft, isRight, left, right };

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** Every problem found, or the value. */
export type Diagnosed<A> = Either<ReadonlyArray<Diagnostic>, A>;

/** A value with the warnings (and notes) found while making it. */
export interface Warned<A> {
  readonly value: A;
  readonly warnings: ReadonlyArray<Diagnostic>;
}

/** Every diagnostic (when there is an error), or the value with its warnings. */
export type Checked<A> = Either<ReadonlyArray<Diagnostic>, Warned<A>>;

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

/** `Left` with one diagnostic. */
export const leftOne = (d: Diagnostic): Either<ReadonlyArray<Diagnostic>, never> => left([d]);

/**
 * `Right({value, warnings: diagnostics})` when there is a value and no diagnostic is an error;
 * `Left(diagnostics)` otherwise.
 */
export const checked = <A>(value: A | undefined, diagnostics: ReadonlyArray<Diagnostic>): Checked<A> =>
  value === undefined || diagnostics.some(isError) ? left(diagnostics) : right({ value, warnings: diagnostics });

// -------------------------------------------------------------------------------------------------
// combinators
// -------------------------------------------------------------------------------------------------

/**
 * The value without its warnings; a `Left` keeps the diagnostics `keep` selects (by default the
 * errors only).
 */
export const unwarned = <A>(c: Checked<A>, keep: (d: Diagnostic) => boolean = isError): Diagnosed<A> =>
  isLeft(c) ? left(c.left.filter(keep)) : right(c.right.value);

/** Applies `f` to the value of a `Right`. */
export const mapRight = <E, A, B>(e: Either<E, A>, f: (a: A) => B): Either<E, B> => (isLeft(e) ? e : right(f(e.right)));

/** Applies `f` to the value of a `Left`. */
export const mapLeft = <E, F, A>(e: Either<E, A>, f: (e: E) => F): Either<F, A> => (isLeft(e) ? left(f(e.left)) : e);

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

/** The diagnostics of a `Checked`: all of them on the left, the warnings on the right. */
export const checkedDiagnostics = <A>(c: Checked<A>): ReadonlyArray<Diagnostic> => (isLeft(c) ? c.left : c.right.warnings);

/** The value of a `Checked`, or undefined. */
export const checkedValue = <A>(c: Checked<A>): A | undefined => (isRight(c) ? c.right.value : undefined);
