/**
 * Secrets never leave a tool: every string a tool returns or reports (results, error messages,
 * details) goes through a redactor that replaces each secret value, in every form it may take on
 * the way (as written, percent-encoded, form-encoded, JSON-escaped, base64 as in Basic auth), by
 * `[REDACTED]`. Redaction is by value, so it also catches a server that echoes a key back.
 *
 * Fragments count: any run of `MIN_SECRET_FRAGMENT` or more characters of a form of a secret is
 * replaced too, so that text cut anywhere (an excerpt, a server that echoes half a key) shows at
 * most `MIN_SECRET_FRAGMENT - 1` consecutive characters of it. Code that shortens text for a
 * message redacts first and cuts after (`redactThenCut`). A secret shorter than the minimum is
 * redacted whole only.
 */

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export const REDACTED = '[REDACTED]';

/** The shortest run of a secret's characters that is redacted on its own (documented in docs/policies.md). */
export const MIN_SECRET_FRAGMENT = 8;

/** Beyond this depth a value is replaced by `[REDACTED]` whole (nothing unread leaves). */
const MAX_DEPTH = 256;

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
  const k = MIN_SECRET_FRAGMENT;
  // forms shorter than k are found whole; longer ones by any k characters of theirs
  const short = [...forms].filter((f) => f !== '' && f.length < k);
  const grams = new Set<string>();
  for (const f of forms) if (f.length >= k) for (let i = 0; i + k <= f.length; i++) grams.add(f.slice(i, i + k));
  if (short.length === 0 && grams.size === 0) return { text: (s) => s, value: (v) => v };
  const text = (s: string): string => (s.length === 0 ? s : redactText(s, short, grams, k));
  const value = <T>(v: T): T => deep(v, text, 0) as T;
  return { text, value };
};

/** `text` redacted, then shortened to `max` characters (with `…`): never the other way round. */
export const redactThenCut = (text: string, max: number, redact: (s: string) => string = (s) => s): string => {
  const r = redact(text);
  return r.length > max ? `${r.slice(0, max)}…` : r;
};

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

/** Marks every character covered by a short form or a k-gram of a long form, then replaces each marked run. */
const redactText = (s: string, short: ReadonlyArray<string>, grams: ReadonlySet<string>, k: number): string => {
  const n = s.length;
  let marked: Uint8Array | undefined;
  const mark = (from: number, to: number): void => {
    marked ??= new Uint8Array(n);
    marked.fill(1, from, to);
  };
  for (const f of short) for (let at = s.indexOf(f); at >= 0; at = s.indexOf(f, at + 1)) mark(at, at + f.length);
  if (grams.size > 0) for (let i = 0; i + k <= n; i++) if (grams.has(s.slice(i, i + k))) mark(i, i + k);
  if (marked === undefined) return s;
  let out = '';
  let i = 0;
  while (i < n) {
    if (marked[i] === 1) {
      out += REDACTED;
      while (i < n && marked[i] === 1) i += 1;
    } else {
      const start = i;
      while (i < n && marked[i] === 0) i += 1;
      out += s.slice(start, i);
    }
  }
  return out;
};

const deep = (v: unknown, text: (s: string) => string, depth: number): unknown => {
  if (typeof v === 'string') return text(v);
  if (v === null || typeof v !== 'object') return v;
  if (depth > MAX_DEPTH) return REDACTED;
  if (Array.isArray(v)) return v.map((e) => deep(e, text, depth + 1));
  if (v instanceof Error) return new Error(text(v.message));
  const out: Record<string, unknown> = {};
  for (const [k, e] of Object.entries(v)) out[text(k)] = deep(e, text, depth + 1);
  return out;
};
