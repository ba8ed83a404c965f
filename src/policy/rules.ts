/**
 * The rule engine: rules that block a tool call before it runs. A rule sees the call's
 * tool and arguments, the shell commands in it (parsed: `shell`'s `command`, `run_code`'s bash
 * `code`, or any argument the engine is told holds a command) and the paths in it (`path`, `from`,
 * `to`, `cwd` of the built-in tools, or any argument the engine is told holds a path).
 *
 * The engine is immutable data: `addRule`/`removeRule` return new engines. `checkRules` is pure and
 * returns every violation. A rule that throws blocks the call (fail closed) and says so.
 */
import { isLeft } from '../core/either.js';
import { linearRegex, linearRegexOrThrow, type LinearRegex } from '../core/linear-regex.js';
import { commandViews, type CommandView } from './command-view.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface CommandText {
  /** The argument that holds the command (`command`, `code`). */
  readonly argument: string;
  readonly text: string;
  /** What it runs, wrappers removed and nested scripts included (lazily computed once). */
  readonly views: ReadonlyArray<CommandView>;
}

export type PathAccess = 'read' | 'write';

export interface PathArgument {
  readonly argument: string;
  readonly path: string;
  readonly access: PathAccess;
  /**
   * What the file holds (its text, or its bytes read as Latin-1), when the tool has read it: rules
   * that recognise files by what they are (`no-sensitive-files`) read it. Absent for a call's
   * arguments, which are judged before anything is read.
   */
  readonly content?: string;
}

export interface RuleInput {
  readonly tool: string;
  readonly args: Readonly<Record<string, unknown>>;
  readonly commands: ReadonlyArray<CommandText>;
  readonly paths: ReadonlyArray<PathArgument>;
}

export interface Rule {
  /** Stable kebab-case name, shown in the reason of a denial. */
  readonly name: string;
  readonly description: string;
  /** The tools it applies to (default: every tool). */
  readonly tools?: ReadonlyArray<string>;
  /** Why the call is blocked, or undefined when the rule has nothing against it. */
  readonly check: (input: RuleInput) => string | undefined;
}

export interface RuleViolation {
  readonly rule: string;
  readonly reason: string;
}

/** Where the commands of a call are: the texts of shell commands in its arguments. */
export type CommandExtractor = (args: Readonly<Record<string, unknown>>) => ReadonlyArray<{ readonly argument: string; readonly text: string }>;

export interface RuleEngine {
  readonly rules: ReadonlyArray<Rule>;
  /** Per tool, where its shell commands are. */
  readonly commandArguments: Readonly<Record<string, CommandExtractor>>;
  /** Per tool (`*`: every tool), the arguments that hold paths. */
  readonly pathArguments: Readonly<Record<string, ReadonlyArray<{ readonly argument: string; readonly access: PathAccess }>>>;
}

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

/** Commands and paths of the built-in tools. */
export const BUILTIN_COMMAND_ARGUMENTS: RuleEngine['commandArguments'] = {
  shell: (args) => (typeof args['command'] === 'string' ? [{ argument: 'command', text: args['command'] }] : []),
  run_code: (args) => (args['language'] === 'bash' && typeof args['code'] === 'string' ? [{ argument: 'code', text: args['code'] }] : []),
};

export const BUILTIN_PATH_ARGUMENTS: RuleEngine['pathArguments'] = {
  list_directory: [{ argument: 'path', access: 'read' }],
  read_file: [{ argument: 'path', access: 'read' }],
  write_file: [{ argument: 'path', access: 'write' }],
  delete_file: [{ argument: 'path', access: 'write' }],
  move_file: [
    { argument: 'from', access: 'write' },
    { argument: 'to', access: 'write' },
  ],
  text_search: [{ argument: 'path', access: 'read' }],
  json_parse: [{ argument: 'path', access: 'read' }],
  shell: [{ argument: 'cwd', access: 'read' }],
};

export interface RuleEngineOptions {
  /** More tools whose arguments hold shell commands: argument names, or an extractor. */
  readonly commandArguments?: Readonly<Record<string, ReadonlyArray<string> | CommandExtractor>>;
  /** More tools whose arguments hold paths (`*` for every tool). Access defaults to `write` (the stricter). */
  readonly pathArguments?: Readonly<Record<string, ReadonlyArray<string | { readonly argument: string; readonly access: PathAccess }>>>;
}

