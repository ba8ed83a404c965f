/**
 * The formatter: a `GramDocument` as canonical gram text.
 *
 * Canonical layout: one top-level pattern per line (blank lines between them kept, at most one);
 * a construct stays on one line when it fits in the width, else it breaks: records, maps and
 * arrays put one entry per line, subject patterns one element per line after `subject |`, paths
 * one relationship per line, annotations one per line above their pattern. Spacing is fixed
 * (`(a:Person {name: "x", age: 42})-[:KNOWS]->(b)`, `key :: value` for `::`); what the user chose
 * is kept: quoting styles, number spelling, arrow kinds, label separators, key styles.
 *
 * Every comment is kept. Comments sit between the entries of a document, record, map, array,
 * element list, annotation list or path; a comment written elsewhere (inside an arrow, between a
 * key and its value) moves before the nearest entry that contains it. Formatting is idempotent.
 */
import type {
  AnnotatedPattern,
  Arrow,
  Comment,
  GramDocument,
  Identifier,
  Label,
  NodePattern,
  PathPattern,
  Property,
  RecordNode,
  Subject,
  SubjectPattern,
  SubjectPatternElement,
  TopLevelPattern,
  Value,
} from './ast.js';
import { type Doc, group, hardline, ifBreak, indent, line, render, softline } from './doc.js';
import { upperBound } from '../core/sorted.js';
import type { Span } from '../core/span.js';
import { isFenceable, isSymbol, nameText, quote } from './strings.js';
import { hasSubject, isBareIdentity, subjectSpan } from './subject.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface GramFormatOptions {
  /** Line width the layout aims for (default 80). */
  readonly width?: number;
  /** Spaces per indentation level (default 2). */
  readonly indent?: number;
}

/** A printed child and the comments it could not place (they go before it). */
interface Printed {
  readonly doc: Doc;
  readonly hoisted: ReadonlyArray<Comment>;
}

/** Comments of one list, sorted out per item. */
interface Distribution {
  readonly leading: Comment[][];
  readonly inner: Comment[][];
  readonly trailing: Comment[][];
  readonly dangling: Comment[];
}

// -------------------------------------------------------------------------------------------------
// utilities: comments
// -------------------------------------------------------------------------------------------------

const NONE: ReadonlyArray<Comment> = Object.freeze([]);

const commentDoc = (c: Comment): string => `//${c.text.trimEnd()}`;

/** Splits `comments` (sorted) among `items`: before, inside or just after (same line) each one. */
const distribute = (items: ReadonlyArray<Span>, comments: ReadonlyArray<Comment>): Distribution => {
  const n = items.length;
  const d: Distribution = {
    leading: items.map(() => []),
    inner: items.map(() => []),
    trailing: items.map(() => []),
    dangling: [],
  };
  let j = 0;
  for (let i = 0; i < n; i++) {
    const it = items[i] as Span;
    while (j < comments.length && (comments[j] as Comment).start < it.start) {
      const c = comments[j++] as Comment;
      // one end-of-line comment per entry: a second one would join the first on its line
      if (c.endOfLine === true && i > 0 && (d.leading[i] as Comment[]).length === 0 && (d.trailing[i - 1] as Comment[]).length === 0) {
        (d.trailing[i - 1] as Comment[]).push(c);
      } else {
        (d.leading[i] as Comment[]).push(c);
      }
    }
    while (j < comments.length && (comments[j] as Comment).start < it.end) (d.inner[i] as Comment[]).push(comments[j++] as Comment);
  }
  while (j < comments.length) {
    const c = comments[j++] as Comment;
    if (c.endOfLine === true && n > 0 && d.dangling.length === 0 && (d.trailing[n - 1] as Comment[]).length === 0) {
      (d.trailing[n - 1] as Comment[]).push(c);
    } else {
      d.dangling.push(c);
    }
  }
  return d;
};

const inside = (comments: ReadonlyArray<Comment>, s: Span | undefined): [Comment[], Comment[]] => {
  const inner: Comment[] = [];
  const outer: Comment[] = [];
  for (const c of comments) (s !== undefined && c.start >= s.start && c.start < s.end ? inner : outer).push(c);
  return [inner, outer];
};

