/**
 * Reading the fields of a JSON object with every problem reported at once: wrong types by field
 * name, unknown fields with a "did you mean". For the record codecs.
 */
import { type Diagnostic, error } from '../../core/diagnostic.js';
import { isJsonObject } from '../../core/json.js';
import type { JsonObject } from '../../core/json-schema.js';
import { didYouMean } from '../../core/suggest.js';
import { CatalogCodes } from '../codes.js';

const kind = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : typeof v);

/** A reader over one object; problems accumulate in `problems`. */
export interface Fields {
  readonly object: JsonObject;
  readonly problems: Diagnostic[];
  readonly string: (key: string) => string | undefined;
  readonly boolean: (key: string) => boolean | undefined;
  readonly strings: (key: string) => ReadonlyArray<string> | undefined;
  readonly oneOf: <A extends string>(key: string, values: ReadonlyArray<A>) => A | undefined;
  readonly nullableString: (key: string) => string | null | undefined;
  /** Reports keys outside `known` (with a suggestion); `ignored` keys are accepted silently. */
  readonly onlyKnown: (known: ReadonlyArray<string>, ignored?: ReadonlyArray<string>) => void;
}

/** A reader of `u`, or `undefined` (with a problem) when `u` is not an object. */
export const fieldsOf = (u: unknown, what: string, problems: Diagnostic[]): Fields | undefined => {
  if (!isJsonObject(u)) {
    problems.push(error(CatalogCodes.INVALID_RECORD, `${what} must be a JSON object, got ${kind(u)}`));
    return undefined;
  }
  const o = u;
  const wrong = (key: string, expected: string): undefined => {
    problems.push(error(CatalogCodes.INVALID_RECORD, `${key}: expected ${expected}, got ${kind(o[key])}`));
    return undefined;
  };
  return {
    object: o,
    problems,
    string: (k) => (o[k] === undefined ? undefined : typeof o[k] === 'string' ? (o[k] as string) : wrong(k, 'a string')),
    boolean: (k) => (o[k] === undefined ? undefined : typeof o[k] === 'boolean' ? (o[k] as boolean) : wrong(k, 'true or false')),
    strings: (k) => {
      const v = o[k];
      if (v === undefined) return undefined;
      return Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as ReadonlyArray<string>) : wrong(k, 'an array of strings');
    },
    oneOf: <A extends string>(k: string, values: ReadonlyArray<A>): A | undefined => {
      const v = o[k];
      if (v === undefined) return undefined;
      if (typeof v === 'string' && (values as ReadonlyArray<string>).includes(v)) return v as A;
      problems.push(error(CatalogCodes.INVALID_RECORD, `${k}: expected one of ${values.join(', ')}, got ${JSON.stringify(v)?.slice(0, 60)}`));
      return undefined;
    },
    nullableString: (k) => (o[k] === undefined ? undefined : o[k] === null ? null : typeof o[k] === 'string' ? (o[k] as string) : wrong(k, 'a string or null')),
    onlyKnown: (known, ignored = []) => {
      for (const k of Object.keys(o)) {
        if (known.includes(k) || ignored.includes(k)) continue;
        const hint = didYouMean(k, known);
        problems.push(
          error(
            CatalogCodes.INVALID_RECORD,
            `${JSON.stringify(k)} is not a field of ${what}`,
            hint !== undefined ? { hint } : { hint: `the fields are: ${known.join(', ')}` },
          ),
        );
      }
    },
  };
};

/** Whether `s` is an ISO 8601 instant as `Date.prototype.toISOString` writes it (or with seconds only). */
export const isInstant = (s: string): boolean => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/.test(s) && !Number.isNaN(Date.parse(s));
