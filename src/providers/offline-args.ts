/**
 * Arguments for the offline demo model: each parameter of the chosen tool is filled from the
 * user's message by what the schema says it is — `name: value` written out, a person's name for
 * name-like strings ("I'm Alice", "my name is Bob"), a place after "in"/"at" for location-like
 * ones, numbers in order for numeric ones, enum values that appear in the message, yes/no words
 * for booleans, e-mails, URLs, paths and dates by their shape, quoted text for other strings —
 * then the default, and for a required string with nothing better, the remaining words.
 */
import { isRecord } from '../core/json.js';
import type { JsonObject, JsonValue } from '../core/json-schema.js';
import { identifierWords, STOP_WORDS, stem, wordsOf } from './offline-words.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** What the message offers, extracted once; values are consumed as parameters take them. */
interface Pool {
  readonly text: string;
  readonly quoted: string[];
  readonly numbers: number[];
  readonly used: Set<string>;
  /** Stems of words that chose the tool (not argument material). */
  readonly toolStems: ReadonlySet<string>;
}

const NUMBER_WORDS: Readonly<Record<string, number>> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18,
  nineteen: 19, twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90, hundred: 100,
};

const NAME_LIKE = new Set(['name', 'person', 'user', 'username', 'who', 'author', 'owner', 'recipient', 'friend', 'first', 'last', 'nickname', 'customer', 'contact']);
const PLACE_LIKE = new Set(['city', 'location', 'place', 'country', 'town', 'where', 'destination', 'region', 'address', 'origin']);
const PATH_LIKE = new Set(['path', 'file', 'filename', 'dir', 'directory', 'folder']);
const YES = new Set(['yes', 'true', 'on', 'enable', 'enabled', 'please', 'sure', 'y']);
const NO = new Set(['no', 'false', 'off', 'disable', 'disabled', 'not', 'dont', 'don', 'never', 'without', 'n']);

// -------------------------------------------------------------------------------------------------
// extraction
// -------------------------------------------------------------------------------------------------

const CAPITALIZED = "[\\p{Lu}][\\p{L}'’-]*";

/** What follows each match of `prefix` (matched case-insensitively on the lowercased text), in order. */
const after = (text: string, prefix: RegExp): string[] => {
  const lower = text.toLowerCase();
  const out: string[] = [];
  for (const m of lower.matchAll(prefix)) out.push(text.slice((m.index ?? 0) + m[0].length));
  return out;
};