/** An element that names something: `a` in `[p | a]`, or a bare `(a)`. */
const isName = (e: SubjectPatternElement): boolean => e.kind === 'Reference' || (e.kind === 'Node' && isBareIdentity(e));

/** A property with a scalar value, or a scalar value (not an array or a map). */
const isScalarEntry = (x: Span): boolean => {
  const o = x as { readonly kind?: string; readonly value?: { readonly kind: string } };
  if (o.kind === 'Property') return o.value !== undefined && SCALAR_KINDS.has(o.value.kind);
  return o.kind !== undefined && SCALAR_KINDS.has(o.kind);
};

const SCALAR_KINDS: ReadonlySet<string> = new Set([
  'String',
  'TaggedString',
  'Range',
  'Boolean',
  'Symbol',
  'Integer',
  'Decimal',
  'Hexadecimal',
  'Octal',
  'Measurement',
]);

const hasAny = (d: Distribution): boolean => d.dangling.length > 0 || d.leading.some((x) => x.length > 0) || d.trailing.some((x) => x.length > 0);

// -------------------------------------------------------------------------------------------------
// utilities: names and values
// -------------------------------------------------------------------------------------------------

const identifierText = (i: Identifier): string => (i.style === 'integer' ? i.value : i.style === 'symbol' && isSymbol(i.value) ? i.value : quote(i.value, '`'));

const labelText = (l: Label): string => `${l.separator}${l.style === 'symbol' ? nameText(l.name) : quote(l.name, '`')}`;

const keyText = (p: Property): string =>
  p.keyStyle === 'double' ? quote(p.key, '"') : p.keyStyle === 'backtick' || !isSymbol(p.key) ? quote(p.key, '`') : p.key;

const numberText = (v: { readonly raw: string }): string => v.raw;

/** A scalar value's text (arrays and maps are containers, printed with their comments). */
const scalarText = (v: Value): string => {
  switch (v.kind) {
    case 'String':
      if (v.style === 'fenced' && isFenceable(v.value)) return `\`\`\`\n${v.value}\`\`\``;
      return quote(v.value, v.style === 'single' ? "'" : v.style === 'backtick' ? '`' : '"');
    case 'TaggedString':
      if (v.style === 'fenced' && isFenceable(v.content)) return `\`\`\`${v.tag}\n${v.content}\`\`\``;
      return `${v.tag}${quote(v.content, '`')}`;
    case 'Range':
      return v.form === 'closed'
        ? `${numberText(v.lower ?? { raw: '' })}..${numberText(v.upper ?? { raw: '' })}`
        : v.form === 'from'
          ? `${numberText(v.lower ?? { raw: '' })}...`
          : `...${numberText(v.upper ?? { raw: '' })}`;
    case 'Boolean':
      return v.value ? 'true' : 'false';
    case 'Symbol':
      return v.name;
    case 'Integer':
    case 'Decimal':
    case 'Hexadecimal':
    case 'Octal':
    case 'Measurement':
      return numberText(v);
    default:
      return '';
  }
};

// -------------------------------------------------------------------------------------------------
// the printer
// -------------------------------------------------------------------------------------------------

class Printer {
  constructor(private readonly blankLines: ReadonlyArray<number>) {}

  /** Whether the source had a blank line between offsets `from` and `to`. */
  private blankBetween(from: number, to: number): boolean {
    const b = this.blankLines;
    const i = upperBound(b, from);
    return i < b.length && (b[i] as number) < to;
  }

