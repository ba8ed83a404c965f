/**
 * Words Chevrotain's recognition errors for people: what was expected, in terms of gram ("expected
 * `)` to close the node opened at 3:5"), never token type names, with a stable code and a hint.
 *
 * The parser's message provider records only facts (rule, expected token); this module adds the
 * context: the token found, the bracket that is still open, the token before.
 */
import { type GramCode, GramCodes } from './codes.js';
import type { IRecognitionException, IToken, TokenType } from 'chevrotain';
import { type Diagnostic, error } from '../core/diagnostic.js';
import type { GramToken } from './lexer.js';
import type { SyntaxErrorFacts } from './parser.js';
import { type LineIndex, positionAt, type Span, span } from '../core/span.js';
import * as T from './tokens.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** What wording needs besides the exception: the chunk's tokens and a way to compute positions. */
export interface ErrorContext {
  readonly tokens: ReadonlyArray<GramToken>;
  readonly lines: () => LineIndex;
  /** Offset of the end of the input (where an unexpected end is shown). */
  readonly end: number;
}

// -------------------------------------------------------------------------------------------------
// utilities: tokens
// -------------------------------------------------------------------------------------------------

const is = (t: IToken | undefined, type: TokenType): boolean =>
  t !== undefined && (t.tokenTypeIdx === type.tokenTypeIdx || (type.categoryMatchesMap?.[t.tokenTypeIdx] ?? false));

const isEof = (t: IToken | undefined): boolean => t === undefined || t.tokenType?.name === 'EOF' || Number.isNaN(t.startOffset);

const clip = (s: string, n = 24): string => (s.length > n ? `${s.slice(0, n)}…` : s);

/** The token found, in words: "`foo`", "the string \"a\"", "the end of the input". */
export const describeFound = (t: IToken | undefined): string => {
  if (t === undefined || isEof(t)) return 'the end of the input';
  const image = t.image;
  if (is(t, T.Invalid)) return `the character \`${image}\``;
  if (is(t, T.FencedString) || is(t, T.TaggedFencedString)) return 'a fenced string';
  if (is(t, T.StringCat)) return `the string ${clip(image)}`;
  if (is(t, T.NumberCat)) return `the number \`${clip(image)}\``;
  if (is(t, T.SymbolToken)) return `\`${clip(image)}\``;
  return `\`${image}\``;
};

const spanOfToken = (t: IToken | undefined, ctx: ErrorContext): Span => {
  if (t === undefined || isEof(t)) {
    const last = ctx.tokens[ctx.tokens.length - 1];
    const at = last === undefined ? ctx.end : last.endOffset + 1;
    return span(at, at);
  }
  return span(t.startOffset, (t.endOffset ?? t.startOffset) + 1);
};

/** Index of `t` in the chunk (tokens are sorted by offset); the length for the end of input. */
const indexOf = (tokens: ReadonlyArray<GramToken>, t: IToken | undefined): number => {
  if (t === undefined || isEof(t)) return tokens.length;
  let lo = 0;
  let hi = tokens.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const s = (tokens[mid] as GramToken).startOffset;
    if (s === t.startOffset) return mid;
    if (s < t.startOffset) lo = mid + 1;
    else hi = mid - 1;
  }
  return lo;
};

/** The nearest still-open bracket of type `opener` before index `i`. */
const findOpener = (tokens: ReadonlyArray<GramToken>, i: number, opener: TokenType): GramToken | undefined => {
  let depth = 0;
  for (let k = i - 1; k >= 0; k--) {
    const t = tokens[k] as GramToken;
    if (T.isCloser(t.tokenType)) depth++;
    else if (T.isOpener(t.tokenType)) {
      if (depth === 0) {
        if (t.tokenType === opener) return t;
      } else depth--;
    }
  }
  return undefined;
};

const at = (ctx: ErrorContext, offset: number): string => {
  const p = positionAt(ctx.lines(), offset);
  return `${p.line}:${p.column}`;
};

// -------------------------------------------------------------------------------------------------
// utilities: wording
// -------------------------------------------------------------------------------------------------

