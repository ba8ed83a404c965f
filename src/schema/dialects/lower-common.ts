/**
 * Pieces shared by the lowerings: merging `allOf` of plain objects, de-duplicated unions, and
 * descriptions that carry the constraints a provider does not enforce.
 */
import { stableStringify } from '../../core/stable-json.js';
import type { JsonObject, JsonSchema, JsonValue } from '../../core/json-schema.js';
import { brief, isObj, typesOf } from './schema-walk.js';
import { DialectCodes, noteInfo, noteWarning, type Notes } from './dialect.js';

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

export const isSchema = (v: unknown): v is JsonSchema => typeof v === 'boolean' || isObj(v);

export const mapValues = (o: JsonObject, f: (v: JsonValue, k: string) => JsonValue): JsonObject => {
  const out: Record<string, JsonValue> = {};
  for (const [k, v] of Object.entries(o)) out[k] = f(v, k);
  return out;
};

/** One schema when all branches are equal, else `{anyOf: [distinct branches]}`. */
export const uniqueAnyOf = (branches: ReadonlyArray<JsonSchema>): JsonSchema => {
  const seen = new Map<string, JsonSchema>();
  for (const b of branches) seen.set(stableStringify(b), b);
  const list = [...seen.values()];
  return list.length === 1 ? (list[0] as JsonSchema) : { anyOf: list as JsonValue[] };
};

/** Merges `allOf` branches that are plain object schemas into one; undefined when it cannot. */
export const mergeAllOf = (s: JsonObject): JsonObject | undefined => {
  const all = s['allOf'];
  if (!Array.isArray(all)) return undefined;
  const props: Record<string, JsonValue> = isObj(s['properties']) ? { ...s['properties'] } : {};
  const required = new Set<string>(Array.isArray(s['required']) ? s['required'].filter((x): x is string => typeof x === 'string') : []);
  const allowed = new Set(['type', 'properties', 'required', 'description', 'title']);
  for (const b of all) {
    if (!isObj(b)) return undefined;
    if (!Object.keys(b).every((k) => allowed.has(k))) return undefined;
    const t = typesOf(b);
    if (t !== undefined && !(t.length === 1 && t[0] === 'object')) return undefined;
    if (isObj(b['properties'])) {
      for (const [k, v] of Object.entries(b['properties'])) {
        if (k in props && stableStringify(props[k]) !== stableStringify(v)) return undefined;
        props[k] = v;
      }
    }
    if (Array.isArray(b['required'])) for (const r of b['required']) if (typeof r === 'string') required.add(r);
  }
  const t = typesOf(s);
  if (t !== undefined && !(t.length === 1 && t[0] === 'object')) return undefined;
  const out: Record<string, JsonValue> = {};
  for (const [k, v] of Object.entries(s)) if (k !== 'allOf') out[k] = v;
  out['type'] = 'object';
  out['properties'] = props;
  if (required.size > 0) out['required'] = [...required];
  return out;
};

/** The description with the moved constraints in parentheses: `Who to greet (at most 40 characters)`. */
export const joinDescription = (description: JsonValue | undefined, phrases: ReadonlyArray<string>): string | undefined => {
  if (phrases.length === 0) return typeof description === 'string' ? description : undefined;
  const extra = `(${phrases.join('; ')})`;
  return typeof description === 'string' && description.length > 0 ? `${description} ${extra}` : extra;
};

/** How a lowering says, in the description, the keywords it describes: by keyword, from its value. */
export type Phrases = Readonly<Record<string, (v: JsonValue) => string | undefined>>;

/** The phrases both lowerings use; a keyword in neither reads `keyword: value`. */
const COMMON_PHRASES: Phrases = {
  uniqueItems: (v) => (v === true ? 'items must be unique' : undefined),
  contains: (v) => `must contain an item matching ${brief(v, 60)}`,
};

/** A keyword the table says a lowering describes, as its description says it (undefined: nothing to say). */
export const describePhrase = (k: string, v: JsonValue, phrases: Phrases): string | undefined =>
  (phrases[k] ?? COMMON_PHRASES[k] ?? ((x: JsonValue) => `${k}: ${brief(x, 60)}`))(v);

/** What a lowering did to a schema's keywords, as notes: each list's message, and `dropped unknown` warnings alike. */
export const noteLowering = (
  notes: Notes,
  path: ReadonlyArray<string>,
  done: {
    readonly annotations: ReadonlyArray<string>;
    readonly phrases: ReadonlyArray<string>;
    readonly dropped: ReadonlyArray<string>;
    readonly unknown: ReadonlyArray<string>;
  },
  says: { readonly annotations: string; readonly phrases: string; readonly dropped: string },
): void => {
  if (done.annotations.length > 0) noteInfo(notes, DialectCodes.LOWERED, path, `${says.annotations}: ${done.annotations.join('; ')}`);
  if (done.phrases.length > 0) noteWarning(notes, DialectCodes.MOVED_TO_DESCRIPTION, path, `${says.phrases}: ${done.phrases.join('; ')}`, STILL_VALIDATED);
  if (done.dropped.length > 0) noteInfo(notes, DialectCodes.DROPPED, path, `dropped ${quoted(done.dropped)} (${says.dropped})`);
  if (done.unknown.length > 0) {
    noteWarning(
      notes,
      DialectCodes.DROPPED,
      path,
      `dropped unknown ${done.unknown.length === 1 ? 'keyword' : 'keywords'} ${quoted(done.unknown)}`,
      STILL_VALIDATED,
    );
  }
};

const STILL_VALIDATED = 'gramkit still validates the arguments against the full schema';
const quoted = (names: ReadonlyArray<string>): string => names.map((d) => `"${d}"`).join(', ');
