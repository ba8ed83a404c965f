/**
 * The gram scanner: source text to Chevrotain tokens, comments and layout facts.
 *
 * Hand-written because gram's lexing is context-sensitive (see the corpus NOTES §1): `-->` is `-`
 * followed by `->`; `0xFF` is hexadecimal but `0xFFg` a measurement (longest match); "```" opens
 * a fenced string whose body is raw up to the next "```"; a tag may be separated from its
 * backtick string by whitespace or comments, and so may the halves of an arrow or a range (the
 * parser joins those token sequences). Only offsets are tracked; lines and columns are computed
 * from a line index when a diagnostic is shown.
 *
 * The scanner never fails: a character that starts no token becomes an `Invalid` token (the parser
 * reports it in context), an unterminated string or a malformed number is reported here and still
 * produces a token so parsing goes on.
 *
 * The core, `advance()`, scans one token into fields of the scanner (no object per token): the
 * fast parser (`fast-parser.ts`) reads them in place. `nextChunk(n)` makes Chevrotain tokens of
 * them for `parser.ts`: at least `n` tokens (unless the input ends), cut only between two
 * top-level patterns, so a very large file is parsed with bounded token memory. Names and number
 * spellings are interned (`intern.ts`).
 */
import { GramCodes } from './codes.js';
import type { IToken, TokenType } from 'chevrotain';
import type { Comment } from './ast.js';
import { type Diagnostic, error } from '../core/diagnostic.js';
import { span } from '../core/span.js';
import { Interner } from './intern.js';
import { decodeEscapes, escapedChar, isSymbolPart, isSymbolStart } from './strings.js';
import * as T from './tokens.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/**
 * A token. `endOffset` is inclusive (Chevrotain's convention). `payload` holds the decoded content
 * of strings (the body of a fenced string), so the parser does not re-scan them.
 */
export class GramToken implements IToken {
  constructor(
    public readonly tokenType: TokenType,
    public readonly tokenTypeIdx: number,
    public readonly startOffset: number,
    public readonly endOffset: number,
    public readonly image: string,
    public readonly payload: string | undefined,
  ) {}
}

/** The default nesting limit of brackets, braces and parentheses. */
export const DEFAULT_MAX_DEPTH = 256;
/** The highest nesting limit that may be asked for: the parser recurses once per level. */
export const MAX_DEPTH_LIMIT = 512;
/**
 * Tokens one top-level pattern may span (about 10 MB of dense gram). Chunks are cut between
 * top-level patterns, so this bounds the memory of the token buffer.
 */
export const MAX_PATTERN_TOKENS = 1 << 21;

export interface LexerOptions {
  /** Tokens one top-level pattern may span (default `MAX_PATTERN_TOKENS`). */
  readonly maxPatternTokens?: number;
  /** Lexical errors recorded before the rest are only counted (default 100). */
  readonly maxDiagnostics?: number;
  /** Deeper nesting is reported (`GRAM_NESTING_TOO_DEEP`) and scanning stops (at most `MAX_DEPTH_LIMIT`). */
  readonly maxDepth?: number;
}

// -------------------------------------------------------------------------------------------------
// constants
// -------------------------------------------------------------------------------------------------

const I = {
  LParen: T.idx(T.LParen),
  LBracket: T.idx(T.LBracket),
  RBrace: T.idx(T.RBrace),
  At: T.idx(T.At),
  Symbol: T.idx(T.SymbolToken),
};

/** What the scanner's bookkeeping needs to know of a token type, by type index. */
const OPENER = 1;
const CLOSER = 2;
const ARROW_START = 4;
const ROLE = (() => {
  const table = new Uint8Array(Math.max(...T.allTokens.map(T.idx)) + 1);
  for (const t of [T.LParen, T.LBracket, T.LBrace]) table[T.idx(t)] = OPENER;
  for (const t of [T.RParen, T.RBracket, T.RBrace]) table[T.idx(t)] = CLOSER;
  for (const t of [T.Dash, T.Eq, T.Tilde, T.LtDash, T.LtEq, T.LtTilde]) table[T.idx(t)] = ARROW_START;
  return table;
})();
const role = (i: number): number => (i < 0 ? 0 : (ROLE[i] as number));

interface Punct {
  readonly t: TokenType;
  readonly i: number;
  readonly image: string;
}

const punct = (t: TokenType, image: string): Punct => ({ t, i: T.idx(t), image });
const P = {
  LParen: punct(T.LParen, '('),
  RParen: punct(T.RParen, ')'),
  LBracket: punct(T.LBracket, '['),
  RBracket: punct(T.RBracket, ']'),
  LBrace: punct(T.LBrace, '{'),
  RBrace: punct(T.RBrace, '}'),
  Comma: punct(T.Comma, ','),
  Pipe: punct(T.Pipe, '|'),
  Colon: punct(T.Colon, ':'),
  DoubleColon: punct(T.DoubleColon, '::'),
  At: punct(T.At, '@'),
  AtAt: punct(T.AtAt, '@@'),
  DotDot: punct(T.DotDot, '..'),
  Ellipsis: punct(T.Ellipsis, '...'),
  Dash: punct(T.Dash, '-'),
  DashGt: punct(T.DashGt, '->'),
  LtDash: punct(T.LtDash, '<-'),
  Eq: punct(T.Eq, '='),
  EqGt: punct(T.EqGt, '=>'),
  LtEq: punct(T.LtEq, '<='),
  Tilde: punct(T.Tilde, '~'),
  TildeGt: punct(T.TildeGt, '~>'),
  LtTilde: punct(T.LtTilde, '<~'),
};

const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isOctalDigit = (c: number): boolean => c >= 48 && c <= 55;
const isHexDigit = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70);
const isAlpha = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
const isWordChar = (c: number): boolean => isAlpha(c) || isDigit(c) || c === 95;

