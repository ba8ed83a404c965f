/**
 * The gram grammar (tree-sitter-gram 0.3.7, see gram.ebnf) as a Chevrotain `EmbeddedActionsParser`
 * that builds the typed AST directly: no CST, no visitor.
 *
 * One instance per configuration is built lazily and reused (construction analyses the grammar);
 * `input` is set per chunk of tokens. Alternatives are cached arrays; every position is LL(1).
 * Checks that need more than the grammar (an arrow's halves from one family, `::` in a map) are
 * collected in `issues`; data-loss warnings (duplicate keys, unsafe integers) in `warnings`.
 *
 * Actions read sub-results only outside the recording phase, and tolerate `undefined` results and
 * inserted tokens produced by error recovery (such a parse is reported, never returned). Nodes are
 * made by the constructors of `build.ts`, which the fast path (`fast-parser.ts`) shares: input
 * without errors gets the same AST from both. This parser is the reference and the error path.
 */
import { GramCodes } from './codes.js';
import { EmbeddedActionsParser, type IOrAlt, type IParserErrorMessageProvider, type IToken, type TokenType } from 'chevrotain';
import type {
  AnnotatedPattern,
  Arrow,
  ArrayValue,
  Identifier,
  IdentifiedAnnotation,
  Label,
  MapValue,
  NodePattern,
  NumericValue,
  PathPattern,
  PatternReference,
  Property,
  PropertyAnnotation,
  RangeValue,
  RecordNode,
  Subject,
  SubjectPattern,
  SubjectPatternElement,
  TopLevelPattern,
  Value,
} from './ast.js';
import * as B from './build.js';
import { type Diagnostic, error } from '../core/diagnostic.js';
import type { GramToken } from './lexer.js';
import type { Span } from '../core/span.js';
import * as T from './tokens.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** What the message provider records for each syntax error; `syntax-errors.ts` words it. */
export type SyntaxErrorFacts =
  | { readonly kind: 'mismatch'; readonly rule: string; readonly expected: string }
  | { readonly kind: 'noViableAlt'; readonly rule: string; readonly expected: ReadonlyArray<string> }
  | { readonly kind: 'earlyExit'; readonly rule: string; readonly expected: ReadonlyArray<string> }
  | { readonly kind: 'notAllInput'; readonly rule: string };

// -------------------------------------------------------------------------------------------------
// constants
// -------------------------------------------------------------------------------------------------

const ID = { DoubleColon: T.idx(T.DoubleColon), Ellipsis: T.idx(T.Ellipsis) };

const firstNames = (paths: ReadonlyArray<ReadonlyArray<TokenType>>): string[] => {
  const names = new Set<string>();
  for (const p of paths) if (p[0] !== undefined) names.add(p[0].name);
  return [...names];
};

/** Records the facts of each error as JSON; wording happens later, with the whole context at hand. */
const messageProvider: IParserErrorMessageProvider = {
  buildMismatchTokenMessage: ({ expected, ruleName }) =>
    JSON.stringify({ kind: 'mismatch', rule: ruleName, expected: expected.name } satisfies SyntaxErrorFacts),
  buildNotAllInputParsedMessage: ({ ruleName }) => JSON.stringify({ kind: 'notAllInput', rule: ruleName } satisfies SyntaxErrorFacts),
  buildNoViableAltMessage: ({ expectedPathsPerAlt, ruleName }) =>
    JSON.stringify({ kind: 'noViableAlt', rule: ruleName, expected: firstNames(expectedPathsPerAlt.flat()) } satisfies SyntaxErrorFacts),
  buildEarlyExitMessage: ({ expectedIterationPaths, ruleName }) =>
    JSON.stringify({ kind: 'earlyExit', rule: ruleName, expected: firstNames(expectedIterationPaths) } satisfies SyntaxErrorFacts),
};

// -------------------------------------------------------------------------------------------------
// constructors (tokens to AST leaves)
// -------------------------------------------------------------------------------------------------

const span = B.span;
const endOf = (t: IToken): number => (t.endOffset ?? -2) + 1;
const tokenSpan = (t: IToken): Span => span(t.startOffset, endOf(t));
const between = (a: IToken, b: IToken): Span => span(a.startOffset, endOf(b));
const payload = (t: IToken): string => (t as GramToken).payload ?? '';

