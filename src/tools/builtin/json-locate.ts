/**
 * Where JSON text goes wrong: the offset, line and column of the first error, for messages a model
 * can act on (V8's `JSON.parse` messages do not always say where). Only run after `JSON.parse`
 * failed; iterative, so deeply nested input cannot overflow the stack.
 */

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface JsonErrorLocation {
  /** Offset in UTF-16 code units. */
  readonly offset: number;
  /** 1-based line and column. */
  readonly line: number;
  readonly column: number;
  /** What was expected or found, in words. */
  readonly problem: string;
}

// -------------------------------------------------------------------------------------------------
// locating
// -------------------------------------------------------------------------------------------------

/** The first syntax error of `text`, or undefined when it is valid JSON. */
export const locateJsonError = (text: string): JsonErrorLocation | undefined => {
  let i = 0;
  const n = text.length;
  const at = (offset: number, problem: string): JsonErrorLocation => {
    let line = 1;
    let lineStart = 0;
    for (let k = 0; k < offset && k < n; k++) {
      if (text.charCodeAt(k) === 10) {
        line += 1;
        lineStart = k + 1;
      }
    }
    return { offset, line, column: offset - lineStart + 1, problem };
  };
  const ws = (): void => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13) i += 1;
      else break;
    }
  };
  const describe = (): string => (i >= n ? 'the end of the text' : JSON.stringify(text[i]));

  /** Reads one scalar or opens a container; returns an error or undefined. */
  const stack: Array<'object' | 'array'> = [];
  // states: 'value' (expect a value), 'after' (a value ended)
  let state: 'value' | 'after' | 'key' = 'value';
  ws();
  for (;;) {
    if (state === 'value') {
      ws();
      const c = text[i];
      if (c === '{') {
        i += 1;
        ws();
        if (text[i] === '}') {
          i += 1;
          state = 'after';
        } else {
          stack.push('object');
          state = 'key';
        }
        continue;
      }
      if (c === '[') {
        i += 1;
        ws();
        if (text[i] === ']') {
          i += 1;
          state = 'after';
        } else {
          stack.push('array');
          state = 'value';
        }
        continue;
      }
      if (c === '"') {
        const e = readString();
        if (e !== undefined) return e;
        state = 'after';
        continue;
      }
      if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) {
        const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
        if (m === null || m[0] === '-' || m[0] === '') return at(i, `a malformed number at ${describe()}`);
        i += m[0].length;
        if (/^[0-9]/.test(text[i] ?? '')) return at(i, 'a number with a leading zero');
        state = 'after';
        continue;
      }
      for (const lit of ['true', 'false', 'null']) {
        if (text.startsWith(lit, i)) {
          i += lit.length;
          state = 'after';
          break;
        }
      }
      if (state === 'after') continue;
      return at(i, `expected a value, found ${describe()}`);
    }
    if (state === 'key') {
      ws();
      if (text[i] !== '"') return at(i, `expected a property name in double quotes, found ${describe()}`);
      const e = readString();
      if (e !== undefined) return e;
      ws();
      if (text[i] !== ':') return at(i, `expected ':' after the property name, found ${describe()}`);
      i += 1;
      state = 'value';
      continue;
    }
    // after a value
    ws();
    const top = stack[stack.length - 1];
    if (top === undefined) return i >= n ? undefined : at(i, `unexpected ${describe()} after the end of the JSON value`);
    const c = text[i];
    if (c === ',') {
      i += 1;
      ws();
      if ((top === 'object' && text[i] === '}') || (top === 'array' && text[i] === ']')) return at(i, `a trailing comma before ${describe()}`);
      state = top === 'object' ? 'key' : 'value';
      continue;
    }
    if ((top === 'object' && c === '}') || (top === 'array' && c === ']')) {
      i += 1;
      stack.pop();
      state = 'after';
      continue;
    }
    return at(i, `expected ',' or '${top === 'object' ? '}' : ']'}', found ${describe()}`);
  }

  function readString(): JsonErrorLocation | undefined {
    const start = i;
    i += 1;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 34) {
        i += 1;
        return undefined;
      }
      if (c < 0x20) return at(i, 'a control character inside a string (escape it, e.g. \\n)');
      if (c === 92) {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) return at(i, 'a malformed \\u escape');
          i += 6;
          continue;
        }
        if (e === undefined || !'"\\/bfnrt'.includes(e)) return at(i, `an invalid escape \\${e ?? ''}`);
        i += 2;
        continue;
      }
      i += 1;
    }
    return at(start, 'a string that is never closed');
  }
};
