/**
 * The fast path of `parseGram`: a hand-written parser for the common shape of a large gram
 * document, reading the scanner's tokens in place (no token objects, no chunks) and building the
 * AST with the constructors the Chevrotain parser uses (`build.ts`).
 *
 * The common shape, and nothing else (docs/gram.md, "The fast path"):
 * - an optional header record, then top-level paths: nodes `(…)` joined by arrows of any kind,
 *   with or without a bracketed subject (`-[r:KNOWS {since: 2001}]->`), and subject patterns
 *   `[subject | element, …]` whose elements are subject patterns, paths and references;
 * - subjects: an identifier, labels (`:` or `::`), a record;
 * - record values: numbers (every kind), strings (every quoting, fenced without a tag), symbols,
 *   booleans, and arrays of these.
 *
 * At the first token outside that shape (an annotation, a range, a map, a
 * tagged string…), the first lexical diagnostic (including the nesting and pattern-size limits) or
 * an arrow of two families, it gives up, and `parseGram` parses the whole text again with the
 * Chevrotain parser (`parser.ts`), the reference, which also reports every error. Each decision
 * below is the one the Chevrotain grammar takes on the same token, so an accepted text gets the
 * AST and the warnings the Chevrotain parser would give it, in the same order; the tests check it
 * on the reference corpus and on generated documents, and that the fast path accepts exactly the
 * valid documents of the common shape.
 */
import type { TokenType } from 'chevrotain';
import type { Arrow, Identifier, Label, NodePattern, PathPattern, Property, RecordNode, TopLevelPattern, Value } from './ast.js';
import type { SubjectPattern, SubjectPatternElement } from './ast.js';
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
  LParen: T.idx(T.LParen),
  RParen: T.idx(T.RParen),
  LBracket: T.idx(T.LBracket),
  RBracket: T.idx(T.RBracket),
  LBrace: T.idx(T.LBrace),
  RBrace: T.idx(T.RBrace),
  Comma: T.idx(T.Comma),
  Pipe: T.idx(T.Pipe),
  DoubleColon: T.idx(T.DoubleColon),
  Symbol: T.idx(T.SymbolToken),
  Backtick: T.idx(T.BacktickString),
};

// Token classes, as bits per token type index: the categories of `tokens.ts`.
const IDENTIFIER = 1;
const LABEL_NAME = 2;
const KEY = 4;
const LABEL_SEP = 8;
const NUMBER = 16;
const STRING = 32;
const ARROW_LEFT = 64;
const ARROW_RIGHT = 128;

