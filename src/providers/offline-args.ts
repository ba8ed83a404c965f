/**
 * Arguments for the offline demo model: each parameter of the chosen tool is filled from the
 * user's message. First every `name: value` written out (it always wins, and its value is not
 * offered to another parameter); then, by what the schema says each parameter is, a person's name for
 * name-like strings ("I'm Alice", "my name is Bob"), a place after "in"/"at" for location-like
 * ones, numbers in order for numeric ones, enum values that appear in the message, yes/no words
 * for booleans, e-mails, URLs, paths and dates by their shape, quoted text for other strings —
 * then the default, and for a required string with nothing better, the remaining words.
 *
 * Each mention in the message fills one parameter at most: an enum value mentioned once fills one
 * of two parameters that accept it (the one whose name the message puts before it, as in `from mi
 * to km`, else the first in order), and the numbers of an arithmetic expression (`2 + 3 * 4`) belong
 * to the expression, not to numeric parameters.
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
  /** Arithmetic expressions of the message (`2 + 3 * 4`), offered to expression-like strings. */
  readonly expressions: string[];
  readonly used: Set<string>;
  /** Word positions (in `wordsOf(text)`) already taken as enum values. */
  readonly takenWords: Set<number>;
  /** Stems of words that chose the tool (not argument material). */
  readonly toolStems: ReadonlySet<string>;
}

const NUMBER_WORDS: Readonly<Record<string, number>> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
  hundred: 100,
};

const NAME_LIKE = new Set([
  'name',
  'person',
  'user',
  'username',
  'who',
  'author',
  'owner',
  'recipient',
  'friend',
  'first',
  'last',
  'nickname',
  'customer',
  'contact',
]);
const PLACE_LIKE = new Set(['city', 'location', 'place', 'country', 'town', 'where', 'destination', 'region', 'address', 'origin']);
const PATH_LIKE = new Set(['path', 'file', 'filename', 'dir', 'directory', 'folder']);
const EXPRESSION_LIKE = new Set(['expression', 'expr', 'formula', 'equation', 'calculation', 'math', 'sum']);
/** Words a message puts before the value of a parameter named so (`from mi`, `to km`). */
const CUES: Readonly<Record<string, ReadonlyArray<string>>> = {
  from: ['from'],
  source: ['from'],
  origin: ['from'],
  input: ['from'],
  to: ['to', 'into', 'in'],
  target: ['to', 'into', 'in'],
  destination: ['to', 'into'],
  output: ['to', 'into', 'in'],
};
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

/** Arithmetic: numbers joined by operators, with parentheses (`2 + 3 * 4`, `(1.5+2)/3`, `2^10`). */
const EXPRESSION = /[(\s]*-?\d+(?:\.\d+)?[)\s]*(?:[-+*/×÷^%][(\s]*-?\d+(?:\.\d+)?[)\s]*)+/gu;

const expressionsIn = (text: string): string[] =>
  [...text.matchAll(EXPRESSION)]
    .map((m) => m[0].trim())
    .filter((e) => /\d\s*[)]*\s*[-+*/×÷^%]/u.test(e) && !/^\d{4}-\d{2}-\d{2}/.test(e) && !/^-?\d+(?:\.\d+)?-\d/.test(e.replace(/\s+/g, '')));

