/**
 * Diagnostics as the CLI prints them: rustc-style blocks with file, line, column and a caret, or
 * one JSON object per diagnostic with 1-based positions for tools.
 */
import type { Diagnostic } from '../../core/diagnostic.js';
import { formatDiagnostics } from '../../core/format-diagnostic.js';
import { type LineIndex, lineIndex, positionAt } from '../../core/span.js';

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

/** Rendered diagnostics of one source, ending with a newline (empty when there are none). */
export const renderDiagnostics = (ds: ReadonlyArray<Diagnostic>, text: string, filename: string): string =>
  ds.length === 0 ? '' : `${formatDiagnostics(ds, text, { filename })}\n\n`;

/** A diagnostic as plain JSON with line and column of its span (1-based). */
export const diagnosticJson = (d: Diagnostic, file: string, index: LineIndex): Record<string, unknown> => {
  const start = d.span === undefined ? undefined : positionAt(index, d.span.start);
  const end = d.span === undefined ? undefined : positionAt(index, d.span.end);
  return {
    file: d.file ?? file,
    code: d.code,
    severity: d.severity,
    message: d.message,
    ...(d.span !== undefined && start !== undefined && end !== undefined
      ? { span: { start: d.span.start, end: d.span.end }, line: start.line, column: start.column, endLine: end.line, endColumn: end.column }
      : {}),
    ...(d.hint !== undefined ? { hint: d.hint } : {}),
  };
};

export const diagnosticsJson = (ds: ReadonlyArray<Diagnostic>, text: string, file: string): Record<string, unknown>[] => {
  if (ds.length === 0) return [];
  const index = lineIndex(text);
  return ds.map((d) => diagnosticJson(d, file, index));
};

/** `2 errors, 1 warning` */
export const countText = (errors: number, warnings: number): string =>
  `${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`;