/** Whitespace as tree-sitter's `\s` (Unicode White_Space), plus the byte-order mark. */
const isSpace = (c: number): boolean =>
  c === 32 ||
  (c >= 9 && c <= 13) ||
  (c >= 128 &&
    (c === 0x85 ||
      c === 0xa0 ||
      c === 0x1680 ||
      (c >= 0x2000 && c <= 0x200a) ||
      c === 0x2028 ||
      c === 0x2029 ||
      c === 0x202f ||
      c === 0x205f ||
      c === 0x3000 ||
      c === 0xfeff));

// -------------------------------------------------------------------------------------------------
// the scanner
// -------------------------------------------------------------------------------------------------

export class GramLexer {
  /** Every comment, in source order. */
  readonly comments: Comment[] = [];
  /** Offsets of blank lines (one per run of blank lines), for the formatter. */
  readonly blankLines: number[] = [];
  /** Lexical errors, in source order. */
  readonly diagnostics: Diagnostic[] = [];
  /** Set when nesting exceeded the limit, or one pattern exceeded its token limit: scanning stopped there. */
  stopped = false;
  /** Lexical errors found beyond `maxDiagnostics` (counted, not recorded). */
  dropped = 0;

  // The current token, set by `advance()`. `end` is exclusive. `image` is set for punctuation,
  // symbols and numbers (interned); strings, fences and invalid characters leave it undefined
  // (`nextChunk` slices it). `payload` is the decoded content of strings.
  type: TokenType = T.Invalid;
  idx = -1;
  start = 0;
  end = 0;
  image: string | undefined = undefined;
  payload: string | undefined = undefined;
  /** Whether the current token starts a new top-level pattern (a chunk may be cut before it). */
  startsPattern = false;

  private pos = 0;
  private readonly len: number;
  private readonly maxDepth: number;
  private readonly maxDiagnostics: number;
  private readonly maxPatternTokens: number;
  /** Open brackets: 1 = annotation parenthesis `@k(`, 2 = relationship bracket `-[`, 0 = any other. */
  private readonly open = new Uint8Array(MAX_DEPTH_LIMIT + 2);
  /** How many brackets are open (scanning stops one past `maxDepth`). */
  private depth = 0;
  /** The previous two token type indexes (to recognise `@ key (`). */
  private prev1 = -1;
  private prev2 = -1;
  /** Whether the current line has a token or comment before the scan position. */
  private lineHasContent = false;
  private blankRecorded = false;
  /** A closer just brought the depth back to 0 (outside an annotation): a chunk may end here. */
  private atBoundary = false;
  /** Tokens of the current top-level pattern so far. */
  private patternTokens = 0;
  private pending: GramToken | undefined;
  private readonly names: Interner;