const identifierOf = (t: IToken): Identifier => B.identifier(t.tokenTypeIdx, t.image, payload(t), t.startOffset, endOf(t));
const labelOf = (sep: IToken, name: IToken): Label => B.label(sep.tokenTypeIdx, name.tokenTypeIdx, name.image, payload(name), sep.startOffset, endOf(name));

// -------------------------------------------------------------------------------------------------
// the parser
// -------------------------------------------------------------------------------------------------

export class GramParser extends EmbeddedActionsParser {
  /** Whether the chunk being parsed may start with the header record (the first chunk only). */
  allowHeader = true;
  /** The header record, when the chunk had one. */
  header: RecordNode | undefined = undefined;
  /** Errors beyond the grammar, found by actions. */
  issues: Diagnostic[] = [];
  /** Warnings about data that would be lost or changed. */
  warnings: Diagnostic[] = [];

  /**
   * `validate` runs Chevrotain's grammar checks (ambiguity, left recursion), which the shared
   * instances skip to start faster; a test builds one with them.
   */
  constructor(recovery: boolean, validate = false) {
    super(T.allTokens as TokenType[], {
      recoveryEnabled: recovery,
      maxLookahead: 1,
      skipValidations: !validate,
      errorMessageProvider: messageProvider,
    });
    this.performSelfAnalysis();
  }

  /** Prepares a chunk of tokens. */
  load(tokens: GramToken[], allowHeader: boolean): void {
    this.input = tokens;
    this.allowHeader = allowHeader;
    this.header = undefined;
  }

  // ---------------------------------------------------------------------------------------------
  // document
  // ---------------------------------------------------------------------------------------------

  private readonly headerGate = (): boolean => this.allowHeader;

  readonly document = this.RULE('document', (): TopLevelPattern[] => {
    const out: TopLevelPattern[] = [];
    this.OPTION({
      GATE: this.headerGate,
      DEF: () => {
        const r = this.SUBRULE(this.record);
        if (!this.RECORDING_PHASE) this.header = r;
      },
    });
    this.MANY(() => {
      const p = this.OR(this.topLevelAlts);
      if (!this.RECORDING_PHASE && p !== undefined) out.push(p);
    });
    return out;
  });

  private readonly topLevelAlts: IOrAlt<TopLevelPattern>[] = [
    { ALT: () => this.SUBRULE(this.annotated) },
    { ALT: () => this.SUBRULE(this.subjectPattern) },
    { ALT: () => this.SUBRULE(this.path) },
  ];

  // ---------------------------------------------------------------------------------------------
  // annotations
  // ---------------------------------------------------------------------------------------------

  readonly annotated = this.RULE('annotated', (): AnnotatedPattern => {
    let identified: IdentifiedAnnotation | undefined;
    const annotations: PropertyAnnotation[] = [];
    this.OR([
      {
        ALT: () => {
          identified = this.identifiedAnnotation();
          this.MANY(() => {
            const a = this.propertyAnnotation(1);
            if (!this.RECORDING_PHASE) annotations.push(a);
          });
        },
      },
      {
        ALT: () => {
          this.AT_LEAST_ONE(() => {
            const a = this.propertyAnnotation(2);
            if (!this.RECORDING_PHASE) annotations.push(a);
          });
        },
      },
    ]);
    const target = this.OR2(this.targetAlts);
    if (this.RECORDING_PHASE) return undefined as never;
    return B.annotated(identified, B.fit(annotations), target, this.warnings);
  });

  /** `@@id`, `@@:Label`, `@@id:Label` (inlined in `annotated`). */
  private identifiedAnnotation(): IdentifiedAnnotation {
    const at = this.CONSUME(T.AtAt);
    let id: IToken | undefined;
    const labels: Label[] = [];
    let last: IToken = at;
    this.OR1([
      {
        ALT: () => {
          id = this.CONSUME(T.IdentifierCat);
          last = id;
          this.MANY2(() => {
            const sep = this.CONSUME1(T.LabelSepCat);
            last = this.CONSUME1(T.LabelNameCat);
            labels.push(labelOf(sep, last));
          });
        },
      },
      {
        ALT: () => {
          this.AT_LEAST_ONE2(() => {
            const sep = this.CONSUME2(T.LabelSepCat);
            last = this.CONSUME2(T.LabelNameCat);
            labels.push(labelOf(sep, last));
          });
        },
      },
    ]);
    return B.identifiedAnnotation(id === undefined ? undefined : identifierOf(id), B.fit(labels), at.startOffset, endOf(last));
  }