const CLASS = (() => {
  const byCategory: ReadonlyArray<readonly [TokenType, number]> = [
    [T.IdentifierCat, IDENTIFIER],
    [T.LabelNameCat, LABEL_NAME],
    [T.KeyCat, KEY],
    [T.LabelSepCat, LABEL_SEP],
    [T.NumberCat, NUMBER],
    [T.StringCat, STRING],
    [T.ArrowLeftCat, ARROW_LEFT],
    [T.ArrowRightCat, ARROW_RIGHT],
  ];
  const table = new Uint8Array(Math.max(...T.allTokens.map(T.idx)) + 1);
  for (const t of T.allTokens) {
    let bits = 0;
    for (const [cat, bit] of byCategory) if (t === cat || (t.CATEGORIES ?? []).includes(cat)) bits |= bit;
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
   * Items of the lists being parsed (labels, properties, array items), taken out at their exact
   * size when a list ends: no growing array per list becomes garbage.
   */
  private readonly stack: unknown[] = [];
  /** Items on `stack` (its length is never lowered: setting an array's length is slow). */
  private top = 0;
  /** The subject `subject()` read last (no object is made for a subject: its fields go on the pattern). */
  private identifier: Identifier | undefined = undefined;
  private labelList: ReadonlyArray<Label> = B.NO_LABELS;
  private recordNode: RecordNode | undefined = undefined;

  constructor(private readonly lx: GramLexer) {}

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
  // document and paths
  // ---------------------------------------------------------------------------------------------

  document(): { header: RecordNode | undefined; patterns: TopLevelPattern[] } {
    this.next();
    const header = this.t === I.LBrace ? this.record() : undefined;
    const patterns: TopLevelPattern[] = [];
    for (;;) {
      if (this.t === I.LParen) patterns.push(this.path());
      else if (this.t === I.LBracket) patterns.push(this.subjectPattern());
      else break;
    }
    if (this.t !== EOF) throw GIVE_UP;
    return { header, patterns };
  }

  /** `[subject | element, …]`: the subject and the elements both optional. */
  private subjectPattern(): SubjectPattern {
    const start = this.start;
    this.next();
    this.subject();
    const { identifier, labelList, recordNode } = this;
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
    return B.subjectPattern(identifier, labelList, recordNode, elements, start, end);
  }

  /** An element of a subject pattern: a subject pattern, a path, or a reference (an identifier). */
  private element(): SubjectPatternElement {
    if (this.t === I.LBracket) return this.subjectPattern();
    if (this.t === I.LParen) return this.path();
    if (!this.is(IDENTIFIER)) throw GIVE_UP;
    const id = B.identifier(this.t, this.image, this.payload, this.start, this.end);
    this.next();
    return B.reference(id);
  }

  private path(): PathPattern {
    const first = this.node();
    if (!this.is(ARROW_LEFT)) return first;
    const a = this.arrow();
    const n = this.node();
    if (!this.is(ARROW_LEFT)) return B.path([first, n], [a]);
    const nodes: NodePattern[] = [first, n];
    const arrows: Arrow[] = [a];
    do {
      arrows.push(this.arrow());
      nodes.push(this.node());
    } while (this.is(ARROW_LEFT));
    return B.path(B.fit(nodes), B.fit(arrows));
  }

  private node(): NodePattern {
    const start = this.start;
    this.expect(I.LParen);
    this.subject();
    const { identifier, labelList, recordNode } = this;
    const end = this.expect(I.RParen);
    return B.node(identifier, labelList, recordNode, start, end);
  }

  private arrow(): Arrow {
    const left = this.t;
    const start = this.start;
    this.next();
    let bracketed = false;
    let identifier: Identifier | undefined;
    let labels: ReadonlyArray<Label> = B.NO_LABELS;
    let record: RecordNode | undefined;
    if (this.t === I.LBracket) {
      this.next();
      this.subject();
      identifier = this.identifier;
      labels = this.labelList;
      record = this.recordNode;
      this.expect(I.RBracket);
      bracketed = true;
    }
    if (!this.is(ARROW_RIGHT)) throw GIVE_UP;
    const right = this.t;
    if (B.familyOf(left) !== B.familyOf(right)) throw GIVE_UP;
    const end = this.end;
    this.next();
    return B.arrow(left, right, bracketed, identifier, labels, record, start, end);
  }

  // ---------------------------------------------------------------------------------------------
  // subjects
  // ---------------------------------------------------------------------------------------------

  /**
   * A subject, if the current token starts one: its identity, labels and record are left in
   * `identifier`, `labelList` and `recordNode` (absent ones as `undefined` and `NO_LABELS`).
   */
  private subject(): void {
    let identifier: Identifier | undefined;
    if (this.is(IDENTIFIER)) {
      identifier = B.identifier(this.t, this.image, this.payload, this.start, this.end);
      this.next();
    }
    const labels = this.is(LABEL_SEP) ? this.labels() : B.NO_LABELS;
    const record = this.t === I.LBrace ? this.record() : undefined;
    this.identifier = identifier;
    this.labelList = labels;
    this.recordNode = record;
  }

  /** One or more labels; the current token is a label separator. */
  private labels(): ReadonlyArray<Label> {
    const base = this.top;
    do {
      const sep = this.t;
      const start = this.start;
      this.next();
      if (!this.is(LABEL_NAME)) throw GIVE_UP;
      this.push(B.label(sep, this.t, this.image, this.payload, start, this.end));
      this.next();
    } while (this.is(LABEL_SEP));
    return this.take<Label>(base);
  }

  // ---------------------------------------------------------------------------------------------
  // records and values
  // ---------------------------------------------------------------------------------------------

  /** `{k: v, ...}`, in subject position or as the header. */
  private record(): RecordNode {
    const start = this.start;
    this.next();
    const base = this.top;
    if (this.is(KEY)) {
      this.push(this.property());
      while (this.t === I.Comma) {
        this.next();
        if (!this.is(KEY)) throw GIVE_UP;
        this.push(this.property());
      }
    }
    const properties = this.take<Property>(base);
    const end = this.expect(I.RBrace);
    return B.record(properties, start, end, this.warnings);
  }

  private property(): Property {
    const { t, image, payload, start, end } = this;
    this.next();
    if (!this.is(LABEL_SEP)) throw GIVE_UP;
    const separator = this.t === I.DoubleColon ? '::' : ':';
    this.next();
    const value = this.value();
    return B.property(t, image, payload, start, end, separator, value, value.end);
  }

  /** A number, a string, a symbol, a boolean or an array of values. */
  private value(): Value {
    const t = this.t;
    const start = this.start;
    const end = this.end;
    if (this.is(NUMBER)) {
      // a range (`1..2`, `1...`) leaves the fast path at the next token, which no caller expects
      const raw = this.image;
      this.next();
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
      if (this.t === I.Backtick) throw GIVE_UP; // a tagged string (or a boolean used as a tag)
      return name === 'true' || name === 'false' ? B.boolean(name === 'true', start, end) : B.symbol(name, start, end);
    }
    if (t === I.LBracket) {
      this.next();
      const base = this.top;
      if (this.t !== I.RBracket) {
        this.push(this.value());
        while (this.t === I.Comma) {
          this.next();
          this.push(this.value());
        }
      }
      const items = this.take<Value>(base);
      return B.array(items, start, this.expect(I.RBracket));
    }
    throw GIVE_UP;
  }
}

// -------------------------------------------------------------------------------------------------
// entry point
// -------------------------------------------------------------------------------------------------

/**
 * Parses `text` when it is a valid document of the common shape, as the Chevrotain parser would;
 * undefined as soon as it is not (the caller then parses it with the Chevrotain parser). A stack
 * overflow (deep arrays with an unusual `maxDepth`) also leaves the text to the Chevrotain parser;
 * any other exception is a bug, and propagates.
 */
export const fastParse = (text: string, maxDepth: number): FastParse | undefined => {
  const lexer = new GramLexer(text, { maxDepth });
  const parser = new FastParser(lexer);
  try {
    const { header, patterns } = parser.document();
    return { header, patterns, warnings: parser.warnings, lexer };
  } catch (e) {
    if (e === GIVE_UP || e instanceof RangeError) return undefined;
    throw e;
  }
};
