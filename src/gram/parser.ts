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
 * inserted tokens produced by error recovery (such a parse is reported, never returned).
 */
import { GramCodes } from './codes.js';
import { EmbeddedActionsParser, type IOrAlt, type IParserErrorMessageProvider, type IToken, type TokenType } from 'chevrotain';
import type {
  AnnotatedPattern, Arrow, ArrowDirection, ArrowFamily, ArrayValue, Identifier, IdentifiedAnnotation, Key, Label,
  MapValue, NodePattern, NumericValue, PathPattern, PatternReference, Property, PropertyAnnotation, RangeValue,
  RecordNode, Subject, SubjectPattern, SubjectPatternElement, TopLevelPattern, Value,
} from './ast.js';
import { type Diagnostic, error, warning } from '../core/diagnostic.js';
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

const ID = {
  Symbol: T.idx(T.SymbolToken), Integer: T.idx(T.Integer), Decimal: T.idx(T.Decimal), Hexadecimal: T.idx(T.Hexadecimal),
  Octal: T.idx(T.Octal), Measurement: T.idx(T.Measurement), Backtick: T.idx(T.BacktickString),
  Single: T.idx(T.SingleString), Double: T.idx(T.DoubleString), Fenced: T.idx(T.FencedString),
  DoubleColon: T.idx(T.DoubleColon), Ellipsis: T.idx(T.Ellipsis),
  Dash: T.idx(T.Dash), DashGt: T.idx(T.DashGt), LtDash: T.idx(T.LtDash),
  Eq: T.idx(T.Eq), EqGt: T.idx(T.EqGt), LtEq: T.idx(T.LtEq),
  Tilde: T.idx(T.Tilde), TildeGt: T.idx(T.TildeGt), LtTilde: T.idx(T.LtTilde),
};

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

const NO_LABELS: ReadonlyArray<Label> = Object.freeze([]);

// -------------------------------------------------------------------------------------------------
// constructors (tokens to AST leaves)
// -------------------------------------------------------------------------------------------------

/**
 * A span. Offsets are made small integers (`| 0`; recovery's NaN becomes -1): storing a boxed
 * number (Chevrotain's tokens hold their offsets as doubles) would make V8 box the offsets of
 * every span in the process, a third more memory for a large document.
 */
const span = (start: number, end: number): Span => ({ start: start === start ? start | 0 : -1, end: end === end ? end | 0 : -1 });
const endOf = (t: IToken): number => (t.endOffset ?? -2) + 1;
const tokenSpan = (t: IToken): Span => span(t.startOffset, endOf(t));
const between = (a: IToken, b: IToken): Span => span(a.startOffset, endOf(b));
const payload = (t: IToken): string => (t as GramToken).payload ?? '';

const identifierOf = (t: IToken): Identifier => {
  const i = t.tokenTypeIdx;
  return {
    kind: 'Identifier',
    style: i === ID.Symbol ? 'symbol' : i === ID.Backtick ? 'backtick' : 'integer',
    value: i === ID.Backtick ? payload(t) : t.image,
    span: tokenSpan(t),
  };
};

/** Small arrays at their exact size: a pushed-to empty array reserves room for 17 elements. */
const fit = <T>(a: T[]): T[] => (a.length < 64 ? a.slice() : a);

const MEASUREMENT = /^(-?(?:0|[1-9][0-9]*))([a-zA-Z]+)$/;