const INVALID_HINTS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^>$/, 'arrows are written in two halves, like `-->`, `==>` or `~~>`'],
  [/^[#/]$/, 'comments start with `//` and run to the end of the line'],
  [/^;$/, 'gram has no statement separator; write each pattern on its own line'],
  [/^\.$/, 'ranges are written `1..10`, `1...` or `...10`; decimals need digits on both sides of the point'],
  [/^[!?*+%&^$]$/, 'gram has no operators; write free text as a string'],
  [/^\\$/, 'backslashes only appear inside strings'],
  [/^[^\x00-\x7f]/, 'names are ASCII letters, digits, `_`, `.`, `-` and `@`; put other names in backticks, like `` `café` ``'],
];

const invalidCharacter = (t: IToken, ctx: ErrorContext, where: string): Diagnostic => {
  const hint = INVALID_HINTS.find(([re]) => re.test(t.image))?.[1];
  return error(GramCodes.INVALID_CHARACTER, `unexpected character \`${t.image}\`${where}`, {
    span: spanOfToken(t, ctx),
    ...(hint !== undefined ? { hint } : {}),
  });
};

const MISPLACED_ANNOTATION_HINT = 'annotations go before a top-level pattern, like `@description("…") (a)`';

const misplacedAnnotation = (t: IToken, ctx: ErrorContext, where: string): Diagnostic => {
  // `@name` not followed by `(` is a name that starts with `@`, not an annotation
  const i = indexOf(ctx.tokens, t);
  const name = ctx.tokens[i + 1];
  const after = ctx.tokens[i + 2];
  if (name !== undefined && is(name, T.SymbolToken) && !(after !== undefined && is(after, T.LParen))) {
    return error(GramCodes.INVALID_IDENTIFIER, `\`@${name.image}\` cannot be an identifier: names cannot start with \`@\``, {
      span: span(t.startOffset, name.endOffset + 1),
      hint: `write it in backticks: \`@${name.image}\``,
    });
  }
  return error(GramCodes.MISPLACED_ANNOTATION, `annotations are not allowed ${where}`, { span: spanOfToken(t, ctx), hint: MISPLACED_ANNOTATION_HINT });
};

const isBadIdentifier = (t: IToken): boolean =>
  is(t, T.Decimal) || is(t, T.Measurement) || is(t, T.Hexadecimal) || is(t, T.Octal) || is(t, T.SingleString) || is(t, T.DoubleString);

const badIdentifier = (t: IToken, ctx: ErrorContext): Diagnostic =>
  error(GramCodes.INVALID_IDENTIFIER, `${describeFound(t)} cannot be an identifier`, {
    span: spanOfToken(t, ctx),
    hint: `identifiers are names, integers or backtick-quoted names; write \`${t.image.replace(/^["']|["']$/g, '').replace(/`/g, '\\`')}\` in backticks`,
  });

const unclosed = (code: string, closer: string, what: string, opener: TokenType, t: IToken, ctx: ErrorContext, also = '', hint?: string): Diagnostic => {
  const o = findOpener(ctx.tokens, indexOf(ctx.tokens, t), opener);
  const where = o === undefined ? '' : ` opened at ${at(ctx, o.startOffset)}`;
  const expected = also === '' ? `\`${closer}\`` : `${also} or \`${closer}\``;
  const verb = also === '' ? `to close the ${what}` : `in the ${what}`;
  return error(code, `expected ${expected} ${verb}${where}, found ${describeFound(t)}`, {
    span: spanOfToken(t, ctx),
    ...(o !== undefined ? { related: [{ message: `the ${what} opened here`, span: span(o.startOffset, o.endOffset + 1) }] } : {}),
    ...(hint !== undefined ? { hint } : {}),
  });
};

const unexpected = (message: string, t: IToken, ctx: ErrorContext, hint?: string, code: GramCode = GramCodes.UNEXPECTED_TOKEN): Diagnostic =>
  error(code, message, { span: spanOfToken(t, ctx), ...(hint !== undefined ? { hint } : {}) });

