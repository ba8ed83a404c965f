/**
 * The message of a thrown value, whatever was thrown (an Error, a string, an object, anything),
 * for results and diagnostics: never a stack trace, never an exception of its own.
 */

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

/** A thrown value's message, whatever was thrown; never a stack trace. */
export const messageOf = (e: unknown): string => {
  try {
    if (e instanceof Error) return e.message !== '' ? e.message : `${e.name} (without a message)`;
    if (typeof e === 'string') return e !== '' ? e : 'an empty string was thrown';
    if (typeof e === 'object' && e !== null) {
      const m = (e as { message?: unknown }).message;
      if (typeof m === 'string' && m !== '') return m;
      const json = JSON.stringify(e);
      return json !== undefined ? `a non-error value was thrown: ${json}` : 'a non-error value was thrown';
    }
    return `a non-error value was thrown: ${String(e)}`;
  } catch {
    return 'a value was thrown that cannot be shown';
  }
};