  /** `@key(value)`, inlined in `annotated` at occurrence `i`. */
  private propertyAnnotation(i: number): PropertyAnnotation {
    const at = this.consume(i, T.At);
    const key = this.consume(i, T.SymbolToken);
    this.consume(i, T.LParen);
    const value = this.subrule(i, this.value);
    const close = this.consume(i, T.RParen);
    return B.propertyAnnotation(key.image, value, at.startOffset, endOf(close));
  }

  private readonly targetAlts: IOrAlt<SubjectPattern | PathPattern>[] = [
    { ALT: () => this.SUBRULE(this.subjectPattern) },
    { ALT: () => this.SUBRULE(this.path) },
  ];

  // ---------------------------------------------------------------------------------------------
  // subject patterns
  // ---------------------------------------------------------------------------------------------

  readonly subjectPattern = this.RULE('subjectPattern', (): SubjectPattern => {
    const open = this.CONSUME(T.LBracket);
    const s = this.OPTION(this.optionalSubject);
    const elements: SubjectPatternElement[] = [];
    this.OPTION2(() => {
      this.CONSUME(T.Pipe);
      this.AT_LEAST_ONE_SEP({
        SEP: T.Comma,
        DEF: () => {
          const e = this.OR(this.elementAlts);
          if (!this.RECORDING_PHASE) elements.push(e);
        },
      });
    });
    const close = this.CONSUME(T.RBracket);
    return B.subjectPattern(s?.identifier, s?.labels ?? B.NO_LABELS, s?.record, B.fit(elements), open.startOffset, endOf(close));
  });

  private readonly elementAlts: IOrAlt<SubjectPatternElement>[] = [
    { ALT: () => this.SUBRULE(this.subjectPattern) },
    { ALT: () => this.SUBRULE(this.path) },
    {
      ALT: (): PatternReference => {
        const t = this.CONSUME(T.IdentifierCat);
        return B.reference(identifierOf(t));
      },
    },
  ];

  // ---------------------------------------------------------------------------------------------
  // paths
  // ---------------------------------------------------------------------------------------------

  readonly path = this.RULE('path', (): PathPattern => {
    const first = this.SUBRULE(this.node);
    let nodes: NodePattern[] | undefined;
    let arrows: Arrow[] | undefined;
    this.MANY(() => {
      const a = this.SUBRULE(this.arrow);
      const n = this.SUBRULE2(this.node);
      if (this.RECORDING_PHASE) return;
      if (nodes === undefined || arrows === undefined) {
        nodes = [first, n];
        arrows = [a];
      } else {
        nodes.push(n);
        arrows.push(a);
      }
    });
    if (nodes === undefined || arrows === undefined) return first;
    return B.path(B.fit(nodes), B.fit(arrows));
  });

  readonly node = this.RULE('node', (): NodePattern => {
    const open = this.CONSUME(T.LParen);
    const s = this.OPTION(this.optionalSubject);
    const close = this.CONSUME(T.RParen);
    return B.node(s?.identifier, s?.labels ?? B.NO_LABELS, s?.record, open.startOffset, endOf(close));
  });

  readonly arrow = this.RULE('arrow', (): Arrow => {
    const left = this.CONSUME(T.ArrowLeftCat);
    let bracketed = false;
    let s: Subject | undefined;
    this.OPTION(() => {
      this.CONSUME(T.LBracket);
      s = this.OPTION1(this.optionalSubject);
      this.CONSUME(T.RBracket);
      bracketed = true;
    });
    const right = this.CONSUME(T.ArrowRightCat);
    if (this.RECORDING_PHASE) return undefined as never;
    const l = left.tokenTypeIdx;
    const r = right.tokenTypeIdx;
    if (B.familyOf(l) !== B.familyOf(r) && !Number.isNaN(right.startOffset)) {
      this.issues.push(
        error(GramCodes.MIXED_ARROW, `the two halves of an arrow must be of one kind: \`${left.image}\` cannot end with \`${right.image}\``, {
          span: between(left, right),
          hint: 'write `-`…`->`, `=`…`=>` or `~`…`~>` (and `<-`, `<=`, `<~` on the left)',
        }),
      );
    }
    const subject = s as Subject | undefined;
    return B.arrow(l, r, bracketed, subject?.identifier, subject?.labels ?? B.NO_LABELS, subject?.record, left.startOffset, endOf(right));
  });