const parseFacts = (message: string): SyntaxErrorFacts | undefined => {
  try {
    return JSON.parse(message) as SyntaxErrorFacts;
  } catch {
    return undefined;
  }
};

// -------------------------------------------------------------------------------------------------
// the wording
// -------------------------------------------------------------------------------------------------

/** One diagnostic for one recognition error. */
export const syntaxDiagnostic = (e: IRecognitionException, ctx: ErrorContext): Diagnostic => {
  const t = e.token;
  const facts = parseFacts(e.message);
  const stack = e.context?.ruleStack ?? [];
  const rule = facts?.rule ?? stack[stack.length - 1] ?? '';
  const parent = stack[stack.length - 2];
  const i = indexOf(ctx.tokens, t);
  const prev = ctx.tokens[i - 1];

  if (!isEof(t) && is(t, T.Invalid)) {
    const where = rule === 'record' ? ' in a record' : rule === 'node' ? ' in a node' : '';
    return invalidCharacter(t, ctx, where);
  }

  if (facts?.kind === 'notAllInput' || (facts?.kind === 'mismatch' && rule === 'document')) return topLevel(t, prev, ctx);

  if (facts?.kind === 'mismatch') {
    const expected = facts.expected;
    switch (rule) {
      case 'node':
        if (expected === T.LParen.name) {
          const arrow = prev !== undefined && (is(prev, T.ArrowRightCat) || is(prev, T.ArrowLeftCat)) ? ` after \`${arrowText(ctx.tokens, i)}\`` : '';
          return unexpected(
            `expected a node \`(…)\`${arrow}, found ${describeFound(t)}`,
            t,
            ctx,
            is(t, T.LBracket)
              ? "a relationship's subject goes between the halves of its arrow, like `-[r:KNOWS]->`"
              : 'an arrow joins two nodes, like `(a)-->(b)`',
            GramCodes.EXPECTED_NODE,
          );
        }
        if (is(t, T.At)) return misplacedAnnotation(t, ctx, 'inside a node');
        if (isBadIdentifier(t) && prev !== undefined && is(prev, T.LParen)) return badIdentifier(t, ctx);
        return unclosed(
          GramCodes.UNCLOSED_NODE,
          ')',
          'node',
          T.LParen,
          t,
          ctx,
          '',
          is(t, T.IdentifierCat) || is(t, T.LabelSepCat) || is(t, T.LBrace)
            ? 'a node holds at most one identifier, then labels (`:Label`), then one record (`{…}`), in that order'
            : undefined,
        );
      case 'subjectPattern':
        if (is(t, T.At)) return misplacedAnnotation(t, ctx, 'inside a subject pattern');
        if (isBadIdentifier(t) && prev !== undefined && is(prev, T.LBracket)) return badIdentifier(t, ctx);
        return unclosed(
          GramCodes.UNCLOSED_SUBJECT_PATTERN,
          ']',
          'subject pattern',
          T.LBracket,
          t,
          ctx,
          '',
          is(t, T.LParen) || is(t, T.LBracket) || is(t, T.IdentifierCat)
            ? prev !== undefined && (is(prev, T.RParen) || is(prev, T.RBracket) || is(prev, T.IdentifierCat)) && hasPipeBefore(ctx.tokens, i)
              ? 'separate the elements with `,`'
              : prev !== undefined && is(prev, T.LBracket)
                ? 'a list of elements starts with `|`, like `[ | (a), (b)]`'
                : 'put `|` between the subject and its elements, like `[team | (a), (b)]`'
            : undefined,
        );
      case 'arrow':
        if (expected === T.RBracket.name) {
          if (is(t, T.At)) return misplacedAnnotation(t, ctx, 'inside a relationship');
          if (isBadIdentifier(t) && prev !== undefined && is(prev, T.LBracket)) return badIdentifier(t, ctx);
          return unclosed(GramCodes.UNCLOSED_RELATIONSHIP, ']', 'relationship', T.LBracket, t, ctx);
        }
        return unexpected(
          `expected the end of the arrow that starts with \`${arrowStart(ctx.tokens, i)}\`, found ${describeFound(t)}`,
          t,
          ctx,
          'an arrow has two halves of one kind, like `-->`, `-[r]->`, `<--`, `==>` or `~~`',
          GramCodes.INCOMPLETE_ARROW,
        );
      case 'record': {
        const what = parent === 'value' ? 'map' : 'record';
        if (expected === T.RBrace.name) {
          if (is(t, T.IdentifierCat) && prev !== undefined && !is(prev, T.Comma)) {
            const beforePrev = ctx.tokens[i - 2];
            const words =
              is(prev, T.SymbolToken) && beforePrev !== undefined && is(beforePrev, T.LabelSepCat) && !is(tokensAfter(ctx.tokens, i), T.LabelSepCat);
            return unclosed(
              GramCodes.UNCLOSED_RECORD,
              '}',
              what,
              T.LBrace,
              t,
              ctx,
              '`,`',
              words ? `write text with spaces as a string, like "${prev.image} ${t.image}"` : 'separate entries with `,`',
            );
          }
          return unclosed(GramCodes.UNCLOSED_RECORD, '}', what, T.LBrace, t, ctx, '`,`');
        }
        if (expected === T.KeyCat.name) {
          return unexpected(
            `expected a key in the ${what}, found ${describeFound(t)}`,
            t,
            ctx,
            is(t, T.RBrace) ? 'remove the comma after the last entry' : 'keys are names, `backtick names` or "quoted names"',
            GramCodes.EXPECTED_KEY,
          );
        }
        if (expected === T.LabelSepCat.name) {
          const key = prev !== undefined ? ` after the key \`${clip(prev.image)}\`` : '';
          return unexpected(
            `expected \`:\`${key}, found ${describeFound(t)}`,
            t,
            ctx,
            `${what === 'record' ? 'records' : 'maps'} pair keys and values as \`key: value\``,
            GramCodes.EXPECTED_COLON,
          );
        }
        break;
      }
      case 'value':
        if (expected === T.RBracket.name) return unclosed(GramCodes.UNCLOSED_ARRAY, ']', 'array', T.LBracket, t, ctx, '`,`');
        if (expected === T.NumberCat.name) {
          return unexpected(
            `expected a number to complete the range, found ${describeFound(t)}`,
            t,
            ctx,
            'ranges are written `1..10`, `1...` or `...10`',
            GramCodes.INCOMPLETE_RANGE,
          );
        }
        break;
      case 'annotated':
        if (expected === T.RParen.name) return unclosed(GramCodes.UNCLOSED_ANNOTATION, ')', 'annotation', T.LParen, t, ctx);
        if (expected === T.LParen.name) {
          return unexpected(
            `expected \`(\` and a value after \`@${prev?.image ?? ''}\`, found ${describeFound(t)}`,
            t,
            ctx,
            'annotations are written `@key(value)`',
            GramCodes.EXPECTED_ANNOTATION_VALUE,
          );
        }
        if (expected === T.SymbolToken.name) {
          return unexpected(
            `expected an annotation name after \`@\`, found ${describeFound(t)}`,
            t,
            ctx,
            'annotations are written `@key(value)`',
            GramCodes.EXPECTED_ANNOTATION_VALUE,
          );
        }
        if (expected === T.LabelNameCat.name) return expectedLabel(t, ctx);
        break;
      case 'subject':
        if (expected === T.LabelNameCat.name) return expectedLabel(t, ctx);
        break;
      default:
        break;
    }
    return unexpected(`expected ${T.describeExpected(tokenTypeNamed(expected))}, found ${describeFound(t)}`, t, ctx);
  }

  if (facts?.kind === 'noViableAlt' || facts?.kind === 'earlyExit') {
    switch (rule) {
      case 'value':
        return unexpected(
          `expected a value${prev !== undefined && is(prev, T.LabelSepCat) ? ` after \`${prev.image}\`` : ''}, found ${describeFound(t)}`,
          t,
          ctx,
          'values are strings, numbers, booleans, names, ranges, arrays `[…]` and maps `{…}`',
          GramCodes.EXPECTED_VALUE,
        );
      case 'subjectPattern':
        if (is(t, T.At)) return misplacedAnnotation(t, ctx, 'on the elements of a subject pattern');
        if (isBadIdentifier(t)) return badIdentifier(t, ctx);
        return unexpected(
          `expected a pattern element after \`${prev?.image ?? '|'}\`, found ${describeFound(t)}`,
          t,
          ctx,
          is(t, T.RBracket)
            ? prev !== undefined && is(prev, T.Comma)
              ? 'remove the comma after the last element'
              : 'write `[p]` for a pattern without elements'
            : 'elements are nodes `(…)`, paths, subject patterns `[…]` or identifiers of patterns defined elsewhere',
          GramCodes.EXPECTED_ELEMENT,
        );
      case 'annotated':
        if (prev !== undefined && is(prev, T.AtAt)) {
          return unexpected(
            `expected an identifier or labels after \`@@\`, found ${describeFound(t)}`,
            t,
            ctx,
            'write `@@id`, `@@:Label` or `@@id:Label`',
            GramCodes.EXPECTED_IDENTIFIER,
          );
        }
        if (is(t, T.AtAt)) return unexpected('`@@` must come before the other annotations', t, ctx, 'move `@@…` to the front', GramCodes.MISPLACED_ANNOTATION);
        return unexpected(
          `expected the pattern these annotations apply to, found ${describeFound(t)}`,
          t,
          ctx,
          'annotations are followed by a node `(…)`, a path or a subject pattern `[…]`',
          GramCodes.EXPECTED_PATTERN,
        );
      default:
        return unexpected(`unexpected ${describeFound(t)}`, t, ctx);
    }
  }
  return unexpected(`unexpected ${describeFound(t)}`, t, ctx);
};

