/**
 * The token vocabulary of gram notation, as Chevrotain token types.
 *
 * gramkit lexes with its own scanner (`lexer.ts`): gram's lexing is context-sensitive in ways a
 * table of regular expressions handles badly (fenced strings, tagged strings, `-->` as `-` + `->`,
 * hexadecimal versus measurement by longest match). The scanner produces tokens of these types, so
 * the Chevrotain parser (`parser.ts`) matches on them as usual. Categories group the tokens a
 * grammar position accepts (an identifier is a symbol, a backtick name or an integer), so the
 * parser consumes one category instead of choosing between alternatives.
 */
import { createToken, Lexer, type TokenType } from 'chevrotain';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** Human wording of every token type, for messages ("expected `)`", "found a string"). */
export interface TokenDescription {
  /** As an expectation: "`)`", "a key". */
  readonly expected: string;
}

const descriptions = new Map<TokenType, TokenDescription>();

const token = (name: string, expected: string, categories: TokenType[] = []): TokenType => {
  const t = createToken({ name, pattern: Lexer.NA, categories });
  descriptions.set(t, { expected });
  return t;
};

// -------------------------------------------------------------------------------------------------
// constructors: categories first (members name them)
// -------------------------------------------------------------------------------------------------

/** A pattern identity: symbol, backtick name or integer. */
export const IdentifierCat = token('Identifier', 'an identifier (a name, a `backtick name` or an integer)');
/** A label name: symbol or backtick name. */
export const LabelNameCat = token('LabelName', 'a label name');
/** A record or map key: symbol, backtick name or double-quoted name. */
export const KeyCat = token('Key', 'a key (a name, a `backtick name` or a "quoted name")');
/** `:` or `::` */
export const LabelSepCat = token('LabelSeparator', '`:`');
/** Any number literal. */
export const NumberCat = token('Number', 'a number');
/** A plain string value: single, double, backtick quoted or fenced. */
export const StringCat = token('String', 'a string');
/** The first half of an arrow: `-` `=` `~` `<-` `<=` `<~`. */
export const ArrowLeftCat = token('ArrowStart', 'an arrow such as `-->`');
/** The second half of an arrow: `-` `=` `~` `->` `=>` `~>`. */
export const ArrowRightCat = token('ArrowEnd', 'the end of the arrow (`-`, `->`, `=`, `=>`, `~` or `~>`)');

export const LParen = token('LParen', '`(`');
export const RParen = token('RParen', '`)`');
export const LBracket = token('LBracket', '`[`');
export const RBracket = token('RBracket', '`]`');
export const LBrace = token('LBrace', '`{`');
export const RBrace = token('RBrace', '`}`');
export const Comma = token('Comma', '`,`');
export const Pipe = token('Pipe', '`|`');
export const Colon = token('Colon', '`:`', [LabelSepCat]);
export const DoubleColon = token('DoubleColon', '`::`', [LabelSepCat]);
export const At = token('At', '`@`');
export const AtAt = token('AtAt', '`@@`');
export const DotDot = token('DotDot', '`..`');
export const Ellipsis = token('Ellipsis', '`...`');

export const Dash = token('Dash', '`-`', [ArrowLeftCat, ArrowRightCat]);
export const DashGt = token('DashGt', '`->`', [ArrowRightCat]);
export const LtDash = token('LtDash', '`<-`', [ArrowLeftCat]);
export const Eq = token('Eq', '`=`', [ArrowLeftCat, ArrowRightCat]);
export const EqGt = token('EqGt', '`=>`', [ArrowRightCat]);
export const LtEq = token('LtEq', '`<=`', [ArrowLeftCat]);
export const Tilde = token('Tilde', '`~`', [ArrowLeftCat, ArrowRightCat]);
export const TildeGt = token('TildeGt', '`~>`', [ArrowRightCat]);
export const LtTilde = token('LtTilde', '`<~`', [ArrowLeftCat]);

export const SymbolToken = token('Symbol', 'a name', [IdentifierCat, LabelNameCat, KeyCat]);
export const Integer = token('Integer', 'an integer', [IdentifierCat, NumberCat]);
export const Decimal = token('Decimal', 'a decimal number', [NumberCat]);
export const Hexadecimal = token('Hexadecimal', 'a hexadecimal number', [NumberCat]);
export const Octal = token('Octal', 'an octal number', [NumberCat]);
export const Measurement = token('Measurement', 'a measurement', [NumberCat]);

export const SingleString = token('SingleString', "a 'string'", [StringCat]);
export const DoubleString = token('DoubleString', 'a "string"', [StringCat, KeyCat]);
export const BacktickString = token('BacktickString', 'a `backtick string`', [StringCat, IdentifierCat, LabelNameCat, KeyCat]);
export const FencedString = token('FencedString', 'a fenced string', [StringCat]);
export const TaggedFencedString = token('TaggedFencedString', 'a tagged fenced string');

/** A character that starts no token; the parser never accepts it, so it reports it in context. */
export const Invalid = token('Invalid', 'a valid character');

/** Every token type, categories included (the parser's vocabulary). */
export const allTokens: ReadonlyArray<TokenType> = [
  IdentifierCat,
  LabelNameCat,
  KeyCat,
  LabelSepCat,
  NumberCat,
  StringCat,
  ArrowLeftCat,
  ArrowRightCat,
  LParen,
  RParen,
  LBracket,
  RBracket,
  LBrace,
  RBrace,
  Comma,
  Pipe,
  Colon,
  DoubleColon,
  At,
  AtAt,
  DotDot,
  Ellipsis,
  Dash,
  DashGt,
  LtDash,
  Eq,
  EqGt,
  LtEq,
  Tilde,
  TildeGt,
  LtTilde,
  SymbolToken,
  Integer,
  Decimal,
  Hexadecimal,
  Octal,
  Measurement,
  SingleString,
  DoubleString,
  BacktickString,
  FencedString,
  TaggedFencedString,
  Invalid,
];

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

/** How a token type reads as an expectation in a message. */
export const describeExpected = (t: TokenType): string => descriptions.get(t)?.expected ?? `\`${t.name}\``;

export const isOpener = (t: TokenType): boolean => t === LParen || t === LBracket || t === LBrace;
export const isCloser = (t: TokenType): boolean => t === RParen || t === RBracket || t === RBrace;

/** `tokenTypeIdx` of a token type (assigned by `createToken`). */
export const idx = (t: TokenType): number => t.tokenTypeIdx as number;