  constructor(
    private readonly src: string,
    options: LexerOptions = {},
  ) {
    this.len = src.length;
    this.names = new Interner(src);
    this.maxDiagnostics = options.maxDiagnostics ?? 100;
    this.maxPatternTokens = options.maxPatternTokens ?? MAX_PATTERN_TOKENS;
    this.maxDepth = Math.max(1, Math.min(MAX_DEPTH_LIMIT, Math.floor(options.maxDepth ?? DEFAULT_MAX_DEPTH)));
  }

  private report(d: Diagnostic): void {
    if (this.diagnostics.length < this.maxDiagnostics || d.code === GramCodes.NESTING_TOO_DEEP || d.code === GramCodes.PATTERN_TOO_LARGE) {
      this.diagnostics.push(d);
    } else {
      this.dropped++;
    }
  }

  /**
   * The next tokens: at least `minTokens` unless the input ends first, ending between two
   * top-level patterns. An empty array means the input is exhausted.
   */
  nextChunk(minTokens: number): GramToken[] {
    const out: GramToken[] = [];
    if (this.pending !== undefined) {
      out.push(this.pending);
      this.pending = undefined;
    }
    while (!this.stopped) {
      if (this.advance() < 0) break;
      const t = new GramToken(this.type, this.idx, this.start, this.end - 1, this.image ?? this.src.slice(this.start, this.end), this.payload);
      if (this.startsPattern && out.length >= minTokens) {
        this.pending = t;
        break;
      }
      out.push(t);
    }
    return out;
  }

  /**
   * Scans the next token into `type`, `idx`, `start`, `end`, `image`, `payload` and returns its
   * type index; -1 at the end of the input or once scanning has stopped (`stopped`).
   */
  advance(): number {
    if (this.stopped) return -1;
    const boundary = this.atBoundary;
    const p = this.skipTrivia();
    if (p >= this.len) {
      this.idx = -1;
      return -1;
    }
    this.lineHasContent = true;
    this.blankRecorded = false;
    this.scan(p);
    const i = this.idx;
    this.track(i);
    this.startsPattern = boundary && (role(i) & ARROW_START) === 0;
    this.patternTokens = this.startsPattern ? 1 : this.patternTokens + 1;
    if (this.patternTokens > this.maxPatternTokens) {
      this.stopped = true;
      this.report(
        error(GramCodes.PATTERN_TOO_LARGE, `this pattern spans more than ${this.maxPatternTokens} tokens`, {
          span: span(this.start, this.end),
          hint: 'split it into several top-level patterns (a subject pattern can refer to patterns defined elsewhere by identifier)',
        }),
      );
    }
    return i;
  }

  // ---------------------------------------------------------------------------------------------
  // trivia
  // ---------------------------------------------------------------------------------------------

  /** Skips whitespace and comments; returns the new position. */
  private skipTrivia(): number {
    const src = this.src;
    const len = this.len;
    let p = this.pos;
    while (p < len) {
      const c = src.charCodeAt(p);
      if (c > 32 && c < 128 && c !== 47) break;
      if (c === 10 || (c === 13 && src.charCodeAt(p + 1) !== 10)) {
        if (!this.lineHasContent && !this.blankRecorded && p > 0) {
          this.blankLines.push(p);
          this.blankRecorded = true;
        }
        this.lineHasContent = false;
        p++;
      } else if (c === 32 || c === 9 || c === 13) {
        p++;
      } else if (c === 47 && src.charCodeAt(p + 1) === 47) {
        p = this.comment(p);
      } else if (c > 32 && c < 128) {
        break;
      } else if (isSpace(c)) {
        p++;
      } else {
        break;
      }
    }
    this.pos = p;
    return p;
  }

  /** A `//` comment starting at `p`; returns the offset of its line end. */
  private comment(p: number): number {
    const src = this.src;
    let e = src.indexOf('\n', p + 2);
    if (e < 0) e = this.len;
    let textEnd = e;
    while (textEnd > p + 2 && src.charCodeAt(textEnd - 1) === 13) textEnd--;
    const c: Comment = this.lineHasContent
      ? { kind: 'Comment', text: src.slice(p + 2, textEnd), start: p, end: textEnd, endOfLine: true }
      : { kind: 'Comment', text: src.slice(p + 2, textEnd), start: p, end: textEnd };
    this.comments.push(c);
    this.lineHasContent = true;
    this.blankRecorded = false;
    return e;
  }

