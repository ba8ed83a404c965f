/**
 * One diagnostic type for the whole compiler (gram syntax, type signatures, specifications).
 * Detection builds `Diagnostic` values; wording for people lives in `format-diagnostic.ts`.
 * Codes are stable: tools and tests match on them, never on messages.
 */
import { type Span, spanOf } from './span.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export type Severity = 'error' | 'warning' | 'info';

/** A secondary location, such as the first definition in a "conflicting redefinition" error. */
export interface RelatedInformation {
  readonly message: string;
  readonly span: Span;
  readonly file?: string;
}

export interface Diagnostic {
  /** Stable SCREAMING_SNAKE code, e.g. `GRAM_UNCLOSED_NODE`, `SIG_UNKNOWN_TYPE`. */
  readonly code: string;
  readonly severity: Severity;
  /** What is wrong, in words a person (or a model) can act on. */
  readonly message: string;
  /** Where, when the problem has a place in a source text. */
  readonly span?: Span;
  /** The file the span points into, when known. */
  readonly file?: string;
  /** How to fix it, when there is something useful to say. */
  readonly hint?: string;
  readonly related?: ReadonlyArray<RelatedInformation>;
}

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

export interface DiagnosticOptions {
  readonly span?: Span;
  readonly file?: string;
  readonly hint?: string;
  readonly related?: ReadonlyArray<RelatedInformation>;
}

const make =
  (severity: Severity) =>
  (code: string, message: string, options: DiagnosticOptions = {}): Diagnostic => ({
    code,
    severity,
    message,
    // a copy: the span given may be an AST node (every node is a Span), which must not be kept
    ...(options.span !== undefined ? { span: spanOf(options.span) } : {}),
    ...(options.file !== undefined ? { file: options.file } : {}),
    ...(options.hint !== undefined ? { hint: options.hint } : {}),
    ...(options.related !== undefined && options.related.length > 0 ? { related: options.related.map((r) => ({ ...r, span: spanOf(r.span) })) } : {}),
  });

export const error = make('error');
export const warning = make('warning');
export const info = make('info');

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

export const isError = (d: Diagnostic): boolean => d.severity === 'error';

export const hasErrors = (ds: ReadonlyArray<Diagnostic>): boolean => ds.some(isError);

/** Sets the file of diagnostics (and their related locations) that do not have one yet. */
export const withFile = (file: string | undefined, ds: ReadonlyArray<Diagnostic>): ReadonlyArray<Diagnostic> =>
  file === undefined
    ? ds
    : ds.map((d) => ({
        ...d,
        file: d.file ?? file,
        ...(d.related ? { related: d.related.map((r) => ({ ...r, file: r.file ?? file })) } : {}),
      }));

/** Orders diagnostics by file then position, errors before warnings at the same place. */
export const sortDiagnostics = (ds: ReadonlyArray<Diagnostic>): ReadonlyArray<Diagnostic> => {
  const rank: Record<Severity, number> = { error: 0, warning: 1, info: 2 };
  return [...ds].sort(
    (a, b) => (a.file ?? '').localeCompare(b.file ?? '') || (a.span?.start ?? -1) - (b.span?.start ?? -1) || rank[a.severity] - rank[b.severity],
  );
};
