/**
 * Tool names per provider. Each provider accepts a different alphabet and length (OpenAI
 * `^[a-zA-Z0-9_-]{1,64}$`, Anthropic `{1,128}`, Gemini adds `.` and `:` and wants a letter or `_`
 * first, MCP allows dots). A name that breaks the rules is rewritten, and a collision-free map
 * from provider names back to gramkit names lets adapters report calls under gramkit's names.
 */
import type { Dialect } from './dialect.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface ToolNameRule {
  /** One allowed character. */
  readonly char: RegExp;
  /** The allowed first character, when stricter than `char`. */
  readonly first?: RegExp;
  readonly maxLength: number;
}

/** gramkit name ⇄ provider name, for one set of tools and one dialect. */
export interface ToolNameMap {
  readonly toProvider: ReadonlyMap<string, string>;
  readonly toGramkit: ReadonlyMap<string, string>;
}

const OPENAI: ToolNameRule = { char: /[A-Za-z0-9_-]/, maxLength: 64 };

/** The rules, per dialect; `jsonschema` has none (names are kept as they are). */
export const TOOL_NAME_RULES: Readonly<Record<Dialect, ToolNameRule | undefined>> = {
  jsonschema: undefined,
  openai: OPENAI,
  'openai-strict': OPENAI,
  anthropic: { char: /[A-Za-z0-9_-]/, maxLength: 128 },
  gemini: { char: /[A-Za-z0-9_.:-]/, first: /[A-Za-z_]/, maxLength: 64 },
  mcp: { char: /[A-Za-z0-9._-]/, maxLength: 128 },
};

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

/** Whether the provider accepts `name` as it is. */
export const isValidToolName = (name: string, dialect: Dialect): boolean => {
  const rule = TOOL_NAME_RULES[dialect];
  if (rule === undefined) return name.length > 0;
  const chars = [...name];
  if (chars.length === 0 || chars.length > rule.maxLength) return false;
  if (rule.first !== undefined && !rule.first.test(chars[0] ?? '')) return false;
  return chars.every((c) => rule.char.test(c));
};

/**
 * A name the provider accepts, derived from `name`: accents removed, every run of other
 * characters replaced by `_`, a `_` in front when the first character is not allowed there, and
 * a hash of the whole name at the end when it is too long. Valid names are returned unchanged.
 * Deterministic; two names may still sanitize to the same result (`toolNameMap` resolves that).
 */
export const sanitizeToolName = (name: string, dialect: Dialect): string => {
  const rule = TOOL_NAME_RULES[dialect];
  if (rule === undefined || isValidToolName(name, dialect)) return name.length > 0 ? name : 'tool';
  const ascii = name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  let out = '';
  let lastReplaced = false;
  for (const c of ascii) {
    if (rule.char.test(c)) {
      out += c;
      lastReplaced = false;
    } else if (!lastReplaced) {
      out += '_';
      lastReplaced = true;
    }
  }
  if (out === '' || out === '_') out = 'tool';
  if (rule.first !== undefined && !rule.first.test(out[0] ?? '')) out = `_${out}`;
  if (out.length > rule.maxLength) out = `${out.slice(0, rule.maxLength - 9)}_${fnv1a(name)}`;
  return out;
};

/**
 * Provider names for a set of tools, with the reverse map. Names the provider accepts keep
 * themselves (so a valid name never changes because of another tool); the others are
 * sanitized and, on a collision, get a `_2`, `_3`... suffix. Repeated gramkit names map once.
 */
export const toolNameMap = (names: ReadonlyArray<string>, dialect: Dialect): ToolNameMap => {
  const toProvider = new Map<string, string>();
  const toGramkit = new Map<string, string>();
  for (const n of names) {
    if (toProvider.has(n) || !isValidToolName(n, dialect) || toGramkit.has(n)) continue;
    toProvider.set(n, n);
    toGramkit.set(n, n);
  }
  const maxLength = TOOL_NAME_RULES[dialect]?.maxLength ?? Number.POSITIVE_INFINITY;
  for (const n of names) {
    if (toProvider.has(n)) continue;
    const base = sanitizeToolName(n, dialect);
    let candidate = base;
    for (let i = 2; toGramkit.has(candidate); i++) {
      const suffix = `_${i}`;
      candidate = `${base.slice(0, Math.min(base.length, maxLength - suffix.length))}${suffix}`;
    }
    toProvider.set(n, candidate);
    toGramkit.set(candidate, n);
  }
  return { toProvider, toGramkit };
};

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

/** The gramkit name of a provider's tool name; unknown names come back unchanged. */
export const gramkitToolName = (map: ToolNameMap, providerName: string): string => map.toGramkit.get(providerName) ?? providerName;

/** The provider's name of a gramkit tool; names outside the map are sanitized alone. */
export const providerToolName = (map: ToolNameMap, name: string, dialect: Dialect): string => map.toProvider.get(name) ?? sanitizeToolName(name, dialect);

/** 32-bit FNV-1a of a string, as 8 hex digits. */
const fnv1a = (s: string): string => {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
};
