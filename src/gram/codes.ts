/**
 * The gram front end's diagnostic codes (`GRAM_`): the scanner, the parser, strict mode and the
 * limits. Detection builds diagnostics with these constants; docs/errors.md lists them.
 */
import { type CodeOf, defineCodes } from '../core/codes.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export const GramCodes = defineCodes(
  'gram',
  'GRAM',
  {
    INVALID_CHARACTER: { summary: 'a character that starts no token (`>`, `#`, `é` outside a string)', hint: 'remove it, or put it inside a string' },
    INVALID_NUMBER: {
      summary: 'a malformed number (`08`, `2.5s`, `5e3`, `0b101`, `0o77`)',
      hint: 'write a decimal, `0x` hexadecimal or `0` octal number, without exponent; quote anything else',
    },
    INVALID_ESCAPE: {
      summary: 'an escape gram does not know (`\\u0041`, `\\\'` in a `"…"` string)',
      hint: 'use one of `\\\\ \\" \\n \\t \\r`, or write the character itself',
    },
    UNTERMINATED_STRING: {
      summary: 'a one-line string without its closing quote on the line',
      hint: 'close the string on the same line, or use a fenced string for several lines',
    },
    FENCE_LINE_BREAK: { summary: 'text after an opening ```` ``` ```` other than a tag', hint: 'start the fenced text on the next line' },
    UNTERMINATED_FENCE: { summary: 'a fenced string never closed', hint: 'close it with ```` ``` ```` on a line of its own' },
    UNCLOSED_NODE: { summary: '`)` expected to close a node (the message says where it opened)', hint: 'add the `)`' },
    UNCLOSED_SUBJECT_PATTERN: { summary: '`]` expected to close a subject pattern', hint: 'add the `]`' },
    UNCLOSED_RELATIONSHIP: { summary: "`]` expected to close an arrow's `[subject]`", hint: 'add the `]` before the second half of the arrow' },
    UNCLOSED_ARRAY: { summary: '`,` or `]` expected in an array', hint: 'separate the items with `,` and close the array with `]`' },
    UNCLOSED_RECORD: { summary: '`,` or `}` expected in a record or map', hint: 'separate the entries with `,` and close with `}`' },
    UNCLOSED_ANNOTATION: { summary: '`)` expected to close `@key(value`', hint: 'add the `)`' },
    UNMATCHED_CLOSER: { summary: 'a `)`, `]` or `}` with nothing to close', hint: 'remove it, or add what it should close' },
    EXPECTED_NODE: { summary: 'an arrow not followed by a node `(…)`', hint: 'end the arrow with a node' },
    EXPECTED_KEY: { summary: 'a record or map entry without a key (often a trailing comma)', hint: 'remove the trailing comma, or write `key: value`' },
    EXPECTED_COLON: { summary: 'a key not followed by `:`', hint: 'write `key: value`' },
    EXPECTED_VALUE: { summary: '`:` not followed by a value', hint: 'write the value after the `:`' },
    EXPECTED_ELEMENT: { summary: '`|` or `,` not followed by a pattern element', hint: 'add the element, or remove the separator' },
    EXPECTED_PATTERN: {
      summary: 'a top-level token that starts no pattern, or annotations without their pattern',
      hint: 'start each top-level pattern with `(` or `[`',
    },
    EXPECTED_IDENTIFIER: { summary: '`@@` without an identifier or labels', hint: 'write `@@name` or `@@:Label`' },
    EXPECTED_LABEL: { summary: '`:` without a label name', hint: 'write the label after the colon, e.g. `:Person`' },
    EXPECTED_ANNOTATION_VALUE: { summary: '`@` without `key(value)`', hint: 'write `@key(value)`' },
    INCOMPLETE_ARROW: { summary: 'an arrow missing its second half (`(a)-(b)`)', hint: 'write a whole arrow: `-->`, `==>`, `~~>`, `--`' },
    INCOMPLETE_RANGE: { summary: '`..` without its upper bound', hint: 'write both bounds, `1..10`, or `1...` for no upper bound' },
    MIXED_ARROW: { summary: 'arrow halves of two families (`-[r]=>`)', hint: 'use the same family for both halves: `-[r]->` or `=[r]=>`' },
    MAP_SEPARATOR: { summary: '`::` in a map (only records allow it)', hint: 'write `key: value` in a map' },
    MISPLACED_ANNOTATION: {
      summary: 'an annotation inside a node, relationship or element list, or `@@` after `@`',
      hint: 'put annotations before the top-level pattern they annotate',
    },
    INVALID_IDENTIFIER: {
      summary: 'a number or string where an identifier goes (`(12px)`, `(@x)`)',
      hint: 'start identifiers with a letter or `_`, or quote them with backticks',
    },
    TOP_LEVEL_SEQUENCE: { summary: 'top-level patterns separated by commas', hint: 'separate top-level patterns with line breaks, not commas' },
    MISPLACED_RECORD: {
      summary: 'a bare record after the first pattern (only the header may be bare)',
      hint: 'put the record inside a node or subject pattern, or move it to the top as the header',
    },
    UNEXPECTED_TOKEN: { summary: 'any other token in the wrong place', hint: 'the message names what was expected there' },
    NESTED_VALUE: { summary: 'an array or map inside an array or map (strict mode)', hint: 'flatten the value, or parse without strict mode' },
    EMPTY_ARRAY: { summary: 'an empty array `[]` (strict mode)', hint: 'leave the property out, or parse without strict mode' },
    NESTING_TOO_DEEP: { summary: 'brackets nested beyond the limit (256 by default, `maxDepth` up to 512)', hint: 'flatten the document, or raise `maxDepth`' },
    PATTERN_TOO_LARGE: {
      summary: 'one top-level pattern beyond the token limit (about two million tokens)',
      hint: 'split the pattern into several top-level patterns',
    },
    DUPLICATE_KEY: { summary: 'a key given twice in one record or map (the last value wins)', severity: 'warning', hint: 'remove one of them' },
    DUPLICATE_ANNOTATION: { summary: 'an annotation key given twice (the last value wins)', severity: 'warning', hint: 'remove one of them' },
    UNSAFE_NUMBER: {
      summary: 'a number JSON cannot hold exactly (beyond ±2^53, or infinite)',
      severity: 'warning',
      hint: 'write it as a string if every digit matters',
    },
    RANGE_UNIT: {
      summary: 'a measurement as a range bound: its unit is dropped when lowering',
      severity: 'warning',
      hint: 'write the bounds as plain numbers and put the unit in a property',
    },
    TOO_MANY_ERRORS: { summary: 'reporting stopped after 100 errors (`maxErrors`)', severity: 'info', hint: 'fix the errors shown first; there may be more' },
    INTERNAL_ERROR: { summary: 'a bug in gramkit (never expected)', hint: 'please report it with the input that caused it' },
  },
  { canonical: 'INVALID_CONFIGURATION' },
);

export type GramCode = CodeOf<typeof GramCodes>;