  /**
   * A bracketed list: `open` entries `close`, on one line when it fits and has no comments, else one
   * entry per line. `firstBreak` separates `open` from the first entry.
   */
  private list<T extends Span>(
    open: Doc,
    close: string,
    items: ReadonlyArray<T>,
    print: (item: T, inner: ReadonlyArray<Comment>) => Printed,
    comments: ReadonlyArray<Comment>,
    firstBreak: Doc = softline,
    grouped = true,
  ): Doc {
    if (items.length === 0 && comments.length === 0) return [open, close];
    // one scalar entry stays on the line of its brackets: breaking would not make it shorter
    if (items.length === 1 && comments.length === 0 && isScalarEntry(items[0] as T)) {
      const p = print(items[0] as T, NONE);
      if (p.hoisted.length === 0) return [open, p.doc, close];
    }
    const d = distribute(items, comments);
    let force = hasAny(d);
    const body: Doc[] = [];
    items.forEach((it, i) => {
      const p = print(it, d.inner[i] as Comment[]);
      const leading = [...(d.leading[i] as Comment[]), ...p.hoisted];
      if (p.hoisted.length > 0) force = true;
      const prev = items[i - 1];
      if (prev !== undefined && this.blankBetween(prev.end, (leading[0] ?? it).start)) body.push(softline);
      body.push(i === 0 ? firstBreak : line);
      for (const c of leading) body.push(commentDoc(c), hardline);
      body.push(p.doc);
      if (i < items.length - 1) body.push(',');
      for (const c of d.trailing[i] as Comment[]) body.push(' ', commentDoc(c));
    });
    d.dangling.forEach((c, i) => body.push(items.length === 0 && i === 0 ? firstBreak : line, commentDoc(c)));
    // ungrouped: the caller's group decides, and a forced break is a hard line
    return grouped ? group([open, indent(body), softline, close], force) : [open, indent(body), softline, close, force ? group('', true) : ''];
  }

  // ---------------------------------------------------------------------------------------------
  // values, records
  // ---------------------------------------------------------------------------------------------

  value = (v: Value, comments: ReadonlyArray<Comment>): Printed => {
    if (v.kind === 'Array') return { doc: this.list('[', ']', v.items, this.value, comments), hoisted: NONE };
    if (v.kind === 'Map') return { doc: this.list('{', '}', v.entries, this.property, comments), hoisted: NONE };
    return { doc: scalarText(v), hoisted: comments };
  };

  property = (p: Property, comments: ReadonlyArray<Comment>): Printed => {
    const [inner, outer] = inside(comments, p.value.kind === 'Array' || p.value.kind === 'Map' ? p.value : undefined);
    const v = this.value(p.value, inner);
    return { doc: [keyText(p), p.separator === '::' ? ' :: ' : ': ', v.doc], hoisted: [...outer, ...v.hoisted] };
  };

  record = (r: RecordNode, comments: ReadonlyArray<Comment>): Printed => ({
    doc: this.list('{', '}', r.properties, this.property, comments),
    hoisted: NONE,
  });

  private subject(s: Subject, comments: ReadonlyArray<Comment>): Printed {
    const [inner, outer] = inside(comments, s.record);
    const head = `${s.identifier !== undefined ? identifierText(s.identifier) : ''}${s.labels.map(labelText).join('')}`;
    if (s.record === undefined) return { doc: head, hoisted: outer };
    const r = this.record(s.record, inner);
    return { doc: [head, head === '' ? '' : ' ', r.doc], hoisted: [...outer, ...r.hoisted] };
  }

  // ---------------------------------------------------------------------------------------------
  // patterns
  // ---------------------------------------------------------------------------------------------

  node = (n: NodePattern, comments: ReadonlyArray<Comment>): Printed => {
    const s = this.subject(n, comments);
    return { doc: ['(', s.doc, ')'], hoisted: s.hoisted };
  };

  private arrow(a: Arrow, comments: ReadonlyArray<Comment>): Printed {
    const left = `${a.direction === 'left' || a.direction === 'bidirectional' ? '<' : ''}${a.family}`;
    const right = `${a.family}${a.direction === 'right' || a.direction === 'bidirectional' ? '>' : ''}`;
    if (!a.bracketed && !hasSubject(a)) return { doc: `${left}${right}`, hoisted: comments };
    const s = this.subject(a, comments);
    return { doc: [left, '[', s.doc, ']', right], hoisted: s.hoisted };
  }

