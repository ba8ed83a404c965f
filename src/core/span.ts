/**
 * Source positions. Every AST node is a `Span` (its `start` and `end` are UTF-16 offsets into
 * the source text) and every diagnostic carries one; lines and columns are computed from a `LineIndex` only when someone asks for them
 * (rendering a diagnostic, an editor integration), so parsing never pays for them.
 */

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** Half-open range `[start, end)` of UTF-16 offsets into the source text. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

/** A 1-based line and column (columns count UTF-16 code units, as editors and tsc do). */
export interface Position {
  readonly line: number;
  readonly column: number;
}

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

/** `| 0` keeps offsets small integers, so V8 stores spans compactly (never boxed doubles). */
export const span = (start: number, end: number): Span => ({ start: start | 0, end: end | 0 });

/**
 * The span of a located value (an AST node is its own span) as a span object of its own, for
 * diagnostics: a diagnostic must not hold on to the node, or to the rest of its tree.
 */
export function spanOf(x: Span): Span;
export function spanOf(x: Span | undefined): Span | undefined;
export function spanOf(x: Span | undefined): Span | undefined {
  return x === undefined ? undefined : { start: x.start, end: x.end };
}

/** The smallest span that covers both. */
export const cover = (a: Span, b: Span): Span => ({
  start: Math.min(a.start, b.start),
  end: Math.max(a.end, b.end),
});

// -------------------------------------------------------------------------------------------------
// line index
// -------------------------------------------------------------------------------------------------

/** Offsets of line starts, computed once per source; `\n`, `\r\n` and lone `\r` all end a line. */
export interface LineIndex {
  readonly source: string;
  readonly lineStarts: ReadonlyArray<number>;
}

export const lineIndex = (source: string): LineIndex => {
  const starts = [0];
  for (let i = 0; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (c === 10) starts.push(i + 1);
    else if (c === 13) {
      if (source.charCodeAt(i + 1) === 10) i++;
      starts.push(i + 1);
    }
  }
  return { source, lineStarts: starts };
};

/** 1-based line and column of an offset (clamped to the source). */
export const positionAt = (index: LineIndex, offset: number): Position => {
  const o = Math.max(0, Math.min(offset, index.source.length));
  const starts = index.lineStarts;
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if ((starts[mid] as number) <= o) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: o - (starts[lo] as number) + 1 };
};

/** The text of a 1-based line, without its line terminator. */
export const lineText = (index: LineIndex, line: number): string => {
  const starts = index.lineStarts;
  const start = starts[line - 1];
  if (start === undefined) return '';
  const next = starts[line];
  let end = next === undefined ? index.source.length : next;
  while (end > start) {
    const c = index.source.charCodeAt(end - 1);
    if (c === 10 || c === 13) end--;
    else break;
  }
  return index.source.slice(start, end);
};
