/**
 * A small pretty-printing document language (Wadler's "prettier printer", as Prettier implements
 * it): text, line breaks that become spaces when their group fits on one line, indentation and
 * groups. The formatter builds a `Doc` from the AST and `render` lays it out within a width.
 *
 * A hard line (after a `//` comment, inside a fenced string) forces every enclosing group to break.
 * Rendering is iterative, so deep documents do not grow the call stack.
 */

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export type Doc = string | ReadonlyArray<Doc> | Group | Indent | Line | IfBreak;

/** `broken` when the enclosing group breaks, else `flat` (a space before an arrow that ends a line). */
export interface IfBreak {
  readonly t: 'ifbreak';
  readonly broken: Doc;
  readonly flat: Doc;
}

export interface Group {
  readonly t: 'group';
  readonly contents: Doc;
  /** True when the group must break (it contains a hard line). */
  readonly broken: boolean;
}

export interface Indent {
  readonly t: 'indent';
  readonly contents: Doc;
}

/** A space (`line`) or nothing (`softline`) when flat, a new line when broken; `hard` always breaks. */
export interface Line {
  readonly t: 'line';
  readonly soft: boolean;
  readonly hard: boolean;
}

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

export const line: Line = { t: 'line', soft: false, hard: false };
export const softline: Line = { t: 'line', soft: true, hard: false };
export const hardline: Line = { t: 'line', soft: false, hard: true };

/** Whether `d` holds a hard line outside nested groups (nested ones carry their own flag). */
const hasHard = (d: Doc): boolean => {
  const stack: Doc[] = [d];
  while (stack.length > 0) {
    const x = stack.pop() as Doc;
    if (typeof x === 'string') {
      if (x.includes('\n')) return true;
    } else if (Array.isArray(x)) {
      for (const y of x as ReadonlyArray<Doc>) stack.push(y);
    } else {
      const o = x as Group | Indent | Line | IfBreak;
      if (o.t === 'line') {
        if (o.hard) return true;
      } else if (o.t === 'group') {
        if (o.broken) return true;
      } else if (o.t === 'ifbreak') {
        stack.push(o.flat);
      } else stack.push(o.contents);
    }
  }
  return false;
};

export const group = (contents: Doc, forceBreak = false): Group => ({ t: 'group', contents, broken: forceBreak || hasHard(contents) });

export const indent = (contents: Doc): Indent => ({ t: 'indent', contents });

export const ifBreak = (broken: Doc, flat: Doc = ''): IfBreak => ({ t: 'ifbreak', broken, flat });

/** `items` separated by `sep`. */
export const join = (sep: Doc, items: ReadonlyArray<Doc>): Doc[] => {
  const out: Doc[] = [];
  items.forEach((it, i) => {
    if (i > 0) out.push(sep);
    out.push(it);
  });
  return out;
};

// -------------------------------------------------------------------------------------------------
// rendering
// -------------------------------------------------------------------------------------------------

const FLAT = 0;
const BREAK = 1;
type Mode = typeof FLAT | typeof BREAK;
type Command = readonly [indent: number, mode: Mode, doc: Doc];

/** Whether `next` fits in `width` columns, followed by `rest` up to its first line break. */
const fits = (next: Command, rest: ReadonlyArray<Command>, width: number): boolean => {
  let remaining = width;
  let restIdx = rest.length;
  const cmds: Command[] = [next];
  while (remaining >= 0) {
    if (cmds.length === 0) {
      if (restIdx === 0) return true;
      cmds.push(rest[--restIdx] as Command);
      continue;
    }
    const [ind, mode, d] = cmds.pop() as Command;
    if (typeof d === 'string') {
      const nl = d.indexOf('\n');
      if (nl >= 0) return remaining - nl >= 0;
      remaining -= d.length;
    } else if (Array.isArray(d)) {
      const a = d as ReadonlyArray<Doc>;
      for (let i = a.length - 1; i >= 0; i--) cmds.push([ind, mode, a[i] as Doc]);
    } else {
      const o = d as Group | Indent | Line | IfBreak;
      if (o.t === 'ifbreak') {
        cmds.push([ind, mode, mode === BREAK ? o.broken : o.flat]);
      } else if (o.t === 'line') {
        if (mode === BREAK || o.hard) return true;
        if (!o.soft) remaining -= 1;
      } else if (o.t === 'group') {
        // inside `next` everything is flat; in the rest, a group may still break at its lines
        cmds.push([ind, o.broken ? BREAK : mode, o.contents]);
      } else {
        cmds.push([ind, mode, o.contents]);
      }
    }
  }
  return false;
};

/** Lays `doc` out in `width` columns with `indentWidth` spaces per level. Lines carry no trailing spaces. */
export const render = (doc: Doc, width = 80, indentWidth = 2): string => {
  const out: string[] = [];
  let column = 0;
  const cmds: Command[] = [[0, BREAK, doc]];
  const trimTrailing = (): void => {
    while (out.length > 0) {
      const last = out[out.length - 1] as string;
      const trimmed = last.replace(/[ \t]+$/, '');
      if (trimmed === '') {
        out.pop();
        continue;
      }
      out[out.length - 1] = trimmed;
      break;
    }
  };
  while (cmds.length > 0) {
    const [ind, mode, d] = cmds.pop() as Command;
    if (typeof d === 'string') {
      out.push(d);
      const nl = d.lastIndexOf('\n');
      column = nl >= 0 ? d.length - nl - 1 : column + d.length;
    } else if (Array.isArray(d)) {
      const a = d as ReadonlyArray<Doc>;
      for (let i = a.length - 1; i >= 0; i--) cmds.push([ind, mode, a[i] as Doc]);
    } else {
      const o = d as Group | Indent | Line | IfBreak;
      if (o.t === 'ifbreak') {
        cmds.push([ind, mode, mode === BREAK ? o.broken : o.flat]);
      } else if (o.t === 'group') {
        const flat: Command = [ind, FLAT, o.contents];
        cmds.push(!o.broken && (mode === FLAT || fits(flat, cmds, width - column)) ? flat : [ind, BREAK, o.contents]);
      } else if (o.t === 'indent') {
        cmds.push([ind + indentWidth, mode, o.contents]);
      } else if (mode === FLAT && !o.hard) {
        if (!o.soft) {
          out.push(' ');
          column += 1;
        }
      } else {
        trimTrailing();
        out.push(`\n${' '.repeat(ind)}`);
        column = ind;
      }
    }
  }
  trimTrailing();
  return out.join('');
};
