/**
 * The safety rules applied to a command tool's call, on the argv as it will run (after template
 * expansion): the same rules that judge the `shell` built-in's commands judge `rm -rf {dir}`
 * registered as a tool. The argv is quoted word by word into a shell text, so the rules read
 * exactly the words the program receives (wrappers like `sudo` and `sh -c` scripts included), and
 * every value of a path parameter is a path argument (`write`, the stricter access).
 */
import {
  type PathArgument,
  type RuleEngine,
  type RuleViolation,
  MAX_COMMAND_LENGTH,
  combineRuleEngines,
  ruleEngine,
  ruleInput,
  rulesFor,
  runRules,
} from '../../policy/rules.js';
import { argText } from './argv-template.js';

/** The argument name under which a command tool's argv is shown to the rules. */
export const ARGV_ARGUMENT = 'argv';

/** `words` as a shell text that parses back to the same words (each single-quoted). */
export const shellQuote = (words: ReadonlyArray<string>): string => words.map((w) => `'${w.split("'").join("'\\''")}'`).join(' ');

/**
 * Every violation of `engine`'s rules by a call of command tool `tool` that runs `argv`. The
 * rules that apply are those for `tool` and those for `shell` (a command tool runs programs as
 * `shell` does). Pure.
 */
export const checkCommandRules = (
  engine: RuleEngine,
  tool: string,
  args: Readonly<Record<string, unknown>>,
  argv: ReadonlyArray<string>,
  pathParameters: ReadonlyArray<string>,
): ReadonlyArray<RuleViolation> => {
  const rules = [...new Set([...rulesFor(engine, tool), ...rulesFor(engine, 'shell')])];
  if (rules.length === 0) return [];
  const text = shellQuote(argv);
  if (text.length > MAX_COMMAND_LENGTH)
    return [{ rule: 'command-too-long', reason: `the command line is ${text.length} characters long, more than the ${MAX_COMMAND_LENGTH} the rules read` }];
  const own = ruleEngine([], { commandArguments: { [tool]: () => [{ argument: ARGV_ARGUMENT, text }] } });
  const base = ruleInput(combineRuleEngines(engine, own), tool, args);
  const paths: PathArgument[] = [...base.paths];
  for (const name of pathParameters) {
    const v = args[name];
    for (const x of Array.isArray(v) ? v : [v]) {
      const p = argText(x);
      if (p !== undefined) paths.push({ argument: name, path: p, access: 'write' });
    }
  }
  return runRules(rules, { ...base, paths }, 'call');
};