  // ---------------------------------------------------------------------------------------------
  // tokens
  // ---------------------------------------------------------------------------------------------

  /** Sets the current token; `end` is exclusive. */
  private set(type: TokenType, i: number, start: number, end: number, image: string | undefined, payload: string | undefined): void {
    this.pos = end;
    this.type = type;
    this.idx = i;
    this.start = start;
    this.end = end;
    this.image = image;
    this.payload = payload;
  }

  private tok(p: Punct, start: number): void {
    this.set(p.t, p.i, start, start + p.image.length, p.image, undefined);
  }

  /** A token whose image `nextChunk` slices when it needs one. */
  private make(t: TokenType, start: number, end: number, payload?: string): void {
    this.set(t, t.tokenTypeIdx as number, start, end, undefined, payload);
  }

  /** Nesting depth, chunk boundaries, annotation parentheses. */
  private track(i: number): void {
    this.atBoundary = false;
    const r = role(i);
    if ((r & OPENER) !== 0) {
      this.open[this.depth++] =
        i === I.LParen && this.prev1 === I.Symbol && this.prev2 === I.At ? 1 : i === I.LBracket && (role(this.prev1) & ARROW_START) !== 0 ? 2 : 0;
      if (this.depth > this.maxDepth) {
        this.stopped = true;
        this.report(
          error(GramCodes.NESTING_TOO_DEEP, `brackets are nested more than ${this.maxDepth} levels deep`, {
            span: span(this.start, this.end),
            hint: 'flatten the structure: define inner patterns separately and refer to them by identifier',
          }),
        );
      }
    } else if ((r & CLOSER) !== 0 && this.depth > 0) {
      const kind = this.open[--this.depth];
      if (this.depth === 0 && kind === 0 && i !== I.RBrace) this.atBoundary = true;
    }
    this.prev2 = this.prev1;
    this.prev1 = i;
  }

  private scan(p: number): void {
    const src = this.src;
    const c = src.charCodeAt(p);
    const c1 = src.charCodeAt(p + 1);
    switch (c) {
      case 40:
        return this.tok(P.LParen, p);
      case 41:
        return this.tok(P.RParen, p);
      case 91:
        return this.tok(P.LBracket, p);
      case 93:
        return this.tok(P.RBracket, p);
      case 123:
        return this.tok(P.LBrace, p);
      case 125:
        return this.tok(P.RBrace, p);
      case 44:
        return this.tok(P.Comma, p);
      case 124:
        return this.tok(P.Pipe, p);
      case 58:
        return this.tok(c1 === 58 ? P.DoubleColon : P.Colon, p);
      case 64:
        return this.tok(c1 === 64 ? P.AtAt : P.At, p);
      case 46: // .
        if (c1 === 46) return this.tok(src.charCodeAt(p + 2) === 46 ? P.Ellipsis : P.DotDot, p);
        return this.invalid(p);
      case 45: // -
        if (c1 === 62) return this.tok(P.DashGt, p);
        if (isDigit(c1)) return this.number(p);
        return this.tok(P.Dash, p);
      case 61:
        return this.tok(c1 === 62 ? P.EqGt : P.Eq, p);
      case 126:
        return this.tok(c1 === 62 ? P.TildeGt : P.Tilde, p);
      case 60: // <
        if (c1 === 45) return this.tok(P.LtDash, p);
        if (c1 === 61) return this.tok(P.LtEq, p);
        if (c1 === 126) return this.tok(P.LtTilde, p);
        return this.invalid(p);
      case 34:
        return this.string(p, 34, T.DoubleString);
      case 39:
        return this.string(p, 39, T.SingleString);
      case 96:
        if (c1 === 96 && src.charCodeAt(p + 2) === 96) return this.fenced(p);
        return this.string(p, 96, T.BacktickString);
      default:
        if (isDigit(c)) return this.number(p);
        if (isSymbolStart(c)) {
          let h = c;
          let e = p + 1;
          for (; e < this.len; e++) {
            const x = src.charCodeAt(e);
            if (!isSymbolPart(x)) break;
            h = (Math.imul(h, 31) + x) | 0;
          }
          return this.set(T.SymbolToken, I.Symbol, p, e, this.names.text(p, e, h), undefined);
        }
        return this.invalid(p);
    }
  }

