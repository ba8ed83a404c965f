/**
 * gram's quoted text: which escapes exist, how to decode them and how to write a string back.
 *
 * One-line strings (`'…'`, `"…"`, `` `…` ``) allow the escapes `\\ \/ \b \f \n \r \t` plus the
 * string's own quote, and no raw line feed. Fenced strings are raw. Symbols are ASCII:
 * `[a-zA-Z_][0-9a-zA-Z_.\-@]*`.
 */

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export type Quote = "'" | '"' | '`';

// -------------------------------------------------------------------------------------------------
// utilities: characters
// -------------------------------------------------------------------------------------------------

/** 1: may start a symbol; 2: may continue one. Indexed by char code below 128. */
const SYMBOL_CLASS = (() => {
  const t = new Uint8Array(128);
  for (let c = 0; c < 128; c++) {
    const ch = String.fromCharCode(c);
    if (/[a-zA-Z_]/.test(ch)) t[c] = 3;
    else if (/[0-9.\-@]/.test(ch)) t[c] = 2;
  }
  return t;
})();

export const isSymbolStart = (c: number): boolean => c < 128 && ((SYMBOL_CLASS[c] as number) & 1) === 1;
export const isSymbolPart = (c: number): boolean => c < 128 && (SYMBOL_CLASS[c] as number) !== 0;

const SYMBOL_RE = /^[a-zA-Z_][0-9a-zA-Z_.\-@]*$/;

/** Whether `s` can be written bare as a symbol (identifier, label, key, value or tag). */
export const isSymbol = (s: string): boolean => SYMBOL_RE.test(s);

/** Whether `s` is written as a gram integer (`-?(0|[1-9][0-9]*)`). */
export const isIntegerText = (s: string): boolean => /^-?(0|[1-9][0-9]*)$/.test(s);

// -------------------------------------------------------------------------------------------------
// utilities: escapes
// -------------------------------------------------------------------------------------------------

/** The character an escape letter stands for, or undefined when gram has no such escape. */
export const escapedChar = (letter: number, quote: number): string | undefined => {
  switch (letter) {
    case 92:
      return '\\';
    case 47:
      return '/';
    case 98:
      return '\b';
    case 102:
      return '\f';
    case 110:
      return '\n';
    case 114:
      return '\r';
    case 116:
      return '\t';
    default:
      return letter === quote ? String.fromCharCode(quote) : undefined;
  }
};

/**
 * Decodes the text between the quotes of a one-line string, `src.slice(start, end)`. Invalid escapes
 * are kept as written (the lexer reports them).
 */
export const decodeEscapes = (src: string, start: number, end: number, quote: number): string => {
  let out = '';
  let from = start;
  for (let i = start; i < end; i++) {
    if (src.charCodeAt(i) !== 92) continue;
    const ch = i + 1 < end ? escapedChar(src.charCodeAt(i + 1), quote) : undefined;
    if (ch === undefined) continue;
    out += src.slice(from, i) + ch;
    i++;
    from = i + 1;
  }
  return out + src.slice(from, end);
};

/**
 * Writes `value` as a one-line string with the given quote: escapes the backslash, the quote and
 * the control characters that have an escape; a line feed is always escaped (it cannot appear raw).
 */
export const quote = (value: string, q: Quote): string => {
  let out = q;
  let from = 0;
  const qc = q.charCodeAt(0);
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    let rep: string | undefined;
    if (c === 92) rep = '\\\\';
    else if (c === qc) rep = `\\${q}`;
    else if (c === 10) rep = '\\n';
    else if (c === 13) rep = '\\r';
    else if (c === 9) rep = '\\t';
    else if (c === 8) rep = '\\b';
    else if (c === 12) rep = '\\f';
    if (rep !== undefined) {
      out += value.slice(from, i) + rep;
      from = i + 1;
    }
  }
  return out + value.slice(from) + q;
};

/** A name as a symbol when it can be one, else in backticks. */
export const nameText = (name: string): string => (isSymbol(name) ? name : quote(name, '`'));

/**
 * Whether `content` can be written as the body of a fenced string: it must not contain "```" and
 * must not end with a backtick (the closing fence would absorb it).
 */
export const isFenceable = (content: string): boolean => !content.includes('```') && !content.endsWith('`');