/** The rules with later ones replacing earlier ones of the same name (at the later place). */
const dedupe = (rules: ReadonlyArray<Rule>): ReadonlyArray<Rule> => {
  const byName = new Map<string, Rule>();
  for (const r of rules) {
    byName.delete(r.name);
    byName.set(r.name, r);
  }
  return [...byName.values()];
};

/** An engine with `rules`, knowing the built-in tools' commands and paths plus `options`'. */
export const ruleEngine = (rules: ReadonlyArray<Rule>, options: RuleEngineOptions = {}): RuleEngine => {
  const commandArguments: Record<string, CommandExtractor> = { ...BUILTIN_COMMAND_ARGUMENTS };
  for (const [tool, spec] of Object.entries(options.commandArguments ?? {})) {
    commandArguments[tool] =
      typeof spec === 'function'
        ? spec
        : (args) => spec.flatMap((argument) => (typeof args[argument] === 'string' ? [{ argument, text: args[argument] as string }] : []));
  }
  const pathArguments: Record<string, ReadonlyArray<{ argument: string; access: PathAccess }>> = { ...BUILTIN_PATH_ARGUMENTS };
  for (const [tool, list] of Object.entries(options.pathArguments ?? {})) {
    pathArguments[tool] = [...(pathArguments[tool] ?? []), ...list.map((a) => (typeof a === 'string' ? { argument: a, access: 'write' as const } : a))];
  }
  return { rules: dedupe(rules), commandArguments, pathArguments };
};

/** An engine with no rule (it allows everything). */
export const emptyRuleEngine: RuleEngine = ruleEngine([]);

/** A user rule made of a function: `customRule({name, description, tools?, check})`. */
export const customRule = (r: Rule): Rule => r;

export interface ForbiddenPatternsOptions {
  readonly name: string;
  readonly description?: string;
  /**
   * A string matches as a whole word or word sequence (`curl` matches `curl -s x` and `/usr/bin/curl`,
   * not `curly`; spaces match any spacing); a RegExp is tested as is, on the linear engine (see
   * `core/linear-regex.ts`): a RegExp with backreferences or lookaround is refused (TypeError)
   * when the rule is made, so that no pattern can stall the process.
   */
  readonly patterns: ReadonlyArray<string | RegExp>;
  /** Tools it applies to (default: every tool). */
  readonly tools?: ReadonlyArray<string>;
  /**
   * Arguments it looks at (values as text; objects as JSON). Default: the call's shell commands
   * when it has any, otherwise every string in its arguments.
   */
  readonly arguments?: ReadonlyArray<string>;
}

/** A rule that blocks calls mentioning any of `patterns` (a `SafetyRule(name, forbidden_patterns)`). */
export const forbiddenPatternsRule = (options: ForbiddenPatternsOptions): Rule => {
  const tests = options.patterns.map((p) => ({
    shown: typeof p === 'string' ? JSON.stringify(p) : String(p),
    re: typeof p === 'string' ? wordPattern(p) : userPattern(options.name, p),
  }));
  return {
    name: options.name,
    description: options.description ?? `blocks calls that mention ${tests.map((t) => t.shown).join(', ')}`,
    ...(options.tools !== undefined ? { tools: options.tools } : {}),
    check: (input) => {
      const texts: Array<{ where: string; text: string }> =
        options.arguments !== undefined
          ? options.arguments.flatMap((a) => (input.args[a] === undefined ? [] : [{ where: `argument "${a}"`, text: asText(input.args[a]) }]))
          : input.commands.length > 0
            ? input.commands.map((c) => ({ where: `argument "${c.argument}"`, text: c.text }))
            : stringsIn(input.args);
      for (const { where, text } of texts) {
        for (const t of tests) if (t.re.test(text)) return `${where} matches the forbidden pattern ${t.shown}`;
      }
      return undefined;
    },
  };
};

export interface ForbiddenPathsOptions {
  readonly name: string;
  readonly description?: string;
  /**
   * Globs: `*` (within a segment), `**` (any segments), `?`. A glob without `/` matches a name at
   * any depth (`.env` matches `config/.env`), like .gitignore.
   */
  readonly paths: ReadonlyArray<string>;
  readonly tools?: ReadonlyArray<string>;
  /** Only block this access (default: both). Shell command words count as `read` unless they are redirection targets. */
  readonly access?: PathAccess;
}

