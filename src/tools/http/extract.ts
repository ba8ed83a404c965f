/**
 * `extractExpr` of HTTP tools: what part of a response the tool returns.
 *
 * How one form is told from the other (decided here, documented in docs/implementations.md):
 * - starts with `$`: a JSONPath (evaluated by jsonpath-plus, with its safe evaluator for
 *   filters); needs `responseEncoding: "json"`.
 *   A definite path (names and indexes only, e.g. `$.current.condition.text`) gives the one value
 *   it selects, and "no match" when it selects nothing; any other path (`*`, `..`, filters,
 *   unions, slices) gives the array of matches, possibly empty.
 * - written between slashes, with optional flags: a regular expression (`/temp: (\d+)/i`),
 *   applied to the response text. Its result is: the named groups as an object when it has named
 *   groups; else the group when it has one; else the array of groups when it has several; else
 *   the whole match. With the `g` flag, the array of those results for every match.
 * - anything else is an error (`HTTP_EXTRACT_INVALID`), so that a typo never silently becomes a
 *   regular expression.
 */
import { HttpCodes } from './codes.js';
import { isRight, left, right, type Either } from '../../core/either.js';
import type * as JsonpathPlus from 'jsonpath-plus';
import { error, type Diagnostic } from '../../core/diagnostic.js';
import { linearRegex, type LinearRegex } from '../../core/linear-regex.js';
import { lazyModule } from '../../core/lazy-module.js';

/** jsonpath-plus, loaded on the first JSONPath (a program that uses none never parses it). */
const jsonpath = lazyModule<typeof JsonpathPlus>('jsonpath-plus');

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export type Extractor =
  | { readonly kind: 'jsonpath'; readonly expr: string; readonly definite: boolean }
  | { readonly kind: 'regex'; readonly expr: string; readonly regex: LinearRegex };

export type Extracted = { readonly found: true; readonly value: unknown } | { readonly found: false; readonly reason: string };

// -------------------------------------------------------------------------------------------------
// parsing
// -------------------------------------------------------------------------------------------------

export const parseExtractExpr = (expr: string, where = 'extractExpr'): Either<ReadonlyArray<Diagnostic>, Extractor> => {
  if (expr.startsWith('$')) {
    const problem = jsonPathProblem(expr);
    if (problem !== undefined)
      return left([
        error(HttpCodes.EXTRACT_INVALID, `${where}: "${expr}" is not a JSONPath: ${problem}`, { hint: 'e.g. "$.current.condition.text" or "$.items[*].name"' }),
      ]);
    const segments = jsonpath().JSONPath.toPathArray(expr) as ReadonlyArray<string>;
    const definite = segments
      .slice(1)
      .every((s) => !(s === '*' || s === '..' || s.startsWith('?(') || s.startsWith('(') || /[,:]/.test(s) || s.startsWith('@') || s.startsWith('~')));
    return right({ kind: 'jsonpath', expr, definite });
  }
  const m = /^\/(.*)\/([a-z]*)$/s.exec(expr);
  if (m !== null) {
    const [, pattern = '', flags = ''] = m;
    // the linear engine: no response can make extraction stall (backreferences and lookaround are refused)
    const compiled = flags.includes('y') ? left('the sticky flag "y" is not supported') : linearRegex(pattern, flags);
    if (isRight(compiled)) return right({ kind: 'regex', expr, regex: compiled.right });
    return left([
      error(HttpCodes.EXTRACT_INVALID, `${where}: "${expr}" is not a valid regular expression: ${compiled.left}`, {
        hint: 'regular expressions run on a linear-time engine (RE2 syntax): no backreferences, no lookaround',
      }),
    ]);
  }
  return left([
    error(HttpCodes.EXTRACT_INVALID, `${where}: "${expr}" is neither a JSONPath nor a regular expression`, {
      hint: 'a JSONPath starts with "$" ("$.data.name"); a regular expression is written between slashes ("/id=(\\d+)/")',
    }),
  ]);
};

/** Structural check of a JSONPath (jsonpath-plus accepts and misreads unbalanced input). */
const jsonPathProblem = (expr: string): string | undefined => {
  const stack: string[] = [];
  let quote: string | undefined;
  for (let i = 1; i < expr.length; i++) {
    const ch = expr[i]!;
    if (quote !== undefined) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '[' || ch === '(') stack.push(ch);
    else if (ch === ']' || ch === ')') {
      const open = stack.pop();
      if (open !== (ch === ']' ? '[' : '(')) return `unbalanced "${ch}" at offset ${i}`;
    }
  }
  if (quote !== undefined) return 'unclosed quote';
  if (stack.length > 0) return `unclosed "${stack[stack.length - 1]}"`;
  if (expr.length > 1 && !/^[.[]/.test(expr.slice(1))) return 'after "$" comes "." or "["';
  if (/\.\.\.|\[\]|\.$/.test(expr.replace(/'[^']*'|"[^"]*"/g, "''"))) return 'empty segment';
  return undefined;
};

// -------------------------------------------------------------------------------------------------
// applying
// -------------------------------------------------------------------------------------------------

/** Applies an extractor to a response: `json` (when the response was decoded as JSON) and `text`. */
export const extract = (ex: Extractor, response: { readonly json?: unknown; readonly text: string }, hasJson: boolean): Extracted => {
  if (ex.kind === 'jsonpath') {
    if (!hasJson) return { found: false, reason: 'a JSONPath needs a JSON response' };
    let matches: unknown[];
    try {
      matches = jsonpath().JSONPath({ path: ex.expr, json: response.json as object, wrap: true, eval: 'safe' }) as unknown[];
    } catch (e) {
      return { found: false, reason: `the JSONPath ${ex.expr} failed: ${(e as Error).message}` };
    }
    if (!ex.definite) return { found: true, value: matches ?? [] };
    if (matches === undefined || matches.length === 0) return { found: false, reason: `${ex.expr} matches nothing in the response` };
    return { found: true, value: matches[0] };
  }
  const re = ex.regex;
  if (re.flags.includes('g')) return { found: true, value: re.matchAll(response.text).map(matchValue) };
  const m = re.exec(response.text);
  if (m === null) return { found: false, reason: `${ex.expr} does not match the response` };
  return { found: true, value: matchValue(m) };
};

const matchValue = (m: RegExpMatchArray | RegExpExecArray): unknown => {
  if (m.groups !== undefined && m.groups !== null && Object.keys(m.groups).length > 0)
    return Object.fromEntries(Object.entries(m.groups).map(([k, v]) => [k, v ?? null]));
  if (m.length === 2) return m[1] ?? null;
  if (m.length > 2) return m.slice(1).map((g) => g ?? null);
  return m[0];
};
