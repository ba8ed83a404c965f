/**
 * The fast path of `parseGram`: a hand-written LL(1) recursive-descent parser for input without
 * errors, reading the scanner's tokens in place (no token objects, no chunks) and building the AST
 * with the constructors the Chevrotain parser uses (`build.ts`).
 *
 * It mirrors `parser.ts` decision by decision: each rule below takes the same alternative on the
 * same token, so a document it accepts gets the AST and the warnings the Chevrotain parser would
 * give it, in the same order. It decides nothing about errors: at the first token the grammar does
 * not accept, the first lexical diagnostic (including the nesting and pattern-size limits), or the
 * first check that would report an error (an arrow of two families, `::` in a map, a boolean used
 * as a tag) it gives up, and `parseGram` parses the text again with the Chevrotain parser, which
 * reports every error. Tests compare both paths on the corpus and on generated documents.
 */
import type { TokenType } from 'chevrotain';
import type {
  AnnotatedPattern, Arrow, IdentifiedAnnotation, Label, NodePattern, NumericValue, PathPattern, Property,
  PropertyAnnotation, RecordNode, Subject, SubjectPattern, SubjectPatternElement, TopLevelPattern, Value,
} from './ast.js';
import * as B from './build.js';
import type { Diagnostic } from '../core/diagnostic.js';
import { GramLexer } from './lexer.js';
import * as T from './tokens.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** What a successful fast parse found; the scanner holds the comments and blank lines. */
export interface FastParse {
  readonly header: RecordNode | undefined;
  readonly patterns: TopLevelPattern[];
  readonly warnings: Diagnostic[];
  readonly lexer: GramLexer;
}

// -------------------------------------------------------------------------------------------------
// constants
// -------------------------------------------------------------------------------------------------

const EOF = -1;

const I = {
  LParen: T.idx(T.LParen), RParen: T.idx(T.RParen), LBracket: T.idx(T.LBracket), RBracket: T.idx(T.RBracket),
  LBrace: T.idx(T.LBrace), RBrace: T.idx(T.RBrace), Comma: T.idx(T.Comma), Pipe: T.idx(T.Pipe),
  DoubleColon: T.idx(T.DoubleColon), At: T.idx(T.At), AtAt: T.idx(T.AtAt), DotDot: T.idx(T.DotDot), Ellipsis: T.idx(T.Ellipsis),
  Symbol: T.idx(T.SymbolToken), Backtick: T.idx(T.BacktickString), TaggedFenced: T.idx(T.TaggedFencedString),
};

// Token classes, as bits per token type index: the categories of `tokens.ts` and the FIRST sets
// of the rules that begin with a choice.
const IDENTIFIER = 1;
const LABEL_NAME = 2;
const KEY = 4;
const LABEL_SEP = 8;
const NUMBER = 16;
const STRING = 32;
const ARROW_LEFT = 64;
const ARROW_RIGHT = 128;
/** FIRST(subject): an identifier, a label separator or `{`. */
const SUBJECT = 256;
/** FIRST(value). */
const VALUE = 512;

const CLASS = (() => {
  const byCategory: ReadonlyArray<readonly [TokenType, number]> = [
    [T.IdentifierCat, IDENTIFIER], [T.LabelNameCat, LABEL_NAME], [T.KeyCat, KEY], [T.LabelSepCat, LABEL_SEP],
    [T.NumberCat, NUMBER], [T.StringCat, STRING], [T.ArrowLeftCat, ARROW_LEFT], [T.ArrowRightCat, ARROW_RIGHT],
  ];
  const size = Math.max(...T.allTokens.map(T.idx)) + 1;
  const table = new Uint16Array(size);
  for (const t of T.allTokens) {
    let bits = 0;
    for (const [cat, bit] of byCategory) if (t === cat || (t.CATEGORIES ?? []).includes(cat)) bits |= bit;
    if ((bits & (IDENTIFIER | LABEL_SEP)) !== 0 || t === T.LBrace) bits |= SUBJECT;
    const valueStart = [T.Ellipsis, T.SymbolToken, T.TaggedFencedString, T.LBracket, T.LBrace].includes(t);
    if ((bits & (NUMBER | STRING)) !== 0 || valueStart) bits |= VALUE;
    table[T.idx(t)] = bits;
  }
  return table;
})();

/** Thrown to leave the fast path; caught by `fastParse`. */
const GIVE_UP: unique symbol = Symbol('gram fast path: give up');

// -------------------------------------------------------------------------------------------------
// the parser
// -------------------------------------------------------------------------------------------------

