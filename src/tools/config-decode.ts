/**
 * Decoding implementation configs (HTTP and command tools) from JSON with io-ts, reporting every
 * problem at once as diagnostics: a wrong type as `<PREFIX>_CONFIG_TYPE` with the field's path, an
 * unknown key (a typo would otherwise be silently ignored) as `<PREFIX>_CONFIG_UNKNOWN_KEY` with a
 * "did you mean" hint.
 */
import * as t from 'io-ts';
import { error, type Diagnostic } from '../core/diagnostic.js';
import { didYouMean } from '../core/suggest.js';

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

/** Diagnostics for io-ts errors: one per path, naming the type expected there and what was found. */
export const decodeErrors = (errors: t.Errors, where: string, code: string): Diagnostic[] => {
  const byPath = new Map<string, { expected: string; actual: unknown }>();
  for (const e of errors) {
    const keys: string[] = [];
    let expected = '';
    let actual: unknown;
    e.context.forEach((entry, i) => {
      const parent = e.context[i - 1]?.type;
      const isBranch = parent instanceof t.UnionType || parent instanceof t.IntersectionType;
      if (i > 0 && !isBranch && entry.key !== '') keys.push(entry.key);
      if (!isBranch || expected === '') {
        expected = entry.type.name;
        actual = entry.actual;
      }
    });
    const path = keys.reduce((acc, k) => (/^\d+$/.test(k) ? `${acc}[${k}]` : acc === '' ? k : `${acc}.${k}`), '');
    if (!byPath.has(path)) byPath.set(path, { expected, actual });
  }
  return [...byPath].map(([path, { expected, actual }]) =>
    error(code, `${path === '' ? where : `${where}.${path}`}: expected ${readableType(expected)}, got ${describe(actual)}`),
  );
};

/** Keys of `value` (an object) that are not in `known`, each as a diagnostic. */
export const unknownKeys = (value: unknown, known: ReadonlyArray<string>, where: string, code: string): Diagnostic[] => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  return Object.keys(value)
    .filter((k) => !known.includes(k))
    .map((k) => {
      const suggestion = didYouMean(k, known);
      return error(code, `${where}: unknown key "${k}"`, {
        hint: suggestion ?? `the keys are: ${known.join(', ')}`,
      });
    });
};

const readableType = (name: string): string =>
  name
    .replace(/^Partial<(.*)>$/s, '$1')
    .replace(/\{ \[K in (.*?)\]: (.*?) \}/g, 'a map of $2')
    .replace(/Array<(.*?)>/g, 'an array of $1')
    .replace(/\bnumber\b/g, 'a number')
    .replace(/\bstring\b/g, 'a string')
    .replace(/\bboolean\b/g, 'a boolean');

const describe = (v: unknown): string => {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  return `${typeof v} ${String(v)}`;
};