/** A rule that blocks calls naming a path matching any glob: in path arguments and in shell command words. */
export const forbiddenPathsRule = (options: ForbiddenPathsOptions): Rule => {
  const globs = options.paths.map((g) => ({ glob: g, re: globPattern(g) }));
  const hit = (p: string): string | undefined => {
    const n = normalizeForMatch(p);
    return globs.find((g) => g.re.test(n))?.glob;
  };
  return readsCommandsAndPaths({
    name: options.name,
    description: options.description ?? `blocks calls that name ${options.paths.join(', ')}`,
    ...(options.tools !== undefined ? { tools: options.tools } : {}),
    check: (input) => {
      for (const p of input.paths) {
        if (options.access !== undefined && p.access !== options.access) continue;
        const g = hit(p.path);
        if (g !== undefined) return `argument "${p.argument}" (${JSON.stringify(p.path)}) matches the forbidden path ${JSON.stringify(g)}`;
      }
      for (const c of input.commands) {
        for (const v of c.views) {
          const candidates = [
            ...(options.access === 'write' ? [] : v.args.map((a) => ({ a, access: 'read' as const }))),
            ...v.redirects
              .filter((r) => options.access !== 'read' || r.op.startsWith('<'))
              .map((r) => ({ a: r.target, access: r.op.startsWith('<') ? ('read' as const) : ('write' as const) })),
          ];
          for (const { a } of candidates) {
            const g = hit(a.includes('=') && !a.startsWith('/') ? a.slice(a.indexOf('=') + 1) : a);
            if (g !== undefined) return `the command names ${JSON.stringify(a)}, which matches the forbidden path ${JSON.stringify(g)}`;
          }
        }
      }
      return undefined;
    },
  });
};

// -------------------------------------------------------------------------------------------------
// combinators
// -------------------------------------------------------------------------------------------------

/** A new engine with `r` added (replacing a rule of the same name). */
export const addRule = (engine: RuleEngine, r: Rule): RuleEngine => ({ ...engine, rules: [...engine.rules.filter((x) => x.name !== r.name), r] });

/** A new engine without the rule named `name`. */
export const removeRule = (engine: RuleEngine, name: string): RuleEngine => ({ ...engine, rules: engine.rules.filter((r) => r.name !== name) });

/** An engine with the rules of both (the second's win on equal names) and both argument maps. */
export const combineRuleEngines = (a: RuleEngine, b: RuleEngine): RuleEngine => ({
  rules: dedupe([...a.rules, ...b.rules]),
  commandArguments: { ...a.commandArguments, ...b.commandArguments },
  pathArguments: { ...a.pathArguments, ...b.pathArguments },
});

// -------------------------------------------------------------------------------------------------
// checking
// -------------------------------------------------------------------------------------------------

/** A command argument, parsed on first use (a class: a literal with a getter is built slowly, by the runtime). */
class LazyCommandText implements CommandText {
  private parsed: ReadonlyArray<CommandView> | undefined;
  constructor(
    readonly argument: string,
    readonly text: string,
  ) {}
  get views(): ReadonlyArray<CommandView> {
    this.parsed ??= commandViews(this.text);
    return this.parsed;
  }
}

/** What rules see of a call (commands parsed once). */
export const ruleInput = (engine: RuleEngine, tool: string, args: unknown): RuleInput => {
  const a = typeof args === 'object' && args !== null && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
  const extractor = engine.commandArguments[tool];
  const commands: CommandText[] = (extractor?.(a) ?? []).map(({ argument, text }) => new LazyCommandText(argument, text));
  const paths: PathArgument[] = [];
  for (const spec of [...(engine.pathArguments[tool] ?? []), ...(engine.pathArguments['*'] ?? [])]) {
    const v = a[spec.argument];
    if (typeof v === 'string') paths.push({ argument: spec.argument, path: v, access: spec.access });
  }
  return { tool, args: a, commands, paths };
};

/**
 * The longest shell command (in characters) the rules read. A longer one is blocked
 * (`command-too-long`): rules read every command in linear time, and a command nobody can review
 * is not waved through.
 */
export const MAX_COMMAND_LENGTH = 65_536;