  /** One character (a whole surrogate pair) that starts no token. */
  private invalid(p: number): void {
    const c = this.src.charCodeAt(p);
    const w = c >= 0xd800 && c <= 0xdbff && p + 1 < this.len ? 2 : 1;
    return this.make(T.Invalid, p, p + w);
  }

  /**
   * A number at `p` (a digit, or `-` then a digit): integer, decimal, hexadecimal, octal or
   * measurement, by longest match as tree-sitter-gram does. Trailing word characters make the
   * whole run a malformed number (`08`, `2.5s`, `5e3`, `0b101`, `1_000`).
   */
  private number(p: number): void {
    const src = this.src;
    const neg = src.charCodeAt(p) === 45;
    const d = neg ? p + 1 : p;
    let type: TokenType;
    let e: number;
    const c0 = src.charCodeAt(d);
    if (!neg && c0 === 48 && src.charCodeAt(d + 1) === 120 && isHexDigit(src.charCodeAt(d + 2))) {
      let h = d + 2;
      while (isHexDigit(src.charCodeAt(h))) h++;
      let m = d + 1;
      while (isAlpha(src.charCodeAt(m))) m++;
      if (m > h) {
        type = T.Measurement;
        e = m;
      } else {
        type = T.Hexadecimal;
        e = h;
      }
    } else if (!neg && c0 === 48 && isOctalDigit(src.charCodeAt(d + 1))) {
      e = d + 1;
      while (isOctalDigit(src.charCodeAt(e))) e++;
      type = T.Octal;
    } else {
      e = d + 1;
      if (c0 !== 48) while (isDigit(src.charCodeAt(e))) e++;
      const n = src.charCodeAt(e);
      if (n === 46 && isDigit(src.charCodeAt(e + 1))) {
        e += 2;
        while (isDigit(src.charCodeAt(e))) e++;
        type = T.Decimal;
      } else if (isAlpha(n)) {
        while (isAlpha(src.charCodeAt(e))) e++;
        type = T.Measurement;
      } else {
        type = T.Integer;
      }
    }
    const n = src.charCodeAt(e);
    if (isWordChar(n) || (n === 46 && isWordChar(src.charCodeAt(e + 1)))) {
      let r = e;
      for (;;) {
        const x = src.charCodeAt(r);
        if (isWordChar(x)) r++;
        else if (x === 46 && isWordChar(src.charCodeAt(r + 1))) r++;
        else if ((x === 45 || x === 43) && (src.charCodeAt(r - 1) | 32) === 101 && isDigit(src.charCodeAt(r + 1)))
          r++; // 1.5e-3
        else break;
      }
      const text = src.slice(p, r);
      this.report(error(GramCodes.INVALID_NUMBER, `\`${text}\` is not a valid number`, { span: span(p, r), hint: numberHint(text) }));
      return this.set(type, type.tokenTypeIdx as number, p, r, this.names.range(p, r), undefined);
    }
    return this.set(type, type.tokenTypeIdx as number, p, e, this.names.range(p, e), undefined);
  }

  /** A one-line string opened at `p` by `quote`. */
  private string(p: number, quote: number, type: TokenType): void {
    const src = this.src;
    const len = this.len;
    let i = p + 1;
    let escapes = false;
    for (;;) {
      if (i >= len) return this.unterminated(p, i, quote, type, escapes);
      const c = src.charCodeAt(i);
      if (c === quote) break;
      if (c === 10) return this.unterminated(p, i, quote, type, escapes);
      if (c === 92) {
        const n = src.charCodeAt(i + 1);
        if (i + 1 < len && n !== 10 && escapedChar(n, quote) !== undefined) {
          escapes = true;
          i += 2;
          continue;
        }
        const w = i + 1 < len && n !== 10 ? 2 : 1;
        this.report(
          error(GramCodes.INVALID_ESCAPE, `\`${src.slice(i, i + w)}\` is not an escape sequence gram knows`, {
            span: span(i, i + w),
            hint: `gram strings know \\\\ \\/ \\b \\f \\n \\r \\t and \\${String.fromCharCode(quote)}; write a backslash as \\\\`,
          }),
        );
        escapes = true;
        i += w;
        continue;
      }
      i++;
    }
    const content = escapes ? decodeEscapes(src, p + 1, i, quote) : src.slice(p + 1, i);
    return this.make(type, p, i + 1, content);
  }