/** The first capitalized words at the start of one of `rests` (one or two, or a run of them). */
const capitalizedAtStart = (rests: ReadonlyArray<string>, run: boolean): string | undefined => {
  const re = new RegExp(`^(${CAPITALIZED}(?:\\s+${CAPITALIZED})${run ? '*' : '?'})`, 'u');
  for (const r of rests) {
    const m = re.exec(r);
    if (m?.[1] !== undefined) return m[1].replace(/[.,!?;:'’]+$/, '');
  }
  return undefined;
};

/** A person's name: "I'm Alice", "my name is Bob Smith", "call me Eve", then "to/for/hello Ana", then a capitalized word. */
const personName = (text: string): string | undefined =>
  capitalizedAtStart(after(text, /\b(?:i['’]?m|i am|my name is|my name's|name is|this is|call me|it's|it is|named|called)\s+/g), false) ??
  capitalizedAtStart(after(text, /\b(?:to|for|hello|hi|hey|greet|meet|dear|with|by)[\s,]+/g), false) ??
  capitalizedAtStart(after(text, /(?<=\S)\s+/g), false);

/** A place: "in Paris", "at New York", "for Rome". */
const place = (text: string): string | undefined => capitalizedAtStart(after(text, /\b(?:in|at|for|from|to|near)\s+/g), true);

const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/;
const URL_RE = /\bhttps?:\/\/[^\s"'<>]+/;
const DATE = /\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?)?\b/;
const PATH = /(?:^|\s)((?:\.{0,2}\/|~\/)?[\w.-]+(?:\/[\w.-]+)+|[\w-]+\.[A-Za-z0-9]{1,5})(?=[\s,;!?]|\.(?:\s|$)|$)/;

const quotedStrings = (text: string): string[] => {
  const out: string[] = [];
  const re = /"([^"]*)"|“([^”]*)”|(?:^|\s)'([^']*)'(?=[\s.,!?;:]|$)|`([^`]*)`/g;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) out.push((m[1] ?? m[2] ?? m[3] ?? m[4] ?? '').trim());
  return out.filter((s) => s.length > 0);
};

const numbersIn = (text: string): number[] => {
  const out: number[] = [];
  const re = /(?<![\p{L}\d.])-?\d+(?:\.\d+)?(?![\p{L}\d])|\b[a-z]+\b/giu;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const w = m[0].toLowerCase();
    if (/^-?\d/.test(w)) out.push(Number(w));
    else if (w in NUMBER_WORDS) out.push(NUMBER_WORDS[w] as number);
  }
  return out;
};

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `city: Paris`, `city = "New York"`, `city is Rome` for a parameter `city` (or its last word). */
const explicitValue = (text: string, name: string): string | undefined => {
  const words = identifierWords(name);
  const forms = [...new Set([name.toLowerCase(), words.join(' '), words[words.length - 1] ?? name.toLowerCase()])].map(escapeRe);
  const valueRe = new RegExp(`^(?:"([^"]*)"|'([^']*)'|([^\\s,;!?]+(?:\\s+${CAPITALIZED})*))`, 'u');
  for (const f of forms) {
    for (const rest of after(text, new RegExp(`\\b${f}\\s*(?::|=|\\bis\\b)\\s*`, 'g'))) {
      const m = valueRe.exec(rest);
      const v = m?.[1] ?? m?.[2] ?? m?.[3];
      if (v !== undefined && v.length > 0) return v.replace(/[.]+$/, '');
    }
  }
  return undefined;
};

// -------------------------------------------------------------------------------------------------
// filling
// -------------------------------------------------------------------------------------------------

type Schema = JsonObject;

const typeOf = (s: Schema): string | undefined => {
  const t = s['type'];
  if (typeof t === 'string') return t;
  if (Array.isArray(t)) return t.find((x) => x !== 'null') as string | undefined;
  const e = s['enum'];
  if (Array.isArray(e) && e.length > 0) return typeof e[0] === 'number' ? 'number' : typeof e[0] === 'boolean' ? 'boolean' : 'string';
  return undefined;
};

const asSchema = (v: JsonValue | undefined): Schema | undefined => (isRecord(v) ? (v as Schema) : undefined);

/** A value for one parameter, or undefined when the message says nothing about it. */
const valueFor = (name: string, s: Schema, pool: Pool, required: boolean): JsonValue | undefined => {
  const type = typeOf(s);
  const nameWords = new Set(identifierWords(name));
  const has = (set: ReadonlySet<string>): boolean => [...nameWords].some((w) => set.has(w));
  const take = (v: string): string => {
    pool.used.add(v.toLowerCase());
    return v;
  };

  if ('const' in s) return s['const'] as JsonValue;
  const e = s['enum'];
  if (Array.isArray(e)) {
    const msgWords = new Set(wordsOf(pool.text));
    const hit = e.find((v) => v !== null && msgWords.has(String(v).toLowerCase()));
    if (hit !== undefined) return hit;
    const explicit = explicitValue(pool.text, name);
    const byText = e.find((v) => explicit !== undefined && String(v).toLowerCase() === explicit.toLowerCase());
    return byText;
  }

  const explicit = explicitValue(pool.text, name);
  switch (type) {
    case 'integer':
    case 'number': {
      if (explicit !== undefined && Number.isFinite(Number(explicit))) return Number(explicit);
      const i = pool.numbers.findIndex((n) => type === 'number' || Number.isInteger(n));
      if (i === -1) return undefined;
      const [n] = pool.numbers.splice(i, 1);
      return n;
    }
    case 'boolean': {
      const words = wordsOf(pool.text);
      if (words.some((w) => NO.has(w))) return false;
      if (words.some((w) => YES.has(w))) return true;
      return undefined;
    }
    case 'string': {
      if (explicit !== undefined && !(has(NAME_LIKE) && /^(?:is|a|an|the)$/i.test(explicit))) return take(explicit);
      const format = typeof s['format'] === 'string' ? s['format'] : '';
      const pick = (re: RegExp): string | undefined => {
        const m = re.exec(pool.text);
        const v = m?.[1] ?? m?.[0];
        return v === undefined ? undefined : take(v.trim());
      };
      if (format === 'email' || nameWords.has('email')) return pick(EMAIL);
      if (format === 'uri' || format === 'url' || nameWords.has('url') || nameWords.has('link')) return pick(URL_RE);
      if (format.startsWith('date') || nameWords.has('date')) return pick(DATE);
      if (has(PATH_LIKE)) return pick(PATH);
      if (has(NAME_LIKE)) {
        const p = personName(pool.text);
        if (p !== undefined) return take(p);
      }
      if (has(PLACE_LIKE)) {
        const p = place(pool.text);
        if (p !== undefined) return take(p);
      }
      const q = pool.quoted.shift();
      if (q !== undefined) return take(q);
      if (!required) return undefined;
      return take(remainingWords(pool));
    }
    case 'array': {
      const items = asSchema(s['items']);
      const itemType = items !== undefined ? typeOf(items) : undefined;
      if (itemType === 'number' || itemType === 'integer') {
        const ns = pool.numbers.splice(0).filter((n) => itemType === 'number' || Number.isInteger(n));
        return ns.length > 0 ? ns : undefined;
      }
      if (itemType === 'string' && pool.quoted.length > 0) return pool.quoted.splice(0);
      return undefined;
    }
    case 'object': {
      if (!required) return undefined;
      const filled = fillObject(s, pool);
      return Object.keys(filled).length > 0 ? filled : undefined;
    }
    default:
      return undefined;
  }
};

/**
 * Drops the punctuation that ends the user's sentence rather than the value: a question mark
 * always ("capital of France?" asks about `France`), and `.`/`!` after a value of one or two words
 * (a name, a place). Longer text keeps them (a message to send says what it says).
 */
const endOfSentence = (text: string): string => {
  const noQuestion = text.replace(/\s*\?+$/u, '');
  return noQuestion.split(/\s+/).length <= 2 ? noQuestion.replace(/[.!]+$/u, '') : noQuestion;
};

/** The message without stop words, the words that chose the tool, and values already used. */
const remainingWords = (pool: Pool): string => {
  const parts = pool.text.split(/\s+/).filter((raw) => {
    const w = raw.toLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
    if (w.length === 0) return false;
    if (STOP_WORDS.has(w) || pool.toolStems.has(stem(w))) return false;
    return ![...pool.used].some((u) => u.split(/\s+/).includes(w));
  });
  const text = endOfSentence(parts.join(' ').replace(/^[^\p{L}\p{N}"']+|[^\p{L}\p{N}"'.!?]+$/gu, ''));
  return text.length > 0 ? text : endOfSentence(pool.text.trim());
};

const fillObject = (schema: Schema, pool: Pool): Record<string, JsonValue> => {
  const props = asSchema(schema['properties']) ?? {};
  const required = new Set(Array.isArray(schema['required']) ? schema['required'].filter((x): x is string => typeof x === 'string') : []);
  const out: Record<string, JsonValue> = {};
  // required parameters first take what they need; optional ones take what is left
  const order = [...Object.keys(props).filter((k) => required.has(k)), ...Object.keys(props).filter((k) => !required.has(k))];
  for (const name of order) {
    const sub = asSchema(props[name]);
    if (sub === undefined) continue;
    const v = valueFor(name, sub, pool, required.has(name));
    if (v !== undefined) out[name] = v;
    else if (sub['default'] !== undefined) out[name] = sub['default'] as JsonValue;
  }
  // keep the schema's parameter order in the arguments
  const ordered: Record<string, JsonValue> = {};
  for (const k of Object.keys(props)) if (k in out) ordered[k] = out[k] as JsonValue;
  return ordered;
};

/**
 * Arguments for a tool from a message. `toolStems` are the message words that chose the tool;
 * they are not used as free text.
 */
export const fillArguments = (schema: JsonObject, message: string, toolStems: ReadonlySet<string> = new Set()): Record<string, JsonValue> =>
  fillObject(schema, { text: message, quoted: quotedStrings(message), numbers: numbersIn(message), used: new Set(), toolStems });