/** The numbers of the message, except those inside an arithmetic expression. */
const numbersIn = (text: string): number[] => {
  const out: number[] = [];
  let rest = text;
  for (const e of expressionsIn(text)) rest = rest.replace(e, ' ');
  const re = /(?<![\p{L}\d.])-?\d+(?:\.\d+)?(?![\p{L}\d])|\b[a-z]+\b/giu;
  for (let m = re.exec(rest); m !== null; m = re.exec(rest)) {
    const w = m[0].toLowerCase();
    if (/^-?\d/.test(w)) out.push(Number(w));
    else if (Object.prototype.hasOwnProperty.call(NUMBER_WORDS, w)) out.push(NUMBER_WORDS[w] as number);
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

/** A list written out for a parameter: `tags: a, b and c` or `tags: [a, b]`, up to the end of the clause. */
const explicitList = (text: string, name: string): string[] | undefined => {
  const words = identifierWords(name);
  const forms = [...new Set([name.toLowerCase(), words.join(' '), words[words.length - 1] ?? name.toLowerCase()])].map(escapeRe);
  for (const f of forms) {
    for (const rest of after(text, new RegExp(`\\b${f}\\s*(?::|=|\\bare\\b)\\s*`, 'g'))) {
      const bracketed = /^\[([^\]]*)\]/.exec(rest);
      // the clause: up to `;`, the end of the sentence, or the next `word:`
      const clause = bracketed?.[1] ?? rest.split(/;|[.!?](?:\s|$)|\s\w+\s*:/)[0] ?? '';
      const items = clause
        .split(/\s*,\s*|\s+and\s+/)
        .map((x) => x.trim().replace(/^["']|["']$/g, ''))
        .filter((x) => x !== '');
      if (items.length > 0) return items;
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

/** `v` with a `take` of the pool: marked used and no longer offered as quoted text. */
const takeString = (pool: Pool, v: string): string => {
  pool.used.add(v.toLowerCase());
  const q = pool.quoted.findIndex((x) => x.toLowerCase() === v.toLowerCase());
  if (q !== -1) pool.quoted.splice(q, 1);
  return v;
};

/** Removes one occurrence of `n` from the numbers on offer. */
const takeNumber = (pool: Pool, n: number): number => {
  const i = pool.numbers.indexOf(n);
  if (i !== -1) pool.numbers.splice(i, 1);
  return n;
};

/** The enum value a word of the message is, if any (case-insensitive, as written in the enum). */
const enumValueOf = (values: ReadonlyArray<JsonValue>, word: string): JsonValue | undefined =>
  values.find((v) => v !== null && String(v).toLowerCase() === word);

/**
 * An enum value from the message, each mention taken once: the value right after a word the
 * parameter's name cues (`from mi` for `from_unit`), else the first mention not yet taken.
 */
const enumFromMessage = (name: string, values: ReadonlyArray<JsonValue>, pool: Pool): JsonValue | undefined => {
  const words = wordsOf(pool.text);
  const cues = new Set(identifierWords(name).flatMap((w) => [w, ...(CUES[w] ?? [])]));
  const at = (i: number): JsonValue | undefined => (pool.takenWords.has(i) ? undefined : enumValueOf(values, words[i] ?? ''));
  for (let i = 1; i < words.length; i++) {
    const v = cues.has(words[i - 1] as string) ? at(i) : undefined;
    if (v !== undefined) {
      pool.takenWords.add(i);
      return v;
    }
  }
  for (let i = 0; i < words.length; i++) {
    const v = at(i);
    if (v !== undefined) {
      pool.takenWords.add(i);
      return v;
    }
  }
  return undefined;
};

/** Marks the first untaken mention of an enum value given explicitly (`unit: km`), so no other parameter takes it. */
const takeEnumMention = (pool: Pool, value: JsonValue, after: string): void => {
  const words = wordsOf(pool.text);
  const v = String(value).toLowerCase();
  // the mention that follows the parameter's name, else the first
  const named = words.findIndex((w, i) => w === v && !pool.takenWords.has(i) && words[i - 1] === after);
  const i = named !== -1 ? named : words.findIndex((w, j) => w === v && !pool.takenWords.has(j));
  if (i !== -1) pool.takenWords.add(i);
};

/** The value written out for a parameter (`name: value`), as its type reads it, taken from the pool; or undefined. */
const explicitFor = (name: string, s: Schema, pool: Pool): JsonValue | undefined => {
  if ('const' in s) return undefined;
  const explicit = explicitValue(pool.text, name);
  if (explicit === undefined) return undefined;
  const e = s['enum'];
  if (Array.isArray(e)) {
    const v = enumValueOf(e, explicit.toLowerCase());
    if (v !== undefined) takeEnumMention(pool, v, identifierWords(name).at(-1) ?? name.toLowerCase());
    return v;
  }
  switch (typeOf(s)) {
    case 'integer':
    case 'number': {
      const n = Number(explicit);
      return explicit.trim() !== '' && Number.isFinite(n) && (typeOf(s) === 'number' || Number.isInteger(n)) ? takeNumber(pool, n) : undefined;
    }
    case 'boolean': {
      const w = explicit.toLowerCase();
      return YES.has(w) ? true : NO.has(w) ? false : undefined;
    }
    case 'string': {
      const nameWords = new Set(identifierWords(name));
      if ([...nameWords].some((w) => NAME_LIKE.has(w)) && /^(?:is|a|an|the)$/i.test(explicit)) return undefined;
      return takeString(pool, explicit);
    }
    case 'array': {
      const items = explicitList(pool.text, name);
      const itemType = typeOf(asSchema(s['items']) ?? {});
      if (items === undefined || (itemType !== undefined && itemType !== 'string')) return undefined;
      for (const v of items) takeString(pool, v);
      return items;
    }
    default:
      return undefined;
  }
};

/** A value for one parameter from what the message offers, or undefined when it says nothing about it. */
const valueFor = (name: string, s: Schema, pool: Pool, required: boolean): JsonValue | undefined => {
  const type = typeOf(s);
  const nameWords = new Set(identifierWords(name));
  const has = (set: ReadonlySet<string>): boolean => [...nameWords].some((w) => set.has(w));
  const take = (v: string): string => takeString(pool, v);

  if ('const' in s) return s['const'] as JsonValue;
  const e = s['enum'];
  if (Array.isArray(e)) return enumFromMessage(name, e, pool);

  switch (type) {
    case 'integer':
    case 'number': {
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
      if (has(EXPRESSION_LIKE) && pool.expressions.length > 0) return take(pool.expressions.shift() as string);
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
      const rest = take(remainingWords(pool));
      // the numbers of free text are its own
      for (const n of numbersIn(rest)) takeNumber(pool, n);
      return rest;
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
      const filled = fillObject(s, pool, true);
      // a record is filled when each of its required fields is, else left to say so
      return Object.keys(filled).length > 0 && unfilled(s, filled).length === 0 ? filled : undefined;
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

/** `nested`: a record inside the arguments, whose strings never take the message's remaining words (they are the top level's free text). */
const fillObject = (schema: Schema, pool: Pool, nested = false): Record<string, JsonValue> => {
  const props = asSchema(schema['properties']) ?? {};
  const required = new Set(Array.isArray(schema['required']) ? schema['required'].filter((x): x is string => typeof x === 'string') : []);
  const out = new Map<string, JsonValue>();
  // values written out (`name: value`) first, for every parameter; then required parameters take
  // what they need from the rest, and optional ones what is left
  for (const name of Object.keys(props)) {
    const sub = asSchema(props[name]);
    const v = sub !== undefined ? explicitFor(name, sub, pool) : undefined;
    if (v !== undefined) out.set(name, v);
  }
  const order = [...Object.keys(props).filter((k) => required.has(k)), ...Object.keys(props).filter((k) => !required.has(k))];
  for (const name of order) {
    const sub = asSchema(props[name]);
    if (sub === undefined || out.has(name)) continue;
    const v = valueFor(name, sub, pool, required.has(name) && !nested);
    if (v !== undefined) out.set(name, v);
    else if (sub['default'] !== undefined) out.set(name, sub['default'] as JsonValue);
  }
  // keep the schema's parameter order in the arguments
  const ordered: Record<string, JsonValue> = {};
  for (const k of Object.keys(props)) if (out.has(k)) ordered[k] = out.get(k) as JsonValue;
  return ordered;
};

/** What a required parameter expects, in words (`an array of strings`, `a record with name, team`). */
const expected = (s: Schema): string => {
  const type = typeOf(s);
  if (type === 'array') {
    const items = asSchema(s['items']);
    const it = items !== undefined ? typeOf(items) : undefined;
    return it !== undefined ? `a list of ${it === 'string' ? 'strings' : it === 'integer' || it === 'number' ? 'numbers' : `${it}s`}` : 'a list';
  }
  if (type === 'object') {
    const props = Object.keys(asSchema(s['properties']) ?? {});
    return props.length > 0 ? `a record with ${props.join(', ')}` : 'a record';
  }
  return type !== undefined ? `a ${type}` : 'a value';
};

/**
 * The required lists and records, and the required fields of records, that `args` leaves without a
 * value, each as `path (what it expects)`: what the offline model says it could not fill instead
 * of calling with a guess.
 */
export const unfilled = (schema: JsonObject, args: Readonly<Record<string, JsonValue>>, prefix = ''): string[] => {
  const props = asSchema(schema['properties']) ?? {};
  const required = Array.isArray(schema['required']) ? schema['required'].filter((x): x is string => typeof x === 'string') : [];
  const out: string[] = [];
  for (const name of required) {
    const sub = asSchema(props[name]) ?? {};
    const v = args[name];
    // at the top, only lists and records (a scalar left out is the tool's validation to report)
    if (v === undefined && (prefix !== '' || typeOf(sub) === 'array' || typeOf(sub) === 'object')) out.push(`${prefix}${name} (${expected(sub)})`);
    else if (isRecord(v) && typeOf(sub) === 'object') out.push(...unfilled(sub, v as Record<string, JsonValue>, `${prefix}${name}.`));
  }
  return out;
};

/**
 * Arguments for a tool from a message. `toolStems` are the message words that chose the tool;
 * they are not used as free text.
 */
export const fillArguments = (schema: JsonObject, message: string, toolStems: ReadonlySet<string> = new Set()): Record<string, JsonValue> =>
  fillObject(schema, {
    text: message,
    quoted: quotedStrings(message),
    numbers: numbersIn(message),
    expressions: expressionsIn(message),
    used: new Set(),
    takenWords: new Set(),
    toolStems,
  });