class FastParser {
  /** The current token: type index (EOF at the end), offsets, image (names, numbers), payload (strings). */
  private t = EOF;
  private start = 0;
  private end = 0;
  private image = '';
  private payload: string | undefined = undefined;
  readonly warnings: Diagnostic[] = [];
  /**
   * Items of the lists being parsed (properties, elements, annotations, array items), taken out at
   * their exact size when a list ends: no growing array per list becomes garbage.
   */
  private readonly stack: unknown[] = [];
  /** Items on `stack` (its length is never lowered: setting an array's length is slow). */
  private top = 0;

  constructor(private readonly lx: GramLexer, private readonly src: string) {}

  private next(): void {
    const lx = this.lx;
    const i = lx.advance();
    if (lx.diagnostics.length !== 0) throw GIVE_UP;
    this.t = i;
    this.start = lx.start;
    this.end = lx.end;
    this.image = lx.image ?? '';
    this.payload = lx.payload;
  }

  private push(item: unknown): void {
    this.stack[this.top++] = item;
  }

  /** The items pushed since `base`, as an array of their own; the stack is back at `base`. */
  private take<A>(base: number): A[] {
    const stack = this.stack;
    const top = this.top;
    this.top = base;
    const n = top - base;
    if (n === 1) return [stack[base]] as A[];
    if (n === 2) return [stack[base], stack[base + 1]] as A[];
    return stack.slice(base, top) as A[];
  }

  private is(bits: number): boolean {
    return this.t >= 0 && ((CLASS[this.t] as number) & bits) !== 0;
  }

  /** Consumes a token of type `i`; returns its end offset. */
  private expect(i: number): number {
    if (this.t !== i) throw GIVE_UP;
    const end = this.end;
    this.next();
    return end;
  }

  // ---------------------------------------------------------------------------------------------
  // document
  // ---------------------------------------------------------------------------------------------

  document(): { header: RecordNode | undefined; patterns: TopLevelPattern[] } {
    this.next();
    const header = this.t === I.LBrace ? this.record(false) : undefined;
    const patterns: TopLevelPattern[] = [];
    for (;;) {
      const t = this.t;
      if (t === I.LParen) patterns.push(this.path());
      else if (t === I.LBracket) patterns.push(this.subjectPattern());
      else if (t === I.At || t === I.AtAt) patterns.push(this.annotated());
      else if (t === EOF) break;
      else throw GIVE_UP;
    }
    return { header, patterns };
  }

  // ---------------------------------------------------------------------------------------------
  // annotations
  // ---------------------------------------------------------------------------------------------

  private annotated(): AnnotatedPattern {
    let identified: IdentifiedAnnotation | undefined;
    const base = this.top;
    if (this.t === I.AtAt) identified = this.identifiedAnnotation();
    else this.push(this.propertyAnnotation());
    while (this.t === I.At) this.push(this.propertyAnnotation());
    const annotations = this.take<PropertyAnnotation>(base);
    let target: SubjectPattern | PathPattern;
    if (this.t === I.LBracket) target = this.subjectPattern();
    else if (this.t === I.LParen) target = this.path();
    else throw GIVE_UP;
    return B.annotated(identified, annotations, target, this.warnings);
  }

  /** `@@id`, `@@:Label`, `@@id:Label`. */
  private identifiedAnnotation(): IdentifiedAnnotation {
    const start = this.start;
    this.next();
    let id;
    if (this.is(IDENTIFIER)) {
      id = B.identifier(this.t, this.image, this.payload, this.start, this.end);
      this.next();
    } else if (!this.is(LABEL_SEP)) {
      throw GIVE_UP;
    }
    const labels = this.is(LABEL_SEP) ? this.labels() : [];
    const last = labels[labels.length - 1];
    return B.identifiedAnnotation(id, labels, start, last !== undefined ? last.span.end : (id?.span.end ?? start));
  }

  /** `@key(value)` */
  private propertyAnnotation(): PropertyAnnotation {
    const start = this.start;
    this.next();
    if (this.t !== I.Symbol) throw GIVE_UP;
    const key = this.image;
    this.next();
    this.expect(I.LParen);
    const value = this.value();
    const end = this.expect(I.RParen);
    return B.propertyAnnotation(key, value, start, end);
  }

  // ---------------------------------------------------------------------------------------------
  // subject patterns
  // ---------------------------------------------------------------------------------------------

