/**
 * The one rendering of a run-time error for a person (the CLI's, and `formatAgentError`'s):
 * `error[REASON]: message`, then `  hint: ...` on the next line. REASON is the precise code
 * (`TOOL_TIMEOUT`, `CLI_USAGE`), not the canonical one: it is what a person searches for (in
 * docs/errors.md, an issue tracker). The hint is the one the detecting site gave, else the one of
 * the code's registry entry.
 */
import { codeInfo } from './codes.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** What is rendered: a precise code, a message, and a hint when the site knows better than the registry. */
export interface Reportable {
  readonly reason: string;
  readonly message: string;
  readonly hint?: string;
}

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

/** `error[REASON]: message` and, on a second line, `  hint: ...` (without a trailing newline). */
export const formatError = (e: Reportable): string => {
  const hint = e.hint ?? codeInfo(e.reason)?.hint;
  return `error[${e.reason}]: ${e.message}${hint !== undefined && hint !== '' ? `\n  hint: ${hint}` : ''}`;
};