  // ---------------------------------------------------------------------------------------------
  // subjects
  // ---------------------------------------------------------------------------------------------

  private readonly optionalSubject = (): Subject => this.SUBRULE(this.subject);

  readonly subject = this.RULE('subject', (): Subject => this.OR(this.subjectAlts));

  private readonly subjectAlts: IOrAlt<Subject>[] = [
    {
      ALT: () => {
        const id = this.CONSUME(T.IdentifierCat);
        const base = this.labels.length;
        this.MANY(this.label1);
        const record = this.OPTION(this.optionalRecord1);
        if (this.RECORDING_PHASE) return undefined as never;
        return { identifier: identifierOf(id), labels: this.takeLabels(base), record };
      },
    },
    {
      ALT: () => {
        const base = this.labels.length;
        this.AT_LEAST_ONE(this.label2);
        const record = this.OPTION2(this.optionalRecord2);
        if (this.RECORDING_PHASE) return undefined as never;
        return { identifier: undefined, labels: this.takeLabels(base), record };
      },
    },
    {
      ALT: () => {
        const record = this.SUBRULE3(this.record);
        if (this.RECORDING_PHASE) return undefined as never;
        return { identifier: undefined, labels: B.NO_LABELS, record };
      },
    },
  ];

  // ---------------------------------------------------------------------------------------------
  // records and maps
  // ---------------------------------------------------------------------------------------------

  private readonly label1 = (): void => {
    const sep = this.CONSUME1(T.LabelSepCat);
    const name = this.CONSUME1(T.LabelNameCat);
    if (!this.RECORDING_PHASE) this.labels.push(labelOf(sep, name));
  };

  private readonly label2 = (): void => {
    const sep = this.CONSUME2(T.LabelSepCat);
    const name = this.CONSUME2(T.LabelNameCat);
    if (!this.RECORDING_PHASE) this.labels.push(labelOf(sep, name));
  };

  private takeLabels(base: number): ReadonlyArray<Label> {
    if (this.labels.length === base) return B.NO_LABELS;
    const labels = this.labels.slice(base);
    this.labels.length = base;
    return labels;
  }

  private readonly optionalRecord1 = (): RecordNode => this.SUBRULE1(this.record);
  private readonly optionalRecord2 = (): RecordNode => this.SUBRULE2(this.record);

  /** `{k: v, ...}`: a record (subject position, header) or, with `isMap`, a map value. */
  readonly record = this.RULE('record', (isMap?: boolean): RecordNode => {
    const open = this.CONSUME(T.LBrace);
    const properties: Property[] = [];
    this.MANY_SEP({
      SEP: T.Comma,
      DEF: () => {
        const k = this.CONSUME(T.KeyCat);
        const sep = this.CONSUME(T.LabelSepCat);
        const value = this.SUBRULE(this.value);
        if (this.RECORDING_PHASE) return;
        const separator = sep.tokenTypeIdx === ID.DoubleColon ? '::' : ':';
        if (isMap === true && separator === '::') {
          this.issues.push(
            error(GramCodes.MAP_SEPARATOR, 'map entries are written `key: value`; `::` is only allowed in records', {
              span: tokenSpan(sep),
              hint: 'replace `::` with `:`',
            }),
          );
        }
        properties.push(B.property(k.tokenTypeIdx, k.image, payload(k), k.startOffset, endOf(k), separator, value, value?.end ?? -1));
      },
    });
    const close = this.CONSUME(T.RBrace);
    if (this.RECORDING_PHASE) return undefined as never;
    return B.record(B.fit(properties), open.startOffset, endOf(close), this.warnings);
  });

  // ---------------------------------------------------------------------------------------------
  // values
  // ---------------------------------------------------------------------------------------------

  readonly value = this.RULE('value', (): Value => this.OR(this.valueAlts));

  private readonly mapArgs = { ARGS: [true] as [boolean] };

  private readonly rangeTailAlts: IOrAlt<IToken>[] = [
    {
      ALT: () => {
        this.CONSUME(T.DotDot);
        return this.CONSUME2(T.NumberCat);
      },
    },
    { ALT: () => this.CONSUME(T.Ellipsis) },
  ];

  private readonly rangeTail = (): IToken => this.OR1(this.rangeTailAlts);