/** An error for a token that cannot start a top-level pattern (where one was expected). */
export const topLevel = (t: IToken, prev: IToken | undefined, ctx: ErrorContext): Diagnostic => {
  if (is(t, T.Invalid)) return invalidCharacter(t, ctx, '');
  if (is(t, T.Comma)) {
    return unexpected(
      'top-level patterns are not separated by commas',
      t,
      ctx,
      'write each pattern on its own line, or list them as elements of a subject pattern: `[ | (a), (b)]`',
      GramCodes.TOP_LEVEL_SEQUENCE,
    );
  }
  if (is(t, T.LBrace)) {
    return unexpected(
      'a record on its own is only allowed at the start of a document, as its header',
      t,
      ctx,
      'attach the record to a pattern, like `({k: 1})`, or move it to the top',
      GramCodes.MISPLACED_RECORD,
    );
  }
  if (is(t, T.RParen) || is(t, T.RBracket) || is(t, T.RBrace)) {
    return unexpected(`\`${t.image}\` has nothing to close`, t, ctx, 'remove it, or add the opening bracket it belongs to', GramCodes.UNMATCHED_CLOSER);
  }
  if (is(t, T.ArrowLeftCat) || is(t, T.ArrowRightCat)) {
    const afterSubjectPattern = prev !== undefined && is(prev, T.RBracket);
    return unexpected(
      `unexpected \`${t.image}\``,
      t,
      ctx,
      afterSubjectPattern
        ? 'only nodes `(…)` are joined by arrows; put the relationship inside a subject pattern or use nodes'
        : 'a relationship joins two nodes with an arrow of two halves, like `(a)-->(b)` or `(a)-[:KNOWS]->(b)`',
      GramCodes.UNEXPECTED_TOKEN,
    );
  }
  return unexpected(
    `expected a pattern such as \`(a)\`, \`(a)-->(b)\` or \`[a | b]\`, found ${describeFound(t)}`,
    t,
    ctx,
    is(t, T.SymbolToken) || is(t, T.Integer) ? `identifiers go inside a node: \`(${t.image})\`` : undefined,
    GramCodes.EXPECTED_PATTERN,
  );
};