const familyOf = (i: number): ArrowFamily =>
  i === ID.Dash || i === ID.DashGt || i === ID.LtDash ? '-' : i === ID.Eq || i === ID.EqGt || i === ID.LtEq ? '=' : '~';

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
    const first = identified?.span ?? annotations[0]?.span;
    if (annotations.length > 1) this.duplicates(annotations, (a) => a?.key, (a) => a?.span, 'annotation');
    return {
      kind: 'Annotated',
      identified,
      annotations: fit(annotations),
      target,
      span: span(first?.start ?? -1, target?.span.end ?? -1),
    };
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
            labels.push(this.labelOf(sep, last));
          });
        },
      },
      {
        ALT: () => {
          this.AT_LEAST_ONE2(() => {
            const sep = this.CONSUME2(T.LabelSepCat);
            last = this.CONSUME2(T.LabelNameCat);
            labels.push(this.labelOf(sep, last));
          });
        },
      },
    ]);
    return {
      kind: 'IdentifiedAnnotation',
      identifier: id === undefined ? undefined : identifierOf(id),
      labels: fit(labels),
      span: between(at, last),
    };
  }

  /** `@key(value)`, inlined in `annotated` at occurrence `i`. */
  private propertyAnnotation(i: number): PropertyAnnotation {
    const at = this.consume(i, T.At);
    const key = this.consume(i, T.SymbolToken);
    this.consume(i, T.LParen);
    const value = this.subrule(i, this.value);
    const close = this.consume(i, T.RParen);
    return { kind: 'PropertyAnnotation', key: key.image, value, span: between(at, close) };
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
    const subject = this.OPTION(this.optionalSubject);
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
    return { kind: 'SubjectPattern', subject, elements: fit(elements), span: between(open, close) };
  });

  private readonly elementAlts: IOrAlt<SubjectPatternElement>[] = [
    { ALT: () => this.SUBRULE(this.subjectPattern) },
    { ALT: () => this.SUBRULE(this.path) },
    {
      ALT: (): PatternReference => {
        const t = this.CONSUME(T.IdentifierCat);
        return { kind: 'Reference', identifier: identifierOf(t), span: tokenSpan(t) };
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
    const last = nodes[nodes.length - 1];
    return { kind: 'Path', nodes: fit(nodes), arrows: fit(arrows), span: span(first?.span.start ?? -1, last?.span.end ?? -1) };
  });

  readonly node = this.RULE('node', (): NodePattern => {
    const open = this.CONSUME(T.LParen);
    const subject = this.OPTION(this.optionalSubject);
    const close = this.CONSUME(T.RParen);
    return { kind: 'Node', subject, span: between(open, close) };
  });

  readonly arrow = this.RULE('arrow', (): Arrow => {
    const left = this.CONSUME(T.ArrowLeftCat);
    let bracketed = false;
    let subject: Subject | undefined;
    this.OPTION(() => {
      this.CONSUME(T.LBracket);
      subject = this.OPTION1(this.optionalSubject);
      this.CONSUME(T.RBracket);
      bracketed = true;
    });
    const right = this.CONSUME(T.ArrowRightCat);
    if (this.RECORDING_PHASE) return undefined as never;
    const l = left.tokenTypeIdx;
    const r = right.tokenTypeIdx;
    const family = familyOf(l);
    if (family !== familyOf(r) && !Number.isNaN(right.startOffset)) {
      this.issues.push(
        error(GramCodes.MIXED_ARROW, `the two halves of an arrow must be of one kind: \`${left.image}\` cannot end with \`${right.image}\``, {
          span: between(left, right),
          hint: 'write `-`…`->`, `=`…`=>` or `~`…`~>` (and `<-`, `<=`, `<~` on the left)',
        }),
      );
    }
    const toLeft = l === ID.LtDash || l === ID.LtEq || l === ID.LtTilde;
    const toRight = r === ID.DashGt || r === ID.EqGt || r === ID.TildeGt;
    const direction: ArrowDirection = toLeft ? (toRight ? 'bidirectional' : 'left') : toRight ? 'right' : 'undirected';
    return { kind: 'Arrow', family, direction, bracketed, subject, span: between(left, right) };
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
        const identifier = identifierOf(id);
        const labels = this.takeLabels(base);
        const end = record?.span.end ?? (labels.length === 0 ? endOf(id) : (labels[labels.length - 1]?.span.end ?? -1));
        return {
          kind: 'Subject',
          identifier,
          labels,
          record,
          span: labels.length === 0 && record === undefined ? identifier.span : span(id.startOffset, end),
        };
      },
    },
    {
      ALT: () => {
        const base = this.labels.length;
        this.AT_LEAST_ONE(this.label2);
        const record = this.OPTION2(this.optionalRecord2);
        if (this.RECORDING_PHASE) return undefined as never;
        const labels = this.takeLabels(base);
        const start = labels[0]?.span.start ?? -1;
        const end = record?.span.end ?? labels[labels.length - 1]?.span.end ?? -1;
        return { kind: 'Subject', identifier: undefined, labels, record, span: span(start, end) };
      },
    },
    {
      ALT: () => {
        const record = this.SUBRULE3(this.record);
        if (this.RECORDING_PHASE) return undefined as never;
        return { kind: 'Subject', identifier: undefined, labels: NO_LABELS, record, span: record?.span ?? span(-1, -1) };
      },
    },
  ];

  // ---------------------------------------------------------------------------------------------
  // records and maps
  // ---------------------------------------------------------------------------------------------

  private readonly label1 = (): void => {
    const sep = this.CONSUME1(T.LabelSepCat);
    const name = this.CONSUME1(T.LabelNameCat);
    if (!this.RECORDING_PHASE) this.labels.push(this.labelOf(sep, name));
  };

  private readonly label2 = (): void => {
    const sep = this.CONSUME2(T.LabelSepCat);
    const name = this.CONSUME2(T.LabelNameCat);
    if (!this.RECORDING_PHASE) this.labels.push(this.labelOf(sep, name));
  };

  private takeLabels(base: number): ReadonlyArray<Label> {
    if (this.labels.length === base) return NO_LABELS;
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
        properties.push({ kind: 'Property', key: this.keyOf(k), separator, value, span: span(k.startOffset, value?.span.end ?? -1) });
      },
    });
    const close = this.CONSUME(T.RBrace);
    if (this.RECORDING_PHASE) return undefined as never;
    if (properties.length > 1) this.duplicates(properties, (p) => p.key?.name, (p) => p.key?.span, 'key');
    return { kind: 'Record', properties: fit(properties), span: between(open, close) };
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
        if (tail.tokenTypeIdx === ID.Ellipsis) return { kind: 'Range', form: 'from', lower, upper: undefined, span: between(t, tail) };
        const upper = this.numeric(tail);
        this.rangeBound(upper);
        return { kind: 'Range', form: 'closed', lower, upper, span: between(t, tail) };
      },
    },
    {
      ALT: (): RangeValue => {
        const e = this.CONSUME1(T.Ellipsis);
        const t = this.CONSUME3(T.NumberCat);
        if (this.RECORDING_PHASE) return undefined as never;
        const upper = this.numeric(t);
        this.rangeBound(upper);
        return { kind: 'Range', form: 'to', lower: undefined, upper, span: between(e, t) };
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
          return { kind: 'Boolean', value: name === 'true', span: tokenSpan(s) };
        }
        if (tag !== undefined) return { kind: 'TaggedString', style: 'inline', tag: name, content: payload(tag), span: between(s, tag) };
        return { kind: 'Symbol', name, span: tokenSpan(s) };
      },
    },
    {
      ALT: (): Value => {
        const t = this.CONSUME(T.StringCat);
        const i = t.tokenTypeIdx;
        return {
          kind: 'String',
          style: i === ID.Double ? 'double' : i === ID.Single ? 'single' : i === ID.Backtick ? 'backtick' : 'fenced',
          value: payload(t),
          span: tokenSpan(t),
        };
      },
    },
    {
      ALT: (): Value => {
        const t = this.CONSUME(T.TaggedFencedString);
        const m = /^```[ \t]*([^\s`]+)/.exec(t.image);
        return { kind: 'TaggedString', style: 'fenced', tag: m?.[1] ?? '', content: payload(t), span: tokenSpan(t) };
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
        return { kind: 'Array', items: fit(items), span: between(open, close) };
      },
    },
    {
      ALT: (): MapValue => {
        const r = this.SUBRULE(this.record, this.mapArgs);
        if (this.RECORDING_PHASE) return undefined as never;
        return { kind: 'Map', entries: r?.properties ?? [], span: r?.span ?? span(-1, -1) };
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

  private labelOf(sep: IToken, name: IToken): Label {
    const backtick = name.tokenTypeIdx === ID.Backtick;
    return {
      kind: 'Label',
      separator: sep.tokenTypeIdx === ID.DoubleColon ? '::' : ':',
      style: backtick ? 'backtick' : 'symbol',
      name: backtick ? payload(name) : name.image,
      span: between(sep, name),
    };
  }

  private keyOf(t: IToken): Key {
    const i = t.tokenTypeIdx;
    return {
      kind: 'Key',
      style: i === ID.Symbol ? 'symbol' : i === ID.Backtick ? 'backtick' : 'double',
      name: i === ID.Symbol ? t.image : payload(t),
      span: tokenSpan(t),
    };
  }

  private numeric(t: IToken): NumericValue {
    const raw = t.image;
    const sp = tokenSpan(t);
    switch (t.tokenTypeIdx) {
      case ID.Integer: {
        const value = Number(raw);
        if (!Number.isSafeInteger(value)) this.unsafe(raw, sp);
        return { kind: 'Integer', raw, value, span: sp };
      }
      case ID.Decimal: {
        const value = Number(raw);
        if (!Number.isFinite(value)) this.unsafe(raw, sp);
        return { kind: 'Decimal', raw, value, span: sp };
      }
      case ID.Hexadecimal: {
        const value = Number.parseInt(raw.slice(2), 16);
        if (!Number.isSafeInteger(value)) this.unsafe(raw, sp);
        return { kind: 'Hexadecimal', raw, value, span: sp };
      }
      case ID.Octal: {
        const value = Number.parseInt(raw.slice(1), 8);
        if (!Number.isSafeInteger(value)) this.unsafe(raw, sp);
        return { kind: 'Octal', raw, value, span: sp };
      }
      default: {
        const m = MEASUREMENT.exec(raw);
        const value = Number(m?.[1] ?? Number.NaN);
        if (m !== null && !Number.isSafeInteger(value)) this.unsafe(raw, sp);
        return { kind: 'Measurement', raw, value, unit: m?.[2] ?? '', span: sp };
      }
    }
  }

  /** Range bounds lower to plain numbers: a measurement's unit would be lost. */
  private rangeBound(v: NumericValue): void {
    if (v.kind !== 'Measurement') return;
    this.warnings.push(
      warning(GramCodes.RANGE_UNIT, `the unit of \`${v.raw}\` is dropped: range bounds are plain numbers`, {
        span: v.span,
        hint: `write the bound as a number (${Number.isNaN(v.value) ? 'without the unit' : String(v.value)}) and put the unit in a separate property`,
      }),
    );
  }

  private unsafe(raw: string, sp: Span): void {
    this.warnings.push(
      warning(GramCodes.UNSAFE_NUMBER, `\`${raw}\` is too large to be represented exactly as a JSON number`, {
        span: sp,
        hint: 'write it as a string if every digit matters',
      }),
    );
  }

  /** Warns about names given twice in one record, map or annotation list (the last one wins). */
  private duplicates<T>(
    items: ReadonlyArray<T>,
    nameOf: (t: T) => string | undefined,
    spanOf: (t: T) => Span | undefined,
    what: 'key' | 'annotation',
  ): void {
    const n = items.length;
    if (n <= 8) {
      for (let i = 1; i < n; i++) {
        const name = nameOf(items[i] as T);
        for (let j = 0; j < i; j++) {
          if (name !== undefined && nameOf(items[j] as T) === name) {
            this.duplicate(name, spanOf(items[j] as T), spanOf(items[i] as T), what);
            break;
          }
        }
      }
      return;
    }
    const seen = new Map<string, T>();
    for (const it of items) {
      const name = nameOf(it);
      if (name === undefined) continue;
      const before = seen.get(name);
      if (before !== undefined) this.duplicate(name, spanOf(before), spanOf(it), what);
      else seen.set(name, it);
    }
  }

  private duplicate(name: string, first: Span | undefined, again: Span | undefined, what: 'key' | 'annotation'): void {
    if (first === undefined || again === undefined) return;
    this.warnings.push(
      warning(
        what === 'key' ? GramCodes.DUPLICATE_KEY : GramCodes.DUPLICATE_ANNOTATION,
        what === 'key' ? `the key \`${name}\` is given twice; the last value wins` : `the annotation \`@${name}\` is given twice; the last value wins`,
        { span: again, related: [{ message: 'first given here', span: first }], hint: 'remove one of them' },
      ),
    );
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
export const gramParser = (recovery: boolean): GramParser =>
  recovery ? (recovering ??= new GramParser(true)) : (fast ??= new GramParser(false));
