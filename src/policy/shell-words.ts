/**
 * A shell command line split into simple commands, as far as a safety check needs: quoting
 * (`'…'`, `"…"`, `$'…'`, backslashes), operators (`;` `&` `&&` `||` `|` `|&`, newlines, `( )`,
 * `{ }`), redirections with their targets, comments, here-documents (their bodies are data),
 * command and process substitutions (`$(…)`, backquotes, `<(…)`, `>(…)`: parsed as commands of
 * their own, linked to the command whose word holds them), `$IFS` used as a separator, and brace
 * lists (`{rm,-rf,/}`) expanded as bash would.
 *
 * It does not expand variables (a word keeps `$HOME` as written), globs or aliases; it is a
 * conservative reader for rules, not an interpreter. It never throws, runs in time linear in the
 * text (plus the nesting of substitutions, capped at `MAX_DEPTH`), and reports unbalanced quotes
 * by reading to the end of the text as the shell would wait for more.
 */

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface Redirect {
  /** The operator as written without its file descriptor: `>`, `>>`, `>|`, `<`, `<>`, `&>`, `&>>`, `<<<`, `>&`, `<&`. */
  readonly op: string;
  readonly target: string;
}

export interface SimpleCommand {
  /** Words after quote removal; the command name first. Assignments (`A=1`) before it are in `assignments`. */
  readonly words: ReadonlyArray<string>;
  readonly assignments: ReadonlyArray<string>;
  readonly redirects: ReadonlyArray<Redirect>;
  /** Commands of one pipeline share this number; `pipePosition` is the place in it (0 = first). */
  readonly pipeline: number;
  readonly pipePosition: number;
  /** Index (in the flat list) of the command one of whose words holds this one as a substitution. */
  readonly parent?: number;
  /** The function whose body holds this command (`f() { … }`, `function f { … }`), innermost first. */
  readonly inFunction?: string;
  /** Whether its pipeline runs in the background (ends with a single `&`). */
  readonly background?: boolean;
}

export interface ParsedShell {
  /** Every simple command, substitutions included, in the order they appear. */
  readonly commands: ReadonlyArray<SimpleCommand>;
}

/** What a substitution becomes in the word that held it (its commands are parsed separately). */
export const SUBSTITUTED = '$\u27e8…\u27e9';

/** Deepest nesting of substitutions read; deeper text is treated as plain data. */
export const MAX_DEPTH = 16;

// -------------------------------------------------------------------------------------------------
// parsing
// -------------------------------------------------------------------------------------------------

export const parseShell = (text: string): ParsedShell => {
  const out: MutableCommand[] = [];
  const state = { pipeline: 0 };
  parseInto(text, out, state, undefined, 0);
  // drop commands that received nothing (a lone `2>&1`, keywords), renumbering parents
  const kept: number[] = [];
  const newIndex = new Map<number, number>();
  out.forEach((c, k) => {
    if (c.words.length > 0 || c.assignments.length > 0 || c.redirects.length > 0) {
      newIndex.set(k, kept.length);
      kept.push(k);
    }
  });
  return {
    commands: kept.map((k) => {
      const c = out[k] as MutableCommand;
      const p = c.parent === undefined ? undefined : newIndex.get(c.parent);
      return freeze({ ...c, ...(p === undefined ? { parent: undefined } : { parent: p }) });
    }),
  };
};

interface MutableCommand {
  words: string[];
  assignments: string[];
  redirects: Redirect[];
  pipeline: number;
  pipePosition: number;
  parent?: number;
  inFunction?: string;
  background?: boolean;
}

const freeze = (c: MutableCommand): SimpleCommand => ({
  words: c.words,
  assignments: c.assignments,
  redirects: c.redirects,
  pipeline: c.pipeline,
  pipePosition: c.pipePosition,
  ...(c.parent !== undefined ? { parent: c.parent } : {}),
  ...(c.inFunction !== undefined ? { inFunction: c.inFunction } : {}),
  ...(c.background === true ? { background: true } : {}),
});

