/**
 * Rules applied to the paths a tool actually touches, rather than to the text of its arguments:
 * the real path a link leads to, every file of a directory a search walks. The built-in tools call
 * `checkPaths` at the moment of use, so `read_file notes.txt` (a link to `config/.env`) and
 * `text_search` over the whole workspace meet the same rules as `read_file config/.env`.
 */
import type { PathArgument, RuleEngine, RuleViolation } from './rules.js';

/** Every violation of the engine's rules (those that apply to `tool`) by these paths. Pure. */
export const checkPaths = (engine: RuleEngine, tool: string, paths: ReadonlyArray<PathArgument>): ReadonlyArray<RuleViolation> => {
  const applicable = engine.rules.filter((r) => r.tools === undefined || r.tools.includes(tool));
  if (applicable.length === 0 || paths.length === 0) return [];
  const args = Object.fromEntries(paths.map((p) => [p.argument, p.path]));
  const input = { tool, args, commands: [], paths };
  const out: RuleViolation[] = [];
  for (const r of applicable) {
    let reason: string | undefined;
    try {
      reason = r.check(input);
    } catch (e) {
      reason = `the rule failed (${e instanceof Error ? e.message : String(e)}), so the access is blocked`;
    }
    if (reason !== undefined) out.push({ rule: r.name, reason });
  }
  return out;
};
