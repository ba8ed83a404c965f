/**
 * Words for the offline demo model: tokenizing messages and identifiers (camelCase, snake_case,
 * kebab-case, dots), a light stemmer with a few synonym groups, stop words, and the score of a
 * tool against a message. Deterministic and small on purpose: it is a demo, not a language model.
 */
import type { ToolDefinition } from '../agent/model.js';
import type { JsonObject } from '../core/json-schema.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an the i im me my mine you your yours we our us he she it its they them their is are am was were be been being ' +
    'to of in on at for from by with about into over and or but not no nor so if then than that this these those there here ' +
    'do does did done can could would should will shall may might must please thanks thank hey ok okay ' +
    'what whats which who whom whose how why when where let lets give tell some any all m s t ll re ve d just also very really'
  ).split(' '),
);

/** Groups of words that mean the same to a tool picker; each maps to its first word. */
const SYNONYM_GROUPS: ReadonlyArray<ReadonlyArray<string>> = [
  ['greet', 'hello', 'hi', 'hey', 'howdy', 'welcome', 'greeting', 'salute'],
  ['weather', 'forecast', 'temperature', 'rain', 'sunny'],
  ['add', 'sum', 'plus', 'total'],
  ['subtract', 'minus', 'difference'],
  ['multiply', 'times', 'product'],
  ['divide', 'quotient'],
  ['calculate', 'calc', 'compute', 'evaluate'],
  ['search', 'find', 'lookup', 'look', 'query', 'seek'],
  ['read', 'open', 'show', 'view', 'display', 'cat'],
  ['write', 'save', 'store', 'create'],
  ['list', 'ls', 'enumerate'],
  ['delete', 'remove', 'rm', 'erase'],
  ['get', 'fetch', 'retrieve', 'download'],
  ['send', 'mail', 'email'],
  ['run', 'execute', 'exec', 'launch'],
  ['time', 'clock', 'now'],
  ['translate', 'translation'],
  ['convert', 'conversion'],
];

const SYNONYMS: ReadonlyMap<string, string> = new Map(SYNONYM_GROUPS.flatMap((g) => g.map((w) => [w, g[0] as string] as const)));

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

/** The words of a text, lowercased (letters and digits of any script). */
export const wordsOf = (text: string): string[] =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);

/** The words of an identifier: `sayHello` → say, hello; `get_weather.v2` → get, weather, v2; `HTTPServer` → http, server. */
export const identifierWords = (name: string): string[] =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);

/** A light stem: plurals and -ing/-ed endings removed, then the synonym group's word. */
export const stem = (word: string): string => {
  const w = word.toLowerCase();
  const direct = SYNONYMS.get(w);
  if (direct !== undefined) return direct;
  let s = w;
  if (s.length > 4 && s.endsWith('ies')) s = `${s.slice(0, -3)}y`;
  else if (s.length > 5 && s.endsWith('ing')) s = s.slice(0, -3);
  else if (s.length > 4 && s.endsWith('ed')) s = s.slice(0, -2);
  else if (s.length > 4 && /(ss|x|ch|sh)es$/.test(s)) s = s.slice(0, -2);
  else if (s.length > 3 && s.endsWith('s') && !s.endsWith('ss')) s = s.slice(0, -1);
  return SYNONYMS.get(s) ?? s;
};

/** The stems of a text's content words (stop words left out). */
export const contentStems = (words: ReadonlyArray<string>): Set<string> => new Set(words.filter((w) => !STOP_WORDS.has(w)).map(stem));

// -------------------------------------------------------------------------------------------------
// scoring
// -------------------------------------------------------------------------------------------------

const overlap = (a: ReadonlySet<string>, b: ReadonlySet<string>): number => {
  let n = 0;
  for (const x of a) if (b.has(x)) n++;
  return n;
};

/** Parameter names and string enum values of a schema's top level. */
const parameterWords = (schema: JsonObject): string[] => {
  const props = schema['properties'];
  if (typeof props !== 'object' || props === null || Array.isArray(props)) return [];
  const out: string[] = [];
  for (const [name, sub] of Object.entries(props)) {
    out.push(...identifierWords(name));
    const e = typeof sub === 'object' && sub !== null && !Array.isArray(sub) ? (sub as JsonObject)['enum'] : undefined;
    if (Array.isArray(e)) for (const v of e) if (typeof v === 'string') out.push(...wordsOf(v));
  }
  return out;
};

export interface ToolScore {
  readonly tool: ToolDefinition;
  readonly score: number;
  /** The message stems that matched the tool's name or description (left out of free-text arguments). */
  readonly matched: ReadonlySet<string>;
}

/**
 * How well a tool matches a message: 3 per word of its name, 1 per word of its description, ½ per
 * parameter name or enum value found in the message.
 */
export const scoreTool = (tool: ToolDefinition, message: ReadonlySet<string>): ToolScore => {
  const name = contentStems(identifierWords(tool.name));
  const description = contentStems(wordsOf(tool.description));
  const params = contentStems(parameterWords(tool.inputSchema));
  const matched = new Set<string>();
  for (const s of message) if (name.has(s) || description.has(s)) matched.add(s);
  const score = 3 * overlap(message, name) + overlap(message, description) + 0.5 * overlap(message, params);
  return { tool, score, matched };
};

/** The best tool for a message (ties: the first in order), or undefined when none shares a word. */
export const bestTool = (tools: ReadonlyArray<ToolDefinition>, text: string): ToolScore | undefined => {
  const message = contentStems(wordsOf(text));
  let best: ToolScore | undefined;
  for (const t of tools) {
    const s = scoreTool(t, message);
    if (s.score > 0 && (best === undefined || s.score > best.score)) best = s;
  }
  return best;
};
