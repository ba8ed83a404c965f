/**
 * How every command reports an error: one rendering (core/format-error.ts), `error[REASON]:
 * message` then `  hint: ...`, REASON being the precise code a user searches for
 * (docs/errors.md). `usage` is the error of a command line the command cannot run (`CLI_USAGE`).
 * A problem the command goes on after is a warning, `warning[REASON]: message`. Actions print
 * through these (test/architecture/command-shape.test.ts): none writes its own prefix.
 */
import { warning } from '../core/diagnostic.js';
import { formatDiagnostic } from '../core/format-diagnostic.js';
import { formatError, type Reportable } from '../core/format-error.js';
import { CliCodes } from './codes.js';
import type { CliIO } from './io.js';

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

/** Writes the error to stderr, rendered. */
export const reportError = (io: Pick<CliIO, 'stderr'>, e: Reportable): void => io.stderr(`${formatError(e)}\n`);

/** A command line the command cannot run (`CLI_USAGE`). */
export const usageError = (io: Pick<CliIO, 'stderr'>, message: string, hint?: string): void =>
  reportError(io, { reason: CliCodes.USAGE, message, ...(hint !== undefined ? { hint } : {}) });

/** A problem the command goes on after: `warning[REASON]: message` (the diagnostics' rendering, core/format-diagnostic.ts). */
export const reportWarning = (io: Pick<CliIO, 'stderr'>, e: Reportable): void =>
  io.stderr(`${formatDiagnostic(warning(e.reason, e.message, e.hint !== undefined ? { hint: e.hint } : {}))}\n`);