  /**
   * A path: on one line when it fits (`(a)==>(b)`), else one node per line with the arrow ending
   * the line before the next node (`(a) ==>`, then `(b)`). Inside a subject pattern (a type
   * signature) every node sits at the element's indentation; a top-level path indents the nodes
   * after the first, so it reads as one statement.
   */
  path = (p: PathPattern, comments: ReadonlyArray<Comment>, nested = false): Printed => {
    if (p.kind === 'Node') return this.node(p, comments);
    const seq: Array<NodePattern | Arrow> = [];
    p.nodes.forEach((n, i) => {
      seq.push(n);
      const a = p.arrows[i];
      if (a !== undefined) seq.push(a);
    });
    const d = distribute(seq, comments);
    let force = d.trailing.some((x) => x.length > 0) || d.leading.slice(1).some((x) => x.length > 0);
    const outward: Comment[] = [];
    const first: Doc[] = [];
    const rest: Doc[] = [];
    let target = first;
    let broken = true;
    seq.forEach((x, i) => {
      const pr = x.kind === 'Node' ? this.node(x, d.inner[i] as Comment[]) : this.arrow(x, d.inner[i] as Comment[]);
      const leading = [...(d.leading[i] as Comment[]), ...pr.hoisted];
      // comments before the first node would sit before the whole path once printed: move them out
      if (i === 0) {
        outward.push(...leading);
        leading.length = 0;
      }
      if (x.kind === 'Arrow') {
        target = rest;
        if (leading.length === 0) target.push(ifBreak(' '));
      }
      for (const c of leading) {
        if (!broken) target.push(hardline);
        target.push(commentDoc(c), hardline);
        broken = true;
        force = true;
      }
      target.push(pr.doc);
      broken = false;
      for (const c of d.trailing[i] as Comment[]) target.push(' ', commentDoc(c));
      if (x.kind === 'Arrow') {
        target.push((d.trailing[i] as Comment[]).length > 0 ? hardline : softline);
        broken = true;
      } else if ((d.trailing[i] as Comment[]).length > 0 && i < seq.length - 1) {
        // a comment after a node ends its line: the arrow goes on the next one
        target.push(hardline);
        broken = true;
      }
    });
    return { doc: group(nested ? [first, rest] : [first, indent(rest)], force), hoisted: [...outward, ...d.dangling] };
  };

  subjectPattern = (p: SubjectPattern, comments: ReadonlyArray<Comment>): Printed => {
    const span = subjectSpan(p);
    const [inSubject, others] = inside(comments, span);
    const s = this.subject(p, inSubject);
    // comments before the subject move before the pattern; the others stay between its entries
    const subjectStart = span?.start ?? p.start;
    const before = others.filter((c) => c.start < subjectStart);
    const within = others.filter((c) => c.start >= subjectStart);
    const hoisted = [...before, ...s.hoisted];
    if (p.elements.length === 0) {
      return { doc: within.length === 0 ? ['[', s.doc, ']'] : this.list(['[', s.doc], ']', [], this.element, within), hoisted };
    }
    const head: Doc = span === undefined ? '[ |' : ['[', s.doc, ' |'];
    const names = p.elements.every(isName);
    const elements = this.list('', ']', p.elements, this.element, within, line, names);
    // a list of names breaks apart from the subject: `[team:Team {…} | a, b]` keeps a short list on
    // the line of a long, broken subject. Other elements (a tool's signature) go on their own lines
    // whenever the pattern does not fit on one: `[name:Tool {…} |`, the signature, `]`.
    if (names) return { doc: [head, elements], hoisted };
    return { doc: group([head, elements]), hoisted };
  };

  element = (e: SubjectPatternElement, comments: ReadonlyArray<Comment>): Printed => {
    if (e.kind === 'Reference') return { doc: identifierText(e.identifier), hoisted: comments };
    if (e.kind === 'SubjectPattern') return this.subjectPattern(e, comments);
    return this.path(e, comments, true);
  };

