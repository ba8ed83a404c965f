/**
 * Regular expressions that run in time linear in their input, whatever the pattern: patterns that
 * come from data (schema `pattern`, an HTTP tool's `extractExpr`, a user's rule) run on RE2JS, an
 * automaton engine without backtracking. What an automaton cannot do is refused when the pattern is
 * compiled, with a message that says so: backreferences (`\1`, `\k<name>`) and lookaround
 * (`(?=…)`, `(?!…)`, `(?<=…)`, `(?<!…)`). Flags: `i`, `m`, `s`, `u` are honoured; `g` is left to the
 * caller; `y` and `v`/`d` are refused.
 */
import type * as Re2js from 're2js';
import { type Either, isLeft, left, right } from './either.js';
import { lazyModule } from './lazy-module.js';

/** re2js, loaded on the first pattern compiled (most runs compile none). */
const re2js = lazyModule<typeof Re2js>('re2js');

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface LinearRegex {
  readonly source: string;
  readonly flags: string;
  /** Whether it matches somewhere in `s`. */
  readonly test: (s: string) => boolean;
  /** The first match (as `RegExp.prototype.exec` gives it, `groups` included), or null. */
  readonly exec: (s: string) => RegExpExecArray | null;
  /** Every non-overlapping match, in order. */
  readonly matchAll: (s: string) => ReadonlyArray<RegExpExecArray>;
}

/** The compiled pattern, or why it cannot run on the linear engine (a message; the caller gives it a code and a place). */
export type LinearRegexResult = Either<string, LinearRegex>;

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

const flagBitsOf = (RE2JS: typeof Re2js.RE2JS): Readonly<Record<string, number>> => ({
  i: RE2JS.CASE_INSENSITIVE,
  m: RE2JS.MULTILINE,
  s: RE2JS.DOTALL,
  u: 0,
  g: 0,
});

/** Compiles `source` (JavaScript syntax) for the linear engine, or says why it cannot run there. */
export const linearRegex = (source: string, flags = ''): LinearRegexResult => {
  const { RE2JS } = re2js();
  const flagBits = flagBitsOf(RE2JS);
  let bits = 0;
  for (const f of flags) {
    const b = flagBits[f];
    if (b === undefined) return left(`the flag "${f}" is not supported (use i, m, s, u, g)`);
    bits |= b;
  }
  const unsupported = unsupportedConstruct(source);
  if (unsupported !== undefined) return left(`${unsupported} cannot run in linear time and is not supported`);
  let re: Re2js.RE2JS;
  try {
    re = RE2JS.compile(RE2JS.translateRegExp(source), bits);
  } catch (e) {
    return left(e instanceof Error ? e.message : String(e));
  }
  const exec = (s: string): RegExpExecArray | null => toExecArray(re.exec(s), s);
  const matchAll = (s: string): RegExpExecArray[] => [...re.matchAll(s)].map((m) => toExecArray(m, s) as RegExpExecArray);
  return right({ source, flags, test: (s) => re.test(s), exec, matchAll });
};

/** Like `linearRegex`, for patterns written in the code: a pattern it refuses is a programming error. */
export const linearRegexOrThrow = (source: string, flags = ''): LinearRegex => {
  const r = linearRegex(source, flags);
  if (isLeft(r)) throw new TypeError(`/${source}/${flags}: ${r.left}`);
  return r.right;
};

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

const toExecArray = (m: unknown, input: string): RegExpExecArray | null => {
  if (m === null || m === undefined) return null;
  const arr = m as RegExpExecArray;
  if (arr.input === undefined) (arr as { input: string }).input = input;
  return arr;
};

/** The first construct of `source` that needs backtracking (backreference, lookaround), if any. */
const unsupportedConstruct = (source: string): string | undefined => {
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      const n = source[i + 1] ?? '';
      if (!inClass && n >= '1' && n <= '9') return `the backreference "\\${n}"`;
      if (!inClass && n === 'k' && source[i + 2] === '<') return 'a named backreference (\\k<…>)';
      i += 1;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') inClass = true;
    else if (c === '(' && source[i + 1] === '?') {
      const a = source[i + 2];
      const b = source[i + 3];
      if (a === '=' || a === '!') return 'a lookahead (?=…) / (?!…)';
      if (a === '<' && (b === '=' || b === '!')) return 'a lookbehind (?<=…) / (?<!…)';
    }
  }
  return undefined;
};
