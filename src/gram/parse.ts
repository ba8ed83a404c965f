/**
 * `parseGram`: gram text to a `GramDocument`, or every problem found.
 *
 * The pipeline: first the fast path (`fast-parser.ts`), a small hand-written parser for the common
 * shape of large documents that reads the scanner's tokens in place and gives up at the first
 * token outside that shape or the first problem of any kind. When it gives up, the text is parsed
 * again by the Chevrotain parsers, the reference, which find and word every error: the scanner
 * cuts the input into chunks of tokens between top-level patterns; the non-recovering parser
 * builds the AST of each chunk. On the first syntax error the chunk is parsed again by the
 * recovering parser to report several errors, and the rest of the input is only checked. Both
 * paths build the AST with the same constructors (`build.ts`). Strict mode then reports uses of
 * the nested-values extension.
 *
 * Never throws: an internal failure becomes a `GRAM_INTERNAL_ERROR` diagnostic.
 */
import { GramCodes } from './codes.js';
import type { IRecognitionException } from 'chevrotain';
import { type Checked, type Either, isRight, left, right } from '../core/either.js';
import type { GramDocument, RecordNode, TopLevelPattern } from './ast.js';
import { type Diagnostic, error, info, sortDiagnostics, withFile } from '../core/diagnostic.js';
import { extensionUses } from './extensions.js';
import { fastParse } from './fast-parser.js';
import { DEFAULT_MAX_DEPTH, GramLexer, type GramToken } from './lexer.js';
import { gramParser } from './parser.js';
import { type LineIndex, lineIndex } from '../core/span.js';
import { enclosingGroupEnd, type ErrorContext, matchingCloserEnd, syntaxDiagnostic, topLevel } from './syntax-errors.js';
import * as T from './tokens.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface ParseOptions {
  /**
   * Accept exactly standard gram (tree-sitter-gram): nested values inside records are reported
   * (`GRAM_NESTED_VALUE`, `GRAM_EMPTY_ARRAY`). Default false.
   */
  readonly strict?: boolean;
  /** Recorded on the document and on every diagnostic. */
  readonly filename?: string;
  /** Deepest nesting of brackets accepted (default 256, at most 512). */
  readonly maxDepth?: number;
  /** Syntax errors reported before giving up (default 100). */
  readonly maxErrors?: number;
  /**
   * Tokens per chunk of the Chevrotain parser (tests use small chunks to exercise chunking).
   * Giving it skips the fast path: the text is parsed by the Chevrotain parser, in chunks.
   */
  readonly chunkTokens?: number;
}

// -------------------------------------------------------------------------------------------------
// constants
// -------------------------------------------------------------------------------------------------

const DEFAULT_CHUNK_TOKENS = 4096;
const DEFAULT_MAX_ERRORS = 100;

// -------------------------------------------------------------------------------------------------
// the pipeline
// -------------------------------------------------------------------------------------------------

/**
 * Parses a gram document. Right: the document (its `warnings` list problems that lose or change
 * data without being errors). Left: every error found, in source order (and a final
 * `GRAM_TOO_MANY_ERRORS` note when reporting stopped early).
 */
export const parseGram = (text: string, options: ParseOptions = {}): Either<ReadonlyArray<Diagnostic>, GramDocument> => {
  const r = analyzeGram(text, options);
  return isRight(r) ? right(r.right.value) : left(r.left.filter((d) => d.severity !== 'warning'));
};

/**
 * Like `parseGram`, with the warnings (for `check` and editors): `Right({value, warnings})`, the
 * document and its warnings (the same as `document.warnings`); `Left` with every diagnostic found,
 * errors and warnings, in source order.
 */
export const analyzeGram = (text: string, options: ParseOptions = {}): Checked<GramDocument> => guarded(text, options, true);

/**
 * `analyzeGram` without the fast path: the Chevrotain parser reads every text. The reference the
 * fast path is tested against (not part of the package's API).
 */
export const analyzeGramWithChevrotain = (text: string, options: ParseOptions = {}): Checked<GramDocument> => guarded(text, options, false);

