/**
 * Renders a diagnostic for a person, as rustc and tsc do:
 *
 *   error[GRAM_UNCLOSED_NODE]: expected `)` to close the node opened at 3:5
 *    --> agents.gram:3:12
 *     |
 *   3 | (a:Person {name: "x"}
 *     |            ^^^^^^^^^^
 *     = hint: add `)` after the record
 */
import type { Diagnostic } from './diagnostic.js';
import { type LineIndex, lineIndex, lineText, positionAt } from './span.js';

export interface FormatOptions {
  /** Used when the diagnostic has no `file` of its own. */
  readonly filename?: string;
  /** A precomputed line index of `source`, to render many diagnostics of one file cheaply. */
  readonly index?: LineIndex;
}

const MAX_CARETS = 120;

const expandTabs = (s: string): string => s.replace(/\t/g, '    ');

/** `line:column` of an offset, 1-based. */
export const formatPosition = (source: string | LineIndex, offset: number): string => {
  const idx = typeof source === 'string' ? lineIndex(source) : source;
  const p = positionAt(idx, offset);
  return `${p.line}:${p.column}`;
};

const excerpt = (idx: LineIndex, start: number, end: number, gutter: number): string[] => {
  const from = positionAt(idx, start);
  const to = positionAt(idx, Math.max(start, end));
  const text = lineText(idx, from.line);
  const width = gutter;
  const pad = ' '.repeat(width);
  // carets under the span's part on its first line; at least one caret (for an empty span, or EOF)
  const lastCol = to.line === from.line ? to.column : text.length + 1;
  const before = expandTabs(text.slice(0, from.column - 1));
  const under = expandTabs(text.slice(from.column - 1, Math.max(from.column, lastCol) - 1));
  const carets = '^'.repeat(Math.min(MAX_CARETS, Math.max(1, under.length)));
  const shown = expandTabs(text).length > 200 ? `${expandTabs(text).slice(0, 200)}…` : expandTabs(text);
  return [`${pad} |`, `${String(from.line).padStart(width)} | ${shown}`, `${pad} | ${' '.repeat(Math.min(before.length, 200))}${carets}`];
};

/** Renders one diagnostic; `source` is the text its span points into (omit when there is none). */
export const formatDiagnostic = (d: Diagnostic, source?: string, options: FormatOptions = {}): string => {
  const lines: string[] = [`${d.severity}[${d.code}]: ${d.message}`];
  const file = d.file ?? options.filename;
  if (d.span !== undefined && source !== undefined) {
    const idx = options.index ?? lineIndex(source);
    const p = positionAt(idx, d.span.start);
    const gutter = String(positionAt(idx, d.span.end).line).length;
    lines.push(`${' '.repeat(gutter)}--> ${file ?? '<input>'}:${p.line}:${p.column}`);
    lines.push(...excerpt(idx, d.span.start, d.span.end, gutter));
    for (const r of d.related ?? []) {
      const rp = positionAt(idx, r.span.start);
      if (r.file !== undefined && r.file !== file) {
        lines.push(`${' '.repeat(gutter)} = note: ${r.message} (${r.file}:${rp.line}:${rp.column})`);
      } else {
        lines.push(`${' '.repeat(gutter)} = note: ${r.message} (${rp.line}:${rp.column})`);
        lines.push(...excerpt(idx, r.span.start, r.span.end, gutter).slice(1));
      }
    }
    if (d.hint !== undefined) lines.push(`${' '.repeat(gutter)} = hint: ${d.hint}`);
  } else {
    if (file !== undefined) lines.push(` --> ${file}`);
    for (const r of d.related ?? []) lines.push(` = note: ${r.message}`);
    if (d.hint !== undefined) lines.push(` = hint: ${d.hint}`);
  }
  return lines.join('\n');
};

/** Renders many diagnostics of one source, sharing its line index. */
export const formatDiagnostics = (ds: ReadonlyArray<Diagnostic>, source?: string, options: FormatOptions = {}): string => {
  const index = source !== undefined ? (options.index ?? lineIndex(source)) : undefined;
  return ds.map((d) => formatDiagnostic(d, source, { ...options, ...(index ? { index } : {}) })).join('\n\n');
};
