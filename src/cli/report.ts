/**
 * How every command reports an error: one rendering (core/format-error.ts), `error[REASON]:
 * message` then `  hint: ...`, REASON being the precise code a user searches for
 * (docs/errors.md). `usage` is the error of a command line the command cannot run (`CLI_USAGE`).
 */
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