const guarded = (text: string, options: ParseOptions, fastPath: boolean): Checked<GramDocument> => {
  try {
    const fast = fastPath && options.chunkTokens === undefined ? fastParse(text, options.maxDepth ?? DEFAULT_MAX_DEPTH) : undefined;
    if (fast !== undefined) return finish(text, options, fast.header, fast.patterns, fast.lexer, fast.warnings);
    return run(text, options);
  } catch (e) {
    return left(
      withFile(options.filename, [
        error(GramCodes.INTERNAL_ERROR, `the gram parser failed unexpectedly: ${e instanceof Error ? e.message : String(e)}`, {
          hint: 'this is a bug in gramkit; please report it with the input that caused it',
        }),
      ]),
    );
  }
};

const run = (text: string, options: ParseOptions): Checked<GramDocument> => {
  const maxErrors = options.maxErrors ?? DEFAULT_MAX_ERRORS;
  const chunkTokens = options.chunkTokens ?? DEFAULT_CHUNK_TOKENS;
  const lexer = new GramLexer(text, { maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH, maxDiagnostics: maxErrors });
  const fast = gramParser(false);
  fast.begin();
  let lines: LineIndex | undefined;
  const linesOf = (): LineIndex => (lines ??= lineIndex(text));

  const patterns: TopLevelPattern[] = [];
  let header: RecordNode | undefined;
  const errors: Diagnostic[] = [];
  let failed = false;
  let stoppedEarly = false;
  let first = true;
  for (;;) {
    const tokens = lexer.nextChunk(chunkTokens);
    if (lexer.stopped) break;
    if (tokens.length === 0 && !first) break;
    const ctx: ErrorContext = { tokens, lines: linesOf, end: text.length };
    if (!failed) {
      fast.issues = [];
      fast.load(tokens, first);
      const out = fast.document();
      if (fast.errors.length === 0) {
        if (first) header = fast.header;
        for (const p of out) patterns.push(p);
        for (const d of fast.issues) errors.push(d);
      } else {
        failed = true;
      }
    }
    if (failed) recover(tokens, first, ctx, errors, maxErrors);
    first = false;
    if (tokens.length === 0) break;
    if (errors.length >= maxErrors) {
      stoppedEarly = true;
      break;
    }
  }

  const all: ReadonlyArray<Diagnostic> = [...lexer.diagnostics, ...errors];
  const ok = !failed && !lexer.stopped && all.every((d) => d.severity !== 'error');
  if (!ok) {
    const sorted = [...dedupe(sortDiagnostics(all))];
    const extra = Math.max(0, sorted.length - maxErrors) + lexer.dropped;
    sorted.length = Math.min(sorted.length, maxErrors);
    if (extra > 0 || stoppedEarly) {
      sorted.push(info(GramCodes.TOO_MANY_ERRORS, `stopped after ${maxErrors} errors; fix these first (there may be more)`));
    }
    return left(withFile(options.filename, sorted));
  }

  return finish(text, options, header, patterns, lexer, fast.warnings);
};

/** The document of a parse without errors (then strict mode's checks). */
const finish = (
  text: string,
  options: ParseOptions,
  header: RecordNode | undefined,
  patterns: TopLevelPattern[],
  lexer: GramLexer,
  warnings: ReadonlyArray<Diagnostic>,
): Checked<GramDocument> => {
  const document: GramDocument = {
    kind: 'Document',
    header,
    patterns,
    comments: lexer.comments,
    start: 0,
    end: text.length,
    filename: options.filename,
    blankLines: lexer.blankLines,
    warnings: warnings.length > 0 ? withFile(options.filename, sortDiagnostics(warnings)) : undefined,
  };
  if (options.strict === true) {
    const strict = extensionUses(document);
    if (strict.length > 0) {
      return left(withFile(options.filename, sortDiagnostics([...strict, ...warnings])));
    }
  }
  return right({ value: document, warnings: document.warnings ?? [] });
};

/**
 * Parses a chunk with error recovery, collecting its errors. When the parser stops before the end
 * of the chunk (a token that starts no top-level pattern), that token is reported and parsing
 * resumes at the next token that can start a pattern.
 */