const REDIRECT_OPS = ['&>>', '&>', '<<<', '<<-', '<<', '>>', '>|', '>&', '<&', '<>', '>', '<'];
const KEYWORDS = new Set([
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'do',
  'done',
  'while',
  'until',
  'for',
  'case',
  'esac',
  'select',
  'function',
  '!',
  'time',
  'in',
  '{',
  '}',
  '[[',
  ']]',
  'coproc',
]);
const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\r';
const isOpChar = (c: string | undefined): boolean => c === ';' || c === '&' || c === '|' || c === '(' || c === ')' || c === '\n';

/**
 * Reads `text` and appends its simple commands to `out`. `parent` is the index of the command a
 * substitution belongs to.
 */
const parseInto = (
  text: string,
  out: MutableCommand[],
  state: { pipeline: number },
  parent: number | undefined,
  depth: number,
  parentFunction?: string,
): void => {
  let i = 0;
  const n = text.length;
  let cur: MutableCommand | undefined;
  let pipePosition = 0;
  let pendingRedirect: string | undefined;
  const heredocs: Array<{ delim: string; strip: boolean }> = [];
  // function definitions: a name waiting for its body, and the open `{`/`(` groups (with the
  // function each one is the body of, if any)
  let pendingFunction: string | undefined;
  let expectFunctionName = false;
  // each group keeps the innermost function around it, so that looking it up is O(1)
  const groups: Array<{ close: string; fn: string | undefined }> = [];
  const inFunction = (): string | undefined => (groups.length > 0 ? groups[groups.length - 1]!.fn : parentFunction);
  let curIndex = -1;
  let pipelineCommands: MutableCommand[] = [];

  const current = (): MutableCommand => {
    if (cur === undefined) {
      const fn = inFunction();
      cur = {
        words: [],
        assignments: [],
        redirects: [],
        pipeline: state.pipeline,
        pipePosition,
        ...(parent !== undefined ? { parent } : {}),
        ...(fn !== undefined ? { inFunction: fn } : {}),
      };
      curIndex = out.length;
      out.push(cur);
      pipelineCommands.push(cur);
    }
    return cur;
  };
  const endCommand = (): void => {
    cur = undefined;
  };
  const endPipeline = (): void => {
    endCommand();
    state.pipeline += 1;
    pipePosition = 0;
    pipelineCommands = [];
  };
  const openGroup = (close: string): void => {
    groups.push({ close, fn: pendingFunction ?? inFunction() });
    pendingFunction = undefined;
  };
  const closeGroup = (close: string): void => {
    // the nearest open group of this kind (a few frames down at most: malformed text stays linear)
    for (let k = groups.length - 1; k >= Math.max(0, groups.length - 4); k--) {
      if (groups[k]!.close === close) {
        groups.length = k;
        return;
      }
    }
  };

  const parseSubstitutions = (substitutions: ReadonlyArray<string>): void => {
    if (substitutions.length === 0 || depth >= MAX_DEPTH) return;
    current();
    const index = curIndex;
    for (const sub of substitutions) {
      state.pipeline += 1;
      parseInto(sub, out, state, index, depth + 1, inFunction());
    }
  };

  const pushWord = (word: string, quoted: boolean): void => {
    const c = current();
    if (pendingRedirect !== undefined) {
      if (pendingRedirect === '<<' || pendingRedirect === '<<-') heredocs.push({ delim: word, strip: pendingRedirect === '<<-' });
      else c.redirects.push({ op: pendingRedirect, target: word });
      pendingRedirect = undefined;
      return;
    }
    if (expectFunctionName) {
      // `function name`: the name is defined, not run
      expectFunctionName = false;
      pendingFunction = word;
      endPipeline();
      return;
    }
    if (c.words.length === 0 && !quoted) {
      if (isAssignment(word)) {
        c.assignments.push(word);
        return;
      }
      if (KEYWORDS.has(word)) {
        if (word === '{') openGroup('}');
        else if (word === '}') closeGroup('}');
        else if (word === 'function') expectFunctionName = true;
        // what follows a keyword is a new command (of the group's function, if it opened one)
        if (c.assignments.length === 0 && c.redirects.length === 0) {
          if (out[out.length - 1] === c) out.pop();
          pipelineCommands = pipelineCommands.filter((x) => x !== c);
          cur = undefined;
        }
        return;
      }
    }
    const braces = quoted ? undefined : braceList(word);
    if (braces !== undefined) {
      for (const part of braces.parts) c.words.push(`${braces.before}${part}${braces.after}`);
      return;
    }
    c.words.push(word);
  };

  while (i < n) {
    const ch = text[i] as string;
    if (isSpace(ch)) {
      i += 1;
      continue;
    }
    if (ch === '\\' && text[i + 1] === '\n') {
      i += 2;
      continue;
    }
    if (ch === '#') {
      while (i < n && text[i] !== '\n') i += 1;
      continue;
    }
    if (ch === '\n') {
      endPipeline();
      i += 1;
      // here-document bodies follow the line that announced them: data, not commands
      while (heredocs.length > 0 && i < n) {
        const { delim, strip } = heredocs.shift() as { delim: string; strip: boolean };
        for (;;) {
          if (i >= n) break;
          const eol = text.indexOf('\n', i);
          const line = text.slice(i, eol < 0 ? n : eol);
          i = eol < 0 ? n : eol + 1;
          if ((strip ? line.replace(/^\t+/, '') : line) === delim) break;
        }
      }
      continue;
    }
    // redirections, with an optional file descriptor number before them
    const fd = /^\d+/.exec(text.slice(i, i + 4));
    const afterFd = fd !== null ? i + fd[0].length : i;
    if ((text[afterFd] === '>' || text[afterFd] === '<') && !(text[afterFd + 1] === '(')) {
      const op = REDIRECT_OPS.find((o) => text.startsWith(o, afterFd));
      if (op !== undefined) {
        current();
        i = afterFd + op.length;
        // `2>&1`, `>&-`: a duplication, not a file
        if ((op === '>&' || op === '<&') && /^[\d-]/.test(text[i] ?? '')) {
          while (i < n && /[\d-]/.test(text[i] as string)) i += 1;
          continue;
        }
        pendingRedirect = op === '>&' ? '&>' : op;
        continue;
      }
    }
    if (ch === '&' && text[i + 1] === '>') {
      current();
      const op = text[i + 2] === '>' ? '&>>' : '&>';
      pendingRedirect = op;
      i += op.length;
      continue;
    }
    if (isOpChar(ch)) {
      const two = text.slice(i, i + 2);
      if (two === '||' || two === '&&' || two === ';;' || two === '|&') {
        if (two === '|&') {
          endCommand();
          pipePosition += 1;
        } else endPipeline();
        i += 2;
        continue;
      }
      if (ch === '|') {
        endCommand();
        pipePosition += 1;
      } else {
        if (ch === '&') for (const c of pipelineCommands) c.background = true;
        endPipeline();
        if (ch === '(') openGroup(')');
        else if (ch === ')') closeGroup(')');
      }
      i += 1;
      continue;
    }
    // a word
    const word = readWord(text, i);
    i = word.end;
    if (word.functionName && (cur === undefined || cur.words.length === 0) && pendingRedirect === undefined) {
      // `name()`: a definition; its body (the next `{ … }` or `( … )`) runs only when called
      expectFunctionName = false;
      pendingFunction = word.text;
      endPipeline();
      continue;
    }
    parseSubstitutions(word.substitutions);
    if (word.ifsSplit.length > 1) {
      for (const part of word.ifsSplit) if (part !== '') pushWord(part, word.quoted);
    } else pushWord(word.text, word.quoted);
  }
  endCommand();
  state.pipeline += 1;
};

