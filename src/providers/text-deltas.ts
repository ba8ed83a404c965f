/**
 * Text as a streaming provider sends it: word-sized deltas, spaces kept, so that joining them
 * gives the text back. Used by the models that have the whole answer at once (offline, scripted,
 * replay of a call recorded without deltas).
 */

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

export const textDeltas = (text: string): ReadonlyArray<string> => text.match(/\s*\S+\s*/g) ?? (text.length > 0 ? [text] : []);