  private annotated(p: AnnotatedPattern, comments: ReadonlyArray<Comment>): Printed {
    type Item = Span & { readonly print: (inner: ReadonlyArray<Comment>) => Printed };
    const items: Item[] = [];
    const id = p.identified;
    if (id !== undefined) {
      items.push({
        start: id.start,
        end: id.end,
        print: (inner) => ({
          doc: `@@${id.identifier !== undefined ? identifierText(id.identifier) : ''}${id.labels.map(labelText).join('')}`,
          hoisted: inner,
        }),
      });
    }
    for (const a of p.annotations) {
      items.push({
        start: a.start,
        end: a.end,
        print: (inner) => {
          const [inValue, outer] = inside(inner, a.value.kind === 'Array' || a.value.kind === 'Map' ? a.value : undefined);
          const v = this.value(a.value, inValue);
          return { doc: [`@${a.key}(`, v.doc, ')'], hoisted: [...outer, ...v.hoisted] };
        },
      });
    }
    const target = p.target;
    items.push({
      start: target.start,
      end: target.end,
      print: (inner) => (target.kind === 'SubjectPattern' ? this.subjectPattern(target, inner) : this.path(target, inner)),
    });
    const d = distribute(items, comments);
    let force = d.trailing.some((x) => x.length > 0) || d.leading.slice(1).some((x) => x.length > 0);
    const outward: Comment[] = [];
    const body: Doc[] = [];
    items.forEach((it, i) => {
      const pr = it.print(d.inner[i] as Comment[]);
      const leading = [...(d.leading[i] as Comment[]), ...pr.hoisted];
      if (i === 0) {
        // before the first annotation is before the whole pattern
        outward.push(...leading);
        leading.length = 0;
      }
      if (i > 0) body.push(line);
      for (const c of leading) body.push(commentDoc(c), hardline);
      body.push(pr.doc);
      for (const c of d.trailing[i] as Comment[]) body.push(' ', commentDoc(c));
      if (leading.length > 0) force = true;
    });
    return { doc: group(body, force), hoisted: [...outward, ...d.dangling] };
  }

  topLevel = (p: TopLevelPattern, comments: ReadonlyArray<Comment>): Printed => {
    switch (p.kind) {
      case 'Annotated':
        return this.annotated(p, comments);
      case 'SubjectPattern':
        return this.subjectPattern(p, comments);
      default:
        return this.path(p, comments);
    }
  };

  // ---------------------------------------------------------------------------------------------
  // the document
  // ---------------------------------------------------------------------------------------------

  document(doc: GramDocument): Doc {
    type Item = Span & { readonly print: (inner: ReadonlyArray<Comment>) => Printed };
    const items: Item[] = [];
    const header = doc.header;
    if (header !== undefined) items.push({ start: header.start, end: header.end, print: (inner) => this.record(header, inner) });
    for (const p of doc.patterns) items.push({ start: p.start, end: p.end, print: (inner) => this.topLevel(p, inner) });
    const comments = [...doc.comments].sort((a, b) => a.start - b.start);
    const d = distribute(items, comments);
    const out: Doc[] = [];
    let prevEnd: number | undefined;
    const entry = (start: number, end: number, content: Doc): void => {
      if (prevEnd !== undefined) {
        out.push(hardline);
        if (this.blankBetween(prevEnd, start)) out.push(hardline);
      }
      out.push(content);
      prevEnd = end;
    };
    items.forEach((it, i) => {
      const pr = it.print(d.inner[i] as Comment[]);
      for (const c of [...(d.leading[i] as Comment[]), ...pr.hoisted].sort((a, b) => a.start - b.start)) {
        entry(c.start, c.end, commentDoc(c));
      }
      const trailing = d.trailing[i] as Comment[];
      const last = trailing[trailing.length - 1];
      entry(it.start, last?.end ?? it.end, [pr.doc, ...trailing.map((c) => [' ', commentDoc(c)])]);
    });
    for (const c of d.dangling) entry(c.start, c.end, commentDoc(c));
    return out;
  }
}

// -------------------------------------------------------------------------------------------------
// formatting
// -------------------------------------------------------------------------------------------------

/** The document as canonical gram text (ends with a line break unless empty). */
export const formatGram = (document: GramDocument, options: GramFormatOptions = {}): string => {
  const printer = new Printer(document.blankLines ?? []);
  const text = render(printer.document(document), options.width ?? 80, options.indent ?? 2);
  return text === '' ? '' : `${text}\n`;
};