const isAssignment = (word: string): boolean => /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/.test(word);

/** `a{b,c}d` (one brace pair holding a comma, no other brace): its parts, as bash expands them. */
const braceList = (word: string): { before: string; parts: string[]; after: string } | undefined => {
  const open = word.indexOf('{');
  if (open < 0) return undefined;
  const close = word.indexOf('}', open + 1);
  if (close < 0 || word.indexOf('{', open + 1) >= 0 || word.indexOf('}', close + 1) >= 0 || word.lastIndexOf('}', open) >= 0) return undefined;
  const inner = word.slice(open + 1, close);
  if (!inner.includes(',')) return undefined;
  return { before: word.slice(0, open), parts: inner.split(','), after: word.slice(close + 1) };
};

interface Word {
  readonly text: string;
  readonly quoted: boolean;
  /** Texts of the substitutions inside the word, to be parsed as commands. */
  readonly substitutions: string[];
  /** The word split at unquoted `$IFS` / `${IFS}` (one element when there is none). */
  readonly ifsSplit: string[];
  readonly end: number;
  /** Whether the word was followed by `()`: the name of a function being defined. */
  readonly functionName: boolean;
}

/** Reads one word from `i`: quotes removed, substitutions collected (their text replaced by `$(…)`). */
const readWord = (text: string, start: number): Word => {
  let i = start;
  const n = text.length;
  let buf = '';
  let quoted = false;
  const substitutions: string[] = [];
  const ifsSplit: string[] = [];
  let segmentStart = 0;
  let functionName = false;

  while (i < n) {
    const ch = text[i] as string;
    if (isSpace(ch) || ch === '\n') break;
    if ((ch === '<' || ch === '>') && text[i + 1] === '(') {
      const { inner, end } = balanced(text, i + 2);
      substitutions.push(inner);
      buf += SUBSTITUTED;
      i = end;
      continue;
    }
    if (ch === '$' && text.startsWith('((', i + 1)) {
      // arithmetic expansion: kept as written, not a command
      const { end } = balanced(text, i + 2);
      buf += text.slice(i, end);
      i = end;
      continue;
    }
    if (isOpChar(ch)) {
      // `name()` of a function definition: the word is the name
      if (ch === '(' && buf !== '') {
        let j = i + 1;
        while (isSpace(text[j])) j += 1;
        if (text[j] === ')') {
          i = j + 1;
          functionName = true;
          break;
        }
      }
      break;
    }
    if (ch === '<' || ch === '>') break;
    if (ch === '\\') {
      if (i + 1 < n) buf += text[i + 1];
      quoted = true;
      i += 2;
      continue;
    }
    if (ch === "'") {
      const end = text.indexOf("'", i + 1);
      buf += text.slice(i + 1, end < 0 ? n : end);
      quoted = true;
      i = end < 0 ? n : end + 1;
      continue;
    }
    if (ch === '$' && text[i + 1] === "'") {
      const { value, end } = ansiC(text, i + 2);
      buf += value;
      quoted = true;
      i = end;
      continue;
    }
    if (ch === '"') {
      quoted = true;
      i += 1;
      while (i < n && text[i] !== '"') {
        const c = text[i] as string;
        if (c === '\\' && i + 1 < n && '$`"\\\n'.includes(text[i + 1] as string)) {
          if (text[i + 1] !== '\n') buf += text[i + 1];
          i += 2;
          continue;
        }
        if (c === '$' && text[i + 1] === '(' && text[i + 2] !== '(') {
          const { inner, end } = balanced(text, i + 2);
          substitutions.push(inner);
          buf += SUBSTITUTED;
          i = end;
          continue;
        }
        if (c === '`') {
          const end = closingBackquote(text, i + 1);
          substitutions.push(text.slice(i + 1, end));
          buf += SUBSTITUTED;
          i = Math.min(n, end + 1);
          continue;
        }
        buf += c;
        i += 1;
      }
      i += 1;
      continue;
    }
    if (ch === '$' && text[i + 1] === '(' && text[i + 2] !== '(') {
      const { inner, end } = balanced(text, i + 2);
      substitutions.push(inner);
      buf += SUBSTITUTED;
      i = end;
      continue;
    }
    if (ch === '`') {
      const end = closingBackquote(text, i + 1);
      substitutions.push(text.slice(i + 1, end));
      buf += SUBSTITUTED;
      i = Math.min(n, end + 1);
      continue;
    }
    if (ch === '$' && (text.startsWith('$IFS', i) || text.startsWith('${IFS}', i))) {
      const len = text.startsWith('${IFS}', i) ? 6 : 4;
      if (len === 6 || !/[A-Za-z0-9_]/.test(text[i + 4] ?? '')) {
        ifsSplit.push(buf.slice(segmentStart));
        segmentStart = buf.length;
        i += len;
        continue;
      }
    }
    if (ch === '$' && text[i + 1] === '{') {
      const end = text.indexOf('}', i + 2);
      buf += text.slice(i, end < 0 ? n : end + 1);
      i = end < 0 ? n : end + 1;
      continue;
    }
    buf += ch;
    i += 1;
  }
  if (ifsSplit.length > 0) ifsSplit.push(buf.slice(segmentStart));
  return { text: buf, quoted, substitutions, ifsSplit: ifsSplit.length > 0 ? ifsSplit : [buf], end: i, functionName };
};