  private unterminated(p: number, i: number, quote: number, type: TokenType, escapes: boolean): void {
    let end = i;
    while (end > p + 1 && this.src.charCodeAt(end - 1) === 13) end--;
    const q = String.fromCharCode(quote);
    this.report(
      error(GramCodes.UNTERMINATED_STRING, `this string has no closing ${q === '`' ? 'backtick' : `\`${q}\``} before the end of the line`, {
        span: span(p, end),
        hint: `close it with ${q === '`' ? 'a backtick' : q} on the same line; text over several lines goes in a fenced string (\`\`\` on its own line)`,
      }),
    );
    const content = escapes ? decodeEscapes(this.src, p + 1, end, quote) : this.src.slice(p + 1, end);
    return this.make(type, p, end, content);
  }

  /**
   * A fenced string opened at `p` by "```": an optional tag (a symbol), optional spaces, a line
   * break, then the raw body up to the next "```".
   */
  private fenced(p: number): void {
    const src = this.src;
    const len = this.len;
    let i = p + 3;
    while (i < len && (src.charCodeAt(i) === 32 || src.charCodeAt(i) === 9)) i++;
    let tagged = false;
    if (isSymbolStart(src.charCodeAt(i))) {
      tagged = true;
      while (i < len && isSymbolPart(src.charCodeAt(i))) i++;
    }
    for (;;) {
      const c = src.charCodeAt(i);
      if (i < len && c !== 10 && isSpace(c)) i++;
      else break;
    }
    if (src.charCodeAt(i) === 47 && src.charCodeAt(i + 1) === 47) {
      const save = this.lineHasContent;
      this.lineHasContent = true;
      i = this.comment(i);
      this.lineHasContent = save;
    }
    const type = tagged ? T.TaggedFencedString : T.FencedString;
    if (src.charCodeAt(i) !== 10) {
      const end = Math.max(p + 3, i);
      this.report(
        error(GramCodes.FENCE_LINE_BREAK, 'expected a line break after the opening ``` of a fenced string', {
          span: span(p, end),
          hint: tagged ? 'a fenced string starts with ``` and an optional tag alone on their line' : 'start the text on the next line',
        }),
      );
      return this.make(type, p, end, '');
    }
    const body = i + 1;
    const close = src.indexOf('```', body);
    if (close < 0) {
      this.report(
        error(GramCodes.UNTERMINATED_FENCE, 'this fenced string is never closed', {
          span: span(p, p + 3),
          hint: 'end it with ``` (the closing fence may follow the last line directly or sit on its own line)',
        }),
      );
      this.lineHasContent = true;
      return this.make(type, p, len, src.slice(body));
    }
    return this.make(type, p, close + 3, src.slice(body, close));
  }
}

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

const numberHint = (text: string): string => {
  const t = text.startsWith('-') ? text.slice(1) : text;
  if (/^0[bB]/.test(t)) return 'binary numbers are not part of gram; write the value in decimal or hexadecimal (0x…)';
  if (/^0[oO]/.test(t)) return 'octal numbers are written with a leading zero and no letter, like 0755';
  if (/^0[xX][0-9a-fA-F]+$/.test(t) && text.startsWith('-')) return 'hexadecimal numbers cannot be negative in gram';
  if (/^[0-9.]+[eE][-+]?[0-9]/.test(t)) return 'exponents are not part of gram; write the number in full';
  if (/^[0-9]+\.[0-9]+[a-zA-Z]/.test(t)) return 'a measurement takes an integer value, like 2500ms; write other quantities as strings';
  if (t.includes('_')) return 'digit separators are not part of gram; write the digits together';
  if (/^0[0-9]/.test(t)) return 'a leading zero makes an octal number (digits 0-7); remove the zero for a decimal integer';
  if (/^[0-9]+\.[0-9]+\./.test(t)) return 'a number has at most one decimal point; use a string for versions and dates';
  return 'numbers are integers (42), decimals (3.14), hexadecimal (0xFF), octal (0755) or measurements (168cm)';
};
