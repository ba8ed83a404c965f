/**
 * Reading a command's output: "attempts to parse tool output as JSON; if multiple
 * lines are printed, it extracts the last JSON-looking line. Otherwise, it returns {output}".
 *
 * Precisely: the whole output (trimmed) when it is JSON (a pretty-printed document, or a single
 * value such as `42`); else the last line that looks like JSON (starts with `{` or `[`) and parses;
 * else `{output: <the output as printed>}`. Log lines before a final JSON line are ignored.
 */
import { err, ok, type Result } from '../../core/result.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export type OutputMode = 'auto' | 'json' | 'text' | 'raw';

export type ParsedOutput = { readonly json: true; readonly value: unknown } | { readonly json: false; readonly value: { readonly output: string } };

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

export const parseCommandOutput = (stdout: string): ParsedOutput => {
  const whole = stdout.trim();
  if (whole !== '') {
    const v = tryJson(whole);
    if (v.ok) return { json: true, value: v.value };
    const lines = stdout.split(/\r?\n/);
    for (let i = lines.length - 1; i >= 0; i--) {
      const line = lines[i]!.trim();
      if (!(line.startsWith('{') || line.startsWith('['))) continue;
      const lv = tryJson(line);
      if (lv.ok) return { json: true, value: lv.value };
    }
  }
  return { json: false, value: { output: stdout } };
};

const tryJson = (s: string): Result<unknown, unknown> => {
  try {
    return ok(JSON.parse(s) as unknown);
  } catch (e) {
    return err(e);
  }
};