/** The text up to the `)` that closes a `(` opened just before `from`, skipping quotes and nested parentheses. */
const balanced = (text: string, from: number): { inner: string; end: number } => {
  let depth = 1;
  let i = from;
  const n = text.length;
  while (i < n) {
    const c = text[i] as string;
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (c === "'") {
      const e = text.indexOf("'", i + 1);
      i = e < 0 ? n : e + 1;
      continue;
    }
    if (c === '"') {
      i += 1;
      while (i < n && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      i += 1;
      continue;
    }
    if (c === '(') depth += 1;
    if (c === ')') {
      depth -= 1;
      if (depth === 0) return { inner: text.slice(from, i), end: i + 1 };
    }
    i += 1;
  }
  return { inner: text.slice(from), end: n };
};

const closingBackquote = (text: string, from: number): number => {
  let i = from;
  while (i < text.length) {
    if (text[i] === '\\') {
      i += 2;
      continue;
    }
    if (text[i] === '`') return i;
    i += 1;
  }
  return text.length;
};

const ANSI_ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/** Reads `$'…'` from just after the opening quote, decoding bash's escapes. */
const ansiC = (text: string, from: number): { value: string; end: number } => {
  let i = from;
  let value = '';
  while (i < text.length && text[i] !== "'") {
    const c = text[i] as string;
    if (c !== '\\') {
      value += c;
      i += 1;
      continue;
    }
    const e = text[i + 1] ?? '';
    const simple = ANSI_ESCAPES[e];
    if (simple !== undefined) {
      value += simple;
      i += 2;
      continue;
    }
    const hex = /^x([0-9A-Fa-f]{1,2})/.exec(text.slice(i + 1, i + 4));
    if (hex !== null) {
      value += String.fromCharCode(parseInt(hex[1] as string, 16));
      i += 1 + hex[0].length;
      continue;
    }
    const uni = /^[uU]([0-9A-Fa-f]{1,8})/.exec(text.slice(i + 1, i + 11));
    if (uni !== null) {
      const cp = parseInt(uni[1] as string, 16);
      value += cp <= 0x10ffff ? String.fromCodePoint(cp) : '';
      i += 1 + uni[0].length;
      continue;
    }
    const oct = /^[0-7]{1,3}/.exec(text.slice(i + 1, i + 4));
    if (oct !== null) {
      value += String.fromCharCode(parseInt(oct[0], 8) & 0xff);
      i += 1 + oct[0].length;
      continue;
    }
    value += `\\${e}`;
    i += 2;
  }
  return { value, end: Math.min(text.length, i + 1) };
};
