/**
 * Secrets never leave a tool: every string a tool returns or reports (results, error messages,
 * details) goes through a redactor that replaces each secret value, in every form it may take on
 * the way (as written, percent-encoded, form-encoded, JSON-escaped, base64 as in Basic auth), by
 * `[REDACTED]`. Redaction is by value, so it also catches a server that echoes a key back.
 */

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export const REDACTED = '[REDACTED]';

/** A secret provider: the value of a named secret, or undefined when there is none. */
export type SecretProvider = (name: string) => string | undefined;

export interface Redactor {
  readonly text: (s: string) => string;
  /** A deep copy of a JSON-like value with every string (keys included) redacted. */
  readonly value: <T>(v: T) => T;
}

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

export const redactor = (secrets: ReadonlyArray<string>): Redactor => {
  const forms = new Set<string>();
  for (const s of secrets) {
    if (s === '') continue;
    forms.add(s);
    forms.add(encodeURIComponent(s));
    forms.add(new URLSearchParams([['', s]]).toString().slice(1));
    forms.add(JSON.stringify(s).slice(1, -1));
    forms.add(Buffer.from(s, 'utf8').toString('base64'));
  }
  // longest first, so that a secret containing another is replaced whole
  const ordered = [...forms].filter((f) => f !== '').sort((a, b) => b.length - a.length);
  if (ordered.length === 0) return { text: (s) => s, value: (v) => v };
  const pattern = new RegExp(ordered.map(escapeRegExp).join('|'), 'g');
  const text = (s: string): string => (s.length === 0 ? s : s.replace(pattern, REDACTED));
  const value = <T>(v: T): T => deep(v, text, 0) as T;
  return { text, value };
};

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

const deep = (v: unknown, text: (s: string) => string, depth: number): unknown => {
  if (typeof v === 'string') return text(v);
  if (v === null || typeof v !== 'object' || depth > 256) return v;
  if (Array.isArray(v)) return v.map((e) => deep(e, text, depth + 1));
  if (v instanceof Error) return new Error(text(v.message));
  const out: Record<string, unknown> = {};
  for (const [k, e] of Object.entries(v)) out[text(k)] = deep(e, text, depth + 1);
  return out;
};
