/**
 * `gramkit/gram`: the gram front end's lower-level pieces, for tools that work on gram text itself
 * (editors, linters, converters). Parsing, lowering and formatting are in the root entry.
 */
export type { LineIndex } from '../core/span.js';
export { lineIndex, positionAt, lineText } from '../core/span.js';
export { sortDiagnostics } from '../core/diagnostic.js';
export { formatPosition } from '../core/format-diagnostic.js';
export { lowerPattern, valueToJson, recordToJson, propertiesToJson, identityOf, headerPattern } from '../gram/lower.js';
export { hasSubject, isBareIdentity, subjectSpan, keySpan } from '../gram/subject.js';
export { isSymbol as isGramSymbol, quote as quoteGramString } from '../gram/strings.js';
