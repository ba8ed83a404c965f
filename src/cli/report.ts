/**
 * How every command reports an error: one rendering (core/format-error.ts), `error[REASON]:
 * message` then `  hint: ...`, REASON being the precise code a user searches for
 * (docs/errors.md). `usage` is the error of a command line the command cannot run (`CLI_USAGE`).
 * A problem the command goes on after is a warning, `warning[REASON]: message`. Actions print
 * through these (test/architecture/command-shape.test.ts): none writes its own prefix.
 */
import { type Diagnostic, warning } from '../core/diagnostic.js';
import { formatDiagnostic, formatDiagnostics } from '../core/format-diagnostic.js';
import { formatError, type Reportable } from '../core/format-error.js';
import { CliCodes } from './codes.js';
import type { CliIO } from './io.js';

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

/**
 * The diagnostics a failure is made of (`details.diagnostics`: a library module that does not
 * load, a specification file that does not compile), or none.
 */
export const diagnosticsOf = (e: { readonly details?: unknown }): ReadonlyArray<Diagnostic> => {
  const d = (e.details as { readonly diagnostics?: unknown } | undefined)?.diagnostics;
  return Array.isArray(d) ? (d as ReadonlyArray<Diagnostic>) : [];
};

/**
 * Writes the error to stderr, rendered; a failure made of diagnostics as those diagnostics (their
 * renderer, with carets into `details.source` when it holds the text they point into).
 */
export const reportError = (io: Pick<CliIO, 'stderr'>, e: Reportable & { readonly details?: unknown }): void => {
  const ds = diagnosticsOf(e);
  if (ds.length === 0) return io.stderr(`${formatError(e)}\n`);
  const source = (e.details as { readonly source?: { readonly name?: unknown; readonly text?: unknown } }).source;
  const text = typeof source?.text === 'string' ? source.text : undefined;
  io.stderr(`${formatDiagnostics(ds, text, typeof source?.name === 'string' ? { filename: source.name } : {})}\n`);
};

/** A command line the command cannot run (`CLI_USAGE`). */
export const usageError = (io: Pick<CliIO, 'stderr'>, message: string, hint?: string): void =>
  reportError(io, { reason: CliCodes.USAGE, message, ...(hint !== undefined ? { hint } : {}) });

/** A problem the command goes on after: `warning[REASON]: message` (the diagnostics' rendering, core/format-diagnostic.ts). */
export const reportWarning = (io: Pick<CliIO, 'stderr'>, e: Reportable): void =>
  io.stderr(`${formatDiagnostic(warning(e.reason, e.message, e.hint !== undefined ? { hint: e.hint } : {}))}\n`);