/**
 * Rules that read nothing of a call but its shell commands and its paths (the default rules,
 * `forbiddenPathsRule`'s): a call that has neither cannot break them, and they are not run for it
 * (most calls: a tool whose arguments hold no command and no path).
 */
const commandAndPathRules = new WeakSet<Rule>();

/** Marks a rule as one that reads only the call's commands and paths (internal to the policy layer). */
export const readsCommandsAndPaths = <R extends Rule>(rule: R): R => {
  commandAndPathRules.add(rule);
  return rule;
};

/** Per applicable list, those that read more than commands and paths (what a call with neither meets). */
const argumentRules = new WeakMap<ReadonlyArray<Rule>, ReadonlyArray<Rule>>();

const rulesReadingArguments = (applicable: ReadonlyArray<Rule>): ReadonlyArray<Rule> => {
  let rules = argumentRules.get(applicable);
  if (rules === undefined) {
    rules = Object.freeze(applicable.filter((r) => !commandAndPathRules.has(r)));
    argumentRules.set(applicable, rules);
  }
  return rules;
};

/** Every violation of the engine's rules by a call of `tool` with `args` (empty: allowed). */
export const checkRules = (engine: RuleEngine, tool: string, args: unknown): ReadonlyArray<RuleViolation> => {
  const applicable = rulesFor(engine, tool);
  if (applicable.length === 0) return [];
  const input = ruleInput(engine, tool, args);
  const long = input.commands.find((c) => c.text.length > MAX_COMMAND_LENGTH);
  if (long !== undefined)
    return [
      {
        rule: 'command-too-long',
        reason: `argument "${long.argument}" holds ${long.text.length} characters of shell, more than the ${MAX_COMMAND_LENGTH} the rules read; split it or write a script file`,
      },
    ];
  const rules = input.commands.length === 0 && input.paths.length === 0 ? rulesReadingArguments(applicable) : applicable;
  return rules.length === 0 ? [] : runRules(rules, input, 'call');
};

/** Per engine (immutable data), the rules that apply to each tool: worked out once, not per call. */
const applicableRules = new WeakMap<RuleEngine, Map<string, ReadonlyArray<Rule>>>();

/** The engine's rules that apply to `tool`. */
export const rulesFor = (engine: RuleEngine, tool: string): ReadonlyArray<Rule> => {
  let byTool = applicableRules.get(engine);
  if (byTool === undefined) {
    byTool = new Map();
    applicableRules.set(engine, byTool);
  }
  let rules = byTool.get(tool);
  if (rules === undefined) {
    rules = Object.freeze(engine.rules.filter((r) => r.tools === undefined || r.tools.includes(tool)));
    // bounded: tool names come from callers (a name the engine has never seen is worked out again)
    if (byTool.size < 1024) byTool.set(tool, rules);
  }
  return rules;
};

/** Every violation of `rules` by `input`; a rule that throws blocks the `what` (call, access), saying so. */
export const runRules = (rules: ReadonlyArray<Rule>, input: RuleInput, what: 'call' | 'access'): ReadonlyArray<RuleViolation> => {
  const out: RuleViolation[] = [];
  for (const r of rules) {
    let reason: string | undefined;
    try {
      reason = r.check(input);
    } catch (e) {
      reason = `the rule failed (${e instanceof Error ? e.message : String(e)}), so the ${what} is blocked`;
    }
    if (reason !== undefined) out.push({ rule: r.name, reason });
  }
  return out;
};

/** One sentence for a model: which rules blocked the call and why. */
export const describeViolations = (tool: string, violations: ReadonlyArray<RuleViolation>): string =>
  `${tool} call blocked by safety rule${violations.length > 1 ? 's' : ''}: ${violations.map((v) => `${v.rule} (${v.reason})`).join('; ')}`;

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** A whole-word pattern: boundaries are the text's ends or characters other than letters, digits, `_`, `.`, `-`. */
const wordPattern = (s: string): LinearRegex =>
  linearRegexOrThrow(`(?:^|[^A-Za-z0-9_.-])${s.trim().split(/\s+/).map(escapeRegExp).join('\\s+')}(?:$|[^A-Za-z0-9_.-])`);