  private subjectPattern(): SubjectPattern {
    const start = this.start;
    this.next();
    const subject = this.is(SUBJECT) ? this.subject() : undefined;
    const base = this.top;
    if (this.t === I.Pipe) {
      this.next();
      this.push(this.element());
      while (this.t === I.Comma) {
        this.next();
        this.push(this.element());
      }
    }
    const elements = this.take<SubjectPatternElement>(base);
    const end = this.expect(I.RBracket);
    return B.subjectPattern(subject, elements, start, end);
  }

  private element(): SubjectPatternElement {
    const t = this.t;
    if (t === I.LBracket) return this.subjectPattern();
    if (t === I.LParen) return this.path();
    if (!this.is(IDENTIFIER)) throw GIVE_UP;
    const id = B.identifier(t, this.image, this.payload, this.start, this.end);
    this.next();
    return B.reference(id);
  }

  // ---------------------------------------------------------------------------------------------
  // paths
  // ---------------------------------------------------------------------------------------------

  private path(): PathPattern {
    const first = this.node();
    if (!this.is(ARROW_LEFT)) return first;
    const a = this.arrow();
    if (this.t !== I.LParen) throw GIVE_UP;
    const n = this.node();
    if (!this.is(ARROW_LEFT)) return B.path([first, n], [a]);
    const nodes: NodePattern[] = [first, n];
    const arrows: Arrow[] = [a];
    do {
      arrows.push(this.arrow());
      if (this.t !== I.LParen) throw GIVE_UP;
      nodes.push(this.node());
    } while (this.is(ARROW_LEFT));
    return B.path(B.fit(nodes), B.fit(arrows));
  }

  private node(): NodePattern {
    const start = this.start;
    this.next();
    const subject = this.is(SUBJECT) ? this.subject() : undefined;
    const end = this.expect(I.RParen);
    return B.node(subject, start, end);
  }

  private arrow(): Arrow {
    const left = this.t;
    const start = this.start;
    this.next();
    let bracketed = false;
    let subject: Subject | undefined;
    if (this.t === I.LBracket) {
      this.next();
      if (this.is(SUBJECT)) subject = this.subject();
      this.expect(I.RBracket);
      bracketed = true;
    }
    if (!this.is(ARROW_RIGHT)) throw GIVE_UP;
    const right = this.t;
    if (B.familyOf(left) !== B.familyOf(right)) throw GIVE_UP;
    const end = this.end;
    this.next();
    return B.arrow(left, right, bracketed, subject, start, end);
  }

  // ---------------------------------------------------------------------------------------------
  // subjects
  // ---------------------------------------------------------------------------------------------

  /** A subject; the current token is in FIRST(subject). */
  private subject(): Subject {
    if (this.is(IDENTIFIER)) {
      const identifier = B.identifier(this.t, this.image, this.payload, this.start, this.end);
      this.next();
      const labels = this.is(LABEL_SEP) ? this.labels() : B.NO_LABELS;
      const record = this.t === I.LBrace ? this.record(false) : undefined;
      if (labels.length === 0 && record === undefined) return B.subject(identifier, labels, record, identifier.span);
      const end = record !== undefined ? record.span.end : (labels[labels.length - 1] as Label).span.end;
      return B.subject(identifier, labels, record, B.span(identifier.span.start, end));
    }
    if (this.is(LABEL_SEP)) {
      const labels = this.labels();
      const record = this.t === I.LBrace ? this.record(false) : undefined;
      const end = record !== undefined ? record.span.end : (labels[labels.length - 1] as Label).span.end;
      return B.subject(undefined, labels, record, B.span((labels[0] as Label).span.start, end));
    }
    const record = this.record(false);
    return B.subject(undefined, B.NO_LABELS, record, record.span);
  }

  /** One or more labels; the current token is a label separator. */
  private labels(): ReadonlyArray<Label> {
    const base = this.top;
    do this.push(this.label());
    while (this.is(LABEL_SEP));
    return this.take<Label>(base);
  }

  private label(): Label {
    const sep = this.t;
    const start = this.start;
    this.next();
    if (!this.is(LABEL_NAME)) throw GIVE_UP;
    const l = B.label(sep, this.t, this.image, this.payload, start, this.end);
    this.next();
    return l;
  }

  // ---------------------------------------------------------------------------------------------
  // records and maps
  // ---------------------------------------------------------------------------------------------