  private readonly optionalTag = (): IToken => this.CONSUME(T.BacktickString);

  private readonly valueAlts: IOrAlt<Value>[] = [
    {
      ALT: (): NumericValue | RangeValue => {
        const t = this.CONSUME(T.NumberCat);
        const tail = this.OPTION(this.rangeTail);
        if (this.RECORDING_PHASE) return undefined as never;
        const lower = this.numeric(t);
        if (tail === undefined) return lower;
        this.rangeBound(lower);
        if (tail.tokenTypeIdx === ID.Ellipsis) return B.range('from', lower, undefined, t.startOffset, endOf(tail));
        const upper = this.numeric(tail);
        this.rangeBound(upper);
        return B.range('closed', lower, upper, t.startOffset, endOf(tail));
      },
    },
    {
      ALT: (): RangeValue => {
        const e = this.CONSUME1(T.Ellipsis);
        const t = this.CONSUME3(T.NumberCat);
        if (this.RECORDING_PHASE) return undefined as never;
        const upper = this.numeric(t);
        this.rangeBound(upper);
        return B.range('to', undefined, upper, e.startOffset, endOf(t));
      },
    },
    {
      ALT: (): Value => {
        const s = this.CONSUME(T.SymbolToken);
        const tag = this.OPTION2(this.optionalTag);
        if (this.RECORDING_PHASE) return undefined as never;
        const name = s.image;
        if (name === 'true' || name === 'false') {
          if (tag !== undefined) {
            this.issues.push(
              error(GramCodes.UNEXPECTED_TOKEN, `\`${name}\` is a boolean and cannot tag a string`, {
                span: tokenSpan(tag),
                hint: 'choose another tag name, or separate the values with `,`',
              }),
            );
          }
          return B.boolean(name === 'true', s.startOffset, endOf(s));
        }
        if (tag !== undefined) return B.taggedString('inline', name, payload(tag), s.startOffset, endOf(tag));
        return B.symbol(name, s.startOffset, endOf(s));
      },
    },
    {
      ALT: (): Value => {
        const t = this.CONSUME(T.StringCat);
        return B.string(t.tokenTypeIdx, payload(t), t.startOffset, endOf(t));
      },
    },
    {
      ALT: (): Value => {
        const t = this.CONSUME(T.TaggedFencedString);
        return B.taggedString('fenced', B.fenceTag(t.image), payload(t), t.startOffset, endOf(t));
      },
    },
    {
      ALT: (): ArrayValue => {
        const open = this.CONSUME(T.LBracket);
        const items: Value[] = [];
        this.MANY_SEP({
          SEP: T.Comma,
          DEF: () => {
            const v = this.SUBRULE(this.value);
            if (!this.RECORDING_PHASE) items.push(v);
          },
        });
        const close = this.CONSUME(T.RBracket);
        return B.array(B.fit(items), open.startOffset, endOf(close));
      },
    },
    {
      ALT: (): MapValue => {
        const r = this.SUBRULE(this.record, this.mapArgs);
        if (this.RECORDING_PHASE) return undefined as never;
        return B.map(r?.properties ?? [], r?.start ?? -1, r?.end ?? -1);
      },
    },
  ];

  // ---------------------------------------------------------------------------------------------
  // utilities
  // ---------------------------------------------------------------------------------------------

  // Labels are pushed on this stack as they are parsed and sliced out (at their exact size) when
  // the subject ends. Error recovery may leave some behind, only in a parse that is reported,
  // never returned; `begin` clears them.
  private labels: Label[] = [];

  /** Clears per-parse state. */
  begin(): void {
    this.issues = [];
    this.warnings = [];
    this.labels = [];
  }

  private numeric(t: IToken): NumericValue {
    return B.numeric(t.tokenTypeIdx, t.image, t.startOffset, endOf(t), this.warnings);
  }

  private rangeBound(v: NumericValue): void {
    B.rangeBound(v, this.warnings);
  }
}

// -------------------------------------------------------------------------------------------------
// instances
// -------------------------------------------------------------------------------------------------

let fast: GramParser | undefined;
let recovering: GramParser | undefined;

/**
 * The shared parser: `recovery` false for the fast path (valid input stops at the first error),
 * true to collect several errors. Built on first use.
 */
export const gramParser = (recovery: boolean): GramParser => (recovery ? (recovering ??= new GramParser(true)) : (fast ??= new GramParser(false)));