const expectedLabel = (t: IToken, ctx: ErrorContext): Diagnostic =>
  unexpected(
    `expected a label name after \`:\`, found ${describeFound(t)}`,
    t,
    ctx,
    'labels are names or `backtick names`, like `:Person` or `` :`Two Words` ``',
    GramCodes.EXPECTED_LABEL,
  );

const hasPipeBefore = (tokens: ReadonlyArray<GramToken>, i: number): boolean => {
  let depth = 0;
  for (let k = i - 1; k >= 0; k--) {
    const t = tokens[k] as GramToken;
    if (T.isCloser(t.tokenType)) depth++;
    else if (T.isOpener(t.tokenType)) {
      if (depth === 0) return false;
      depth--;
    } else if (depth === 0 && t.tokenType === T.Pipe) return true;
  }
  return false;
};

const arrowStart = (tokens: ReadonlyArray<GramToken>, i: number): string => {
  for (let k = i - 1; k >= 0; k--) {
    const t = tokens[k] as GramToken;
    if (is(t, T.ArrowLeftCat)) return t.image;
  }
  return '-';
};

/** End offset of the closer that matches the opener at `offset`, when the chunk has one. */
export const matchingCloserEnd = (tokens: ReadonlyArray<GramToken>, offset: number): number | undefined => {
  const k = indexOf(tokens, { startOffset: offset } as IToken);
  const o = tokens[k];
  if (o === undefined || o.startOffset !== offset || !T.isOpener(o.tokenType)) return undefined;
  let depth = 0;
  for (let i = k + 1; i < tokens.length; i++) {
    const t = tokens[i] as GramToken;
    if (T.isOpener(t.tokenType)) depth++;
    else if (T.isCloser(t.tokenType)) {
      if (depth === 0) return t.endOffset + 1;
      depth--;
    }
  }
  return undefined;
};