/** A user's RegExp on the linear engine (its `g`/`y` flags dropped: `test` never depends on `lastIndex`). */
const userPattern = (rule: string, re: RegExp): LinearRegex => {
  const r = linearRegex(re.source, re.flags.replace(/[gy]/g, ''));
  if (isLeft(r)) throw new TypeError(`forbiddenPatternsRule "${rule}": ${String(re)}: ${r.left}; rewrite it without backreferences or lookaround`);
  return r.right;
};

const asText = (v: unknown): string => (typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v)));

/**
 * Every string in a JSON value, object keys included, with where it is. Iterative: any depth is
 * read (arguments are bounded in depth before rules see them, see `library/invoke.ts`).
 */
const stringsIn = (value: unknown): Array<{ where: string; text: string }> => {
  const out: Array<{ where: string; text: string }> = [];
  const stack: Array<{ v: unknown; where: string; top: boolean }> = [{ v: value, where: 'arguments', top: true }];
  while (stack.length > 0) {
    const { v, where, top } = stack.pop() as { v: unknown; where: string; top: boolean };
    if (typeof v === 'string') out.push({ where, text: v });
    else if (Array.isArray(v)) for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], where: `${where}[${i}]`, top: false });
    else if (typeof v === 'object' && v !== null) {
      const entries = Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, e] = entries[i] as [string, unknown];
        const at = top ? `argument "${k}"` : `${where}.${k}`;
        stack.push({ v: e, where: at, top: false });
        stack.push({ v: k, where: `the name of ${at}`, top: false });
      }
    }
  }
  return out;
};

/**
 * A path as rules compare it: `~`, `$HOME`, `${HOME}` as `~`; `~root` as `/root` and `~name` as
 * `/home/name`; `.` segments and duplicate slashes removed; `..` collapsed (at the root it stays at
 * the root: `/../etc` is `/etc`); `/proc/self/root`, `/proc/thread-self/root` and `/proc/PID/root`
 * as `/` (they are links to the root); no trailing slash. Linear, without regular expressions.
 */
export const normalizeForMatch = (p: string): string => {
  let s = p;
  for (const home of ['$HOME', '${HOME}']) {
    if (s.startsWith(home) && (s.length === home.length || s[home.length] === '/')) s = `~${s.slice(home.length)}`;
  }
  if (s.startsWith('~') && s.length > 1 && s[1] !== '/' && s[1] !== '+' && s[1] !== '-') {
    const slash = s.indexOf('/');
    const user = s.slice(1, slash < 0 ? undefined : slash);
    s = `${user === 'root' ? '/root' : `/home/${user}`}${slash < 0 ? '' : s.slice(slash)}`;
  }
  let absolute = s.startsWith('/');
  const parts: string[] = [];
  for (const seg of s.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (parts.length === 1 && parts[0] === '~') {
        // `~/..`: the directory of the home directories
        parts[0] = 'home';
        absolute = true;
      } else if (parts.length > 0 && parts[parts.length - 1] !== '..') parts.pop();
      else if (!absolute) parts.push(seg);
      continue;
    }
    parts.push(seg);
    // the kernel's links to the root directory
    if (absolute && parts.length === 3 && parts[0] === 'proc' && parts[2] === 'root' && isProcessDir(parts[1] as string)) parts.length = 0;
  }
  const out = parts.join('/');
  if (absolute) return `/${out}`;
  return out === '' ? '.' : out;
};

const isProcessDir = (seg: string): boolean => {
  if (seg === 'self' || seg === 'thread-self') return true;
  if (seg === '') return false;
  for (let k = 0; k < seg.length; k++) {
    const c = seg.charCodeAt(k);
    if (c < 48 || c > 57) return false;
  }
  return true;
};

/** A glob as a (linear) regular expression over normalized paths. */
export const globPattern = (glob: string): LinearRegex => {
  const g = normalizeForMatch(glob);
  const anyDepth = !g.includes('/');
  let re = '';
  for (let i = 0; i < g.length; i++) {
    const c = g[i] as string;
    if (c === '*' && g[i + 1] === '*') {
      if (g[i + 2] === '/') {
        re += '(?:.*/)?';
        i += 2;
      } else {
        re += '.*';
        i += 1;
      }
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += escapeRegExp(c);
  }
  // a glob also matches everything below what it names (`secrets` blocks `secrets/key.txt`)
  return linearRegexOrThrow(anyDepth ? `(?:^|/)${re}(?:/|$)` : `^${re}(?:/|$)`);
};
