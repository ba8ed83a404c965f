/**
 * Rules applied to the paths a tool actually touches, rather than to the text of its arguments:
 * the real path a link leads to, every file of a directory a search walks. The built-in tools call
 * `checkPaths` at the moment of use, so `read_file notes.txt` (a link to `config/.env`) and
 * `text_search` over the whole workspace meet the same rules as `read_file config/.env`.
 */
import { type PathArgument, type RuleEngine, type RuleViolation, rulesFor, runRules } from './rules.js';

/** Every violation of the engine's rules (those that apply to `tool`) by these paths. Pure. */
export const checkPaths = (engine: RuleEngine, tool: string, paths: ReadonlyArray<PathArgument>): ReadonlyArray<RuleViolation> => {
  const applicable = rulesFor(engine, tool);
  if (applicable.length === 0 || paths.length === 0) return [];
  const args = Object.fromEntries(paths.map((p) => [p.argument, p.path]));
  return runRules(applicable, { tool, args, commands: [], paths }, 'access');
};