/**
 * End offset of the bracket group that encloses token `k` (its closer, or the end of the chunk
 * when it is never closed); undefined at top level. Errors inside it after a misplaced annotation
 * are consequences of that one mistake.
 */
export const enclosingGroupEnd = (tokens: ReadonlyArray<GramToken>, k: number): number | undefined => {
  let depth = 0;
  let opened = false;
  for (let i = k - 1; i >= 0; i--) {
    const t = tokens[i] as GramToken;
    if (T.isCloser(t.tokenType)) depth++;
    else if (T.isOpener(t.tokenType)) {
      if (depth === 0) {
        opened = true;
        break;
      }
      depth--;
    }
  }
  if (!opened) return undefined;
  depth = 0;
  for (let i = k; i < tokens.length; i++) {
    const t = tokens[i] as GramToken;
    if (T.isOpener(t.tokenType)) depth++;
    else if (T.isCloser(t.tokenType)) {
      if (depth === 0) return t.endOffset + 1;
      depth--;
    }
  }
  const last = tokens[tokens.length - 1];
  return last === undefined ? undefined : last.endOffset + 1;
};

/** The source text of the arrow that ends just before index `i` (`--`, `-[r]->`). */
const arrowText = (tokens: ReadonlyArray<GramToken>, i: number): string => {
  let k = i - 1;
  if (k >= 0 && is(tokens[k], T.ArrowRightCat)) k--;
  if (k >= 0 && is(tokens[k], T.RBracket)) {
    let depth = 0;
    for (; k >= 0; k--) {
      const t = tokens[k] as GramToken;
      if (T.isCloser(t.tokenType)) depth++;
      else if (T.isOpener(t.tokenType) && --depth === 0) break;
    }
    k--;
  }
  return k >= 0 && is(tokens[k], T.ArrowLeftCat)
    ? tokens
        .slice(k, i)
        .map((t) => t.image)
        .join('')
    : (tokens[i - 1]?.image ?? '');
};

const tokensAfter = (tokens: ReadonlyArray<GramToken>, i: number): GramToken | undefined => tokens[i + 1];

const tokenTypeNamed = (name: string): TokenType => T.allTokens.find((t) => t.name === name) ?? T.Invalid;