const recover = (tokens: GramToken[], allowHeader: boolean, ctx: ErrorContext, out: Diagnostic[], maxErrors: number): void => {
  const parser = gramParser(true);
  let suppressUntil = -1;
  let reported = false;
  let start = 0;
  let header = allowHeader;
  while (start < tokens.length || (start === 0 && tokens.length === 0)) {
    const slice = start === 0 ? tokens : tokens.slice(start);
    parser.begin();
    parser.load(slice, header);
    parser.document();
    const sliceCtx: ErrorContext = { ...ctx, tokens: slice };
    let stoppedAt = -1;
    for (const e of parser.errors as IRecognitionException[]) {
      const k = slice.indexOf(e.token as GramToken);
      if (e.name === 'NotAllInputParsedException') stoppedAt = k < 0 ? slice.length : k;
      const offset = Number.isNaN(e.token.startOffset) ? Number.POSITIVE_INFINITY : e.token.startOffset;
      if (offset < suppressUntil || suppressUntil === Number.POSITIVE_INFINITY) continue;
      const d = e.name === 'NotAllInputParsedException' ? topLevel(e.token, slice[k - 1], sliceCtx) : syntaxDiagnostic(e, sliceCtx);
      // a stray closer after another error is that error's consequence (recovery left a bracket behind)
      if (d.code === GramCodes.UNMATCHED_CLOSER && reported) continue;
      out.push(d);
      reported = true;
      suppressUntil = Math.max(suppressUntil, consequencesEnd(d, slice, k, ctx));
    }
    for (const d of parser.issues) out.push(d);
    if (stoppedAt < 0 || out.length >= maxErrors) return;
    start += resumeAfter(slice, stoppedAt);
    header = false;
  }
};

/**
 * Where the consequences of an error end: error recovery resumes inside a broken construct and
 * finds more "errors" that only repeat the first. Later errors before this offset are dropped:
 * - a missing closer: up to the closer the user wrote for that bracket, if any;
 * - an error inside brackets: up to the end of the innermost bracket group around it;
 * - an error at top level (or a node missing after an arrow): up to the end of its line.
 */
const consequencesEnd = (d: Diagnostic, slice: ReadonlyArray<GramToken>, k: number, ctx: ErrorContext): number => {
  if (d.code.startsWith('GRAM_UNCLOSED_')) {
    const opener = d.related?.[0]?.span.start;
    return opener === undefined ? -1 : (matchingCloserEnd(slice, opener) ?? -1);
  }
  if (k < 0) return Number.POSITIVE_INFINITY;
  const t = slice[k] as GramToken;
  const group = d.code === GramCodes.EXPECTED_NODE ? undefined : enclosingGroupEnd(slice, k);
  if (group !== undefined) return group;
  const eol = ctx.lines().source.indexOf('\n', t.startOffset);
  const closer = T.isOpener(t.tokenType) ? (matchingCloserEnd(slice, t.startOffset) ?? -1) : -1;
  return Math.max(eol < 0 ? Number.POSITIVE_INFINITY : eol, closer);
};

/** Index (in `tokens`) of the first token after `k` that can start a top-level pattern at depth 0. */
const resumeAfter = (tokens: ReadonlyArray<GramToken>, k: number): number => {
  let depth = 0;
  for (let i = k; i < tokens.length; i++) {
    const t = (tokens[i] as GramToken).tokenType;
    if (i > k && depth === 0 && (t === T.LParen || t === T.LBracket || t === T.At || t === T.AtAt)) return i;
    if (T.isOpener(t)) depth++;
    else if (T.isCloser(t) && depth > 0) depth--;
  }
  return tokens.length;
};

/**
 * Drops parser errors that a lexical error explains (one problem, one message): an error at the
 * same place, and errors inside or right after an unterminated string or fence (it swallowed the
 * closing brackets that follow it).
 */
const dedupe = (ds: ReadonlyArray<Diagnostic>): ReadonlyArray<Diagnostic> => {
  const lexical = ds.filter((d) => LEXICAL.has(d.code) && d.span !== undefined);
  const explained = (d: Diagnostic): boolean => {
    const at = d.span?.start;
    if (at === undefined) return false;
    return lexical.some((l) => {
      const s = l.span as { start: number; end: number };
      if (l.code === GramCodes.UNTERMINATED_FENCE) return at >= s.start;
      if (l.code === GramCodes.UNTERMINATED_STRING) return at >= s.start && at <= s.end;
      return at === s.start;
    });
  };
  return ds.filter((d) => LEXICAL.has(d.code) || !explained(d));
};

const LEXICAL: ReadonlySet<string> = new Set<string>([
  GramCodes.INVALID_NUMBER,
  GramCodes.UNTERMINATED_STRING,
  GramCodes.INVALID_ESCAPE,
  GramCodes.UNTERMINATED_FENCE,
  GramCodes.FENCE_LINE_BREAK,
]);