  /** `{k: v, ...}`: a record or, with `isMap`, the entries of a map value. */
  private record(isMap: boolean): RecordNode {
    const start = this.start;
    this.next();
    const base = this.top;
    if (this.is(KEY)) {
      this.push(this.property(isMap));
      while (this.t === I.Comma) {
        this.next();
        if (!this.is(KEY)) throw GIVE_UP;
        this.push(this.property(isMap));
      }
    }
    const properties = this.take<Property>(base);
    const end = this.expect(I.RBrace);
    return B.record(properties, start, end, this.warnings);
  }

  private property(isMap: boolean): Property {
    const k = B.key(this.t, this.image, this.payload, this.start, this.end);
    this.next();
    if (!this.is(LABEL_SEP)) throw GIVE_UP;
    const doubleColon = this.t === I.DoubleColon;
    if (isMap && doubleColon) throw GIVE_UP;
    this.next();
    const value = this.value();
    return B.property(k, doubleColon ? '::' : ':', value, value.span.end);
  }

  // ---------------------------------------------------------------------------------------------
  // values
  // ---------------------------------------------------------------------------------------------

  private value(): Value {
    const t = this.t;
    const start = this.start;
    const end = this.end;
    if (this.is(NUMBER)) {
      const raw = this.image;
      this.next();
      if (this.t === I.DotDot) {
        this.next();
        if (!this.is(NUMBER)) throw GIVE_UP;
        const u = this.t;
        const uRaw = this.image;
        const uStart = this.start;
        const uEnd = this.end;
        this.next();
        const lower = this.bound(t, raw, start, end);
        const upper = this.bound(u, uRaw, uStart, uEnd);
        return B.range('closed', lower, upper, start, uEnd);
      }
      if (this.t === I.Ellipsis) {
        const tailEnd = this.end;
        this.next();
        return B.range('from', this.bound(t, raw, start, end), undefined, start, tailEnd);
      }
      return B.numeric(t, raw, start, end, this.warnings);
    }
    if (this.is(STRING)) {
      const value = this.payload ?? '';
      this.next();
      return B.string(t, value, start, end);
    }
    if (t === I.Symbol) {
      const name = this.image;
      this.next();
      if (this.t === I.Backtick) {
        if (name === 'true' || name === 'false') throw GIVE_UP;
        const content = this.payload ?? '';
        const tagEnd = this.end;
        this.next();
        return B.taggedString('inline', name, content, start, tagEnd);
      }
      if (name === 'true' || name === 'false') return B.boolean(name === 'true', start, end);
      return B.symbol(name, start, end);
    }
    if (t === I.LBracket) {
      this.next();
      const base = this.top;
      if (this.is(VALUE)) {
        this.push(this.value());
        while (this.t === I.Comma) {
          this.next();
          this.push(this.value());
        }
      }
      const items = this.take<Value>(base);
      const close = this.expect(I.RBracket);
      return B.array(items, start, close);
    }
    if (t === I.LBrace) {
      const r = this.record(true);
      return B.map(r.properties, r.span);
    }
    if (t === I.Ellipsis) {
      this.next();
      if (!this.is(NUMBER)) throw GIVE_UP;
      const u = this.t;
      const uRaw = this.image;
      const uStart = this.start;
      const uEnd = this.end;
      this.next();
      return B.range('to', undefined, this.bound(u, uRaw, uStart, uEnd), start, uEnd);
    }
    if (t === I.TaggedFenced) {
      const content = this.payload ?? '';
      this.next();
      return B.taggedString('fenced', B.fenceTag(this.src.slice(start, end)), content, start, end);
    }
    throw GIVE_UP;
  }

  /** A range bound: a number whose unit, if any, is reported as dropped. */
  private bound(t: number, raw: string, start: number, end: number): NumericValue {
    const v = B.numeric(t, raw, start, end, this.warnings);
    B.rangeBound(v, this.warnings);
    return v;
  }
}

// -------------------------------------------------------------------------------------------------
// entry point
// -------------------------------------------------------------------------------------------------

/**
 * Parses `text` when it has no error, as the Chevrotain parser would; undefined as soon as
 * anything is wrong (the caller then parses with the Chevrotain parser to report it). Any other
 * failure (a stack overflow with an unusual `maxDepth`) also leaves the text to the Chevrotain
 * parser, whose behaviour is the reference.
 */
export const fastParse = (text: string, maxDepth: number): FastParse | undefined => {
  const lexer = new GramLexer(text, { maxDepth });
  const parser = new FastParser(lexer, text);
  try {
    const { header, patterns } = parser.document();
    return { header, patterns, warnings: parser.warnings, lexer };
  } catch {
    return undefined;
  }
};
