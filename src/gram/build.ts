/**
 * The AST's constructors, from token facts (type index, offsets, image, payload) rather than token
 * objects, shared by the Chevrotain parser (`parser.ts`) and the fast path (`fast-parser.ts`) so
 * both build the same nodes, property for property, and the same warnings about data that would be
 * lost or changed (duplicate names, unsafe numbers, units of range bounds).
 *
 * Arrays are taken as given: callers pass them at their exact size (see `fit`).
 *
 * Offsets are made small integers (`| 0`; error recovery's NaN becomes -1): storing a boxed number
 * (Chevrotain's tokens hold their offsets as doubles) would make V8 box the offsets of every span
 * in the process, a third more memory for a large document.
 */
import { GramCodes } from './codes.js';
import type {
  AnnotatedPattern, Arrow, ArrowDirection, ArrowFamily, ArrayValue, BooleanValue, Identifier, IdentifiedAnnotation, Key,
  Label, MapValue, NodePattern, NumericValue, PathPattern, PatternReference, Property, PropertyAnnotation, RangeValue,
  RecordNode, RelationshipPath, StringValue, Subject, SubjectPattern, SubjectPatternElement, SymbolValue, TaggedStringValue,
  Value,
} from './ast.js';
import { type Diagnostic, warning } from '../core/diagnostic.js';
import type { Span } from '../core/span.js';
import * as T from './tokens.js';

// -------------------------------------------------------------------------------------------------
// constants
// -------------------------------------------------------------------------------------------------

const ID = {
  Symbol: T.idx(T.SymbolToken), Integer: T.idx(T.Integer), Decimal: T.idx(T.Decimal), Hexadecimal: T.idx(T.Hexadecimal),
  Octal: T.idx(T.Octal), Backtick: T.idx(T.BacktickString), Single: T.idx(T.SingleString), Double: T.idx(T.DoubleString),
  DoubleColon: T.idx(T.DoubleColon),
  Dash: T.idx(T.Dash), DashGt: T.idx(T.DashGt), LtDash: T.idx(T.LtDash),
  Eq: T.idx(T.Eq), EqGt: T.idx(T.EqGt), LtEq: T.idx(T.LtEq),
  TildeGt: T.idx(T.TildeGt), LtTilde: T.idx(T.LtTilde),
};

export const NO_LABELS: ReadonlyArray<Label> = Object.freeze([]);

const MEASUREMENT = /^(-?(?:0|[1-9][0-9]*))([a-zA-Z]+)$/;
const FENCE_TAG = /^```[ \t]*([^\s`]+)/;

// -------------------------------------------------------------------------------------------------
// spans and arrays
// -------------------------------------------------------------------------------------------------

export const span = (start: number, end: number): Span => ({ start: start === start ? start | 0 : -1, end: end === end ? end | 0 : -1 });

/** Small arrays at their exact size: a pushed-to empty array reserves room for 17 elements. */
export const fit = <A>(a: A[]): A[] => (a.length < 64 ? a.slice() : a);

// -------------------------------------------------------------------------------------------------
// names
// -------------------------------------------------------------------------------------------------

/** An identifier token (symbol, backtick name or integer). */
export const identifier = (i: number, image: string, payload: string | undefined, start: number, end: number): Identifier => ({
  kind: 'Identifier',
  style: i === ID.Symbol ? 'symbol' : i === ID.Backtick ? 'backtick' : 'integer',
  value: i === ID.Backtick ? (payload ?? '') : image,
  span: span(start, end),
});

/** A label: its separator (`:` or `::`) at `start`, its name token (symbol or backtick name) ending at `end`. */
export const label = (sep: number, name: number, image: string, payload: string | undefined, start: number, end: number): Label => {
  const backtick = name === ID.Backtick;
  return {
    kind: 'Label',
    separator: sep === ID.DoubleColon ? '::' : ':',
    style: backtick ? 'backtick' : 'symbol',
    name: backtick ? (payload ?? '') : image,
    span: span(start, end),
  };
};

/** A key token (symbol, backtick name or double-quoted name). */
export const key = (i: number, image: string, payload: string | undefined, start: number, end: number): Key => ({
  kind: 'Key',
  style: i === ID.Symbol ? 'symbol' : i === ID.Backtick ? 'backtick' : 'double',
  name: i === ID.Symbol ? image : (payload ?? ''),
  span: span(start, end),
});

// -------------------------------------------------------------------------------------------------
// values
// -------------------------------------------------------------------------------------------------

/** A number token; numbers that JSON cannot hold exactly are reported to `warnings`. */
export const numeric = (i: number, raw: string, start: number, end: number, warnings: Diagnostic[]): NumericValue => {
  const sp = span(start, end);
  switch (i) {
    case ID.Integer: {
      const value = Number(raw);
      if (!Number.isSafeInteger(value)) unsafe(raw, sp, warnings);
      return { kind: 'Integer', raw, value, span: sp };
    }
    case ID.Decimal: {
      const value = Number(raw);
      if (!Number.isFinite(value)) unsafe(raw, sp, warnings);
      return { kind: 'Decimal', raw, value, span: sp };
    }
    case ID.Hexadecimal: {
      const value = Number.parseInt(raw.slice(2), 16);
      if (!Number.isSafeInteger(value)) unsafe(raw, sp, warnings);
      return { kind: 'Hexadecimal', raw, value, span: sp };
    }
    case ID.Octal: {
      const value = Number.parseInt(raw.slice(1), 8);
      if (!Number.isSafeInteger(value)) unsafe(raw, sp, warnings);
      return { kind: 'Octal', raw, value, span: sp };
    }
    default: {
      const m = MEASUREMENT.exec(raw);
      const value = Number(m?.[1] ?? Number.NaN);
      if (m !== null && !Number.isSafeInteger(value)) unsafe(raw, sp, warnings);
      return { kind: 'Measurement', raw, value, unit: m?.[2] ?? '', span: sp };
    }
  }
};

/** Range bounds lower to plain numbers: a measurement's unit would be lost. */
export const rangeBound = (v: NumericValue, warnings: Diagnostic[]): void => {
  if (v.kind !== 'Measurement') return;
  warnings.push(
    warning(GramCodes.RANGE_UNIT, `the unit of \`${v.raw}\` is dropped: range bounds are plain numbers`, {
      span: v.span,
      hint: `write the bound as a number (${Number.isNaN(v.value) ? 'without the unit' : String(v.value)}) and put the unit in a separate property`,
    }),
  );
};

const unsafe = (raw: string, sp: Span, warnings: Diagnostic[]): void => {
  warnings.push(
    warning(GramCodes.UNSAFE_NUMBER, `\`${raw}\` is too large to be represented exactly as a JSON number`, {
      span: sp,
      hint: 'write it as a string if every digit matters',
    }),
  );
};

export const range = (
  form: RangeValue['form'],
  lower: NumericValue | undefined,
  upper: NumericValue | undefined,
  start: number,
  end: number,
): RangeValue => ({ kind: 'Range', form, lower, upper, span: span(start, end) });

export const boolean = (value: boolean, start: number, end: number): BooleanValue => ({ kind: 'Boolean', value, span: span(start, end) });

export const symbol = (name: string, start: number, end: number): SymbolValue => ({ kind: 'Symbol', name, span: span(start, end) });

/** A string token (single, double, backtick or fenced) with its decoded content. */
export const string = (i: number, value: string, start: number, end: number): StringValue => ({
  kind: 'String',
  style: i === ID.Double ? 'double' : i === ID.Single ? 'single' : i === ID.Backtick ? 'backtick' : 'fenced',
  value,
  span: span(start, end),
});

export const taggedString = (style: TaggedStringValue['style'], tag: string, content: string, start: number, end: number): TaggedStringValue => ({
  kind: 'TaggedString',
  style,
  tag,
  content,
  span: span(start, end),
});

/** The tag of a tagged fenced string, from its source text. */
export const fenceTag = (image: string): string => FENCE_TAG.exec(image)?.[1] ?? '';

export const array = (items: ReadonlyArray<Value>, start: number, end: number): ArrayValue => ({ kind: 'Array', items, span: span(start, end) });

export const map = (entries: ReadonlyArray<Property>, sp: Span): MapValue => ({ kind: 'Map', entries, span: sp });

// -------------------------------------------------------------------------------------------------
// records and subjects
// -------------------------------------------------------------------------------------------------

export const property = (k: Key, separator: Property['separator'], value: Value, end: number): Property => ({
  kind: 'Property',
  key: k,
  separator,
  value,
  span: span(k.span.start, end),
});

/** A record; its duplicate keys are reported to `warnings`. */
export const record = (properties: ReadonlyArray<Property>, start: number, end: number, warnings: Diagnostic[]): RecordNode => {
  if (properties.length > 1) duplicates(properties, (p) => p.key?.name, (p) => p.key?.span, 'key', warnings);
  return { kind: 'Record', properties, span: span(start, end) };
};

export const subject = (identifier: Identifier | undefined, labels: ReadonlyArray<Label>, record: RecordNode | undefined, sp: Span): Subject => ({
  kind: 'Subject',
  identifier,
  labels,
  record,
  span: sp,
});

// -------------------------------------------------------------------------------------------------
// patterns
// -------------------------------------------------------------------------------------------------

export const node = (subject: Subject | undefined, start: number, end: number): NodePattern => ({ kind: 'Node', subject, span: span(start, end) });

export const familyOf = (i: number): ArrowFamily =>
  i === ID.Dash || i === ID.DashGt || i === ID.LtDash ? '-' : i === ID.Eq || i === ID.EqGt || i === ID.LtEq ? '=' : '~';

/** An arrow from the type indexes of its halves (of one family: the parsers check that first). */
export const arrow = (left: number, right: number, bracketed: boolean, subject: Subject | undefined, start: number, end: number): Arrow => {
  const toLeft = left === ID.LtDash || left === ID.LtEq || left === ID.LtTilde;
  const toRight = right === ID.DashGt || right === ID.EqGt || right === ID.TildeGt;
  const direction: ArrowDirection = toLeft ? (toRight ? 'bidirectional' : 'left') : toRight ? 'right' : 'undirected';
  return { kind: 'Arrow', family: familyOf(left), direction, bracketed, subject, span: span(start, end) };
};

export const path = (nodes: ReadonlyArray<NodePattern>, arrows: ReadonlyArray<Arrow>): RelationshipPath => ({
  kind: 'Path',
  nodes,
  arrows,
  span: span(nodes[0]?.span.start ?? -1, nodes[nodes.length - 1]?.span.end ?? -1),
});

export const reference = (id: Identifier): PatternReference => ({ kind: 'Reference', identifier: id, span: id.span });

export const subjectPattern = (
  subject: Subject | undefined,
  elements: ReadonlyArray<SubjectPatternElement>,
  start: number,
  end: number,
): SubjectPattern => ({
  kind: 'SubjectPattern',
  subject,
  elements,
  span: span(start, end),
});

export const propertyAnnotation = (k: string, value: Value, start: number, end: number): PropertyAnnotation => ({
  kind: 'PropertyAnnotation',
  key: k,
  value,
  span: span(start, end),
});

export const identifiedAnnotation = (id: Identifier | undefined, labels: ReadonlyArray<Label>, start: number, end: number): IdentifiedAnnotation => ({
  kind: 'IdentifiedAnnotation',
  identifier: id,
  labels,
  span: span(start, end),
});

/** Annotations and their target; duplicate annotations are reported to `warnings`. */
export const annotated = (
  identified: IdentifiedAnnotation | undefined,
  annotations: ReadonlyArray<PropertyAnnotation>,
  target: SubjectPattern | PathPattern,
  warnings: Diagnostic[],
): AnnotatedPattern => {
  const first = identified?.span ?? annotations[0]?.span;
  if (annotations.length > 1) duplicates(annotations, (a) => a?.key, (a) => a?.span, 'annotation', warnings);
  return {
    kind: 'Annotated',
    identified,
    annotations,
    target,
    span: span(first?.start ?? -1, target?.span.end ?? -1),
  };
};

// -------------------------------------------------------------------------------------------------
// warnings
// -------------------------------------------------------------------------------------------------

/** Warns about names given twice in one record, map or annotation list (the last one wins). */
const duplicates = <A>(
  items: ReadonlyArray<A>,
  nameOf: (a: A) => string | undefined,
  spanOf: (a: A) => Span | undefined,
  what: 'key' | 'annotation',
  warnings: Diagnostic[],
): void => {
  const n = items.length;
  if (n <= 8) {
    for (let i = 1; i < n; i++) {
      const name = nameOf(items[i] as A);
      for (let j = 0; j < i; j++) {
        if (name !== undefined && nameOf(items[j] as A) === name) {
          duplicate(name, spanOf(items[j] as A), spanOf(items[i] as A), what, warnings);
          break;
        }
      }
    }
    return;
  }
  const seen = new Map<string, A>();
  for (const it of items) {
    const name = nameOf(it);
    if (name === undefined) continue;
    const before = seen.get(name);
    if (before !== undefined) duplicate(name, spanOf(before), spanOf(it), what, warnings);
    else seen.set(name, it);
  }
};

const duplicate = (name: string, first: Span | undefined, again: Span | undefined, what: 'key' | 'annotation', warnings: Diagnostic[]): void => {
  if (first === undefined || again === undefined) return;
  warnings.push(
    warning(
      what === 'key' ? GramCodes.DUPLICATE_KEY : GramCodes.DUPLICATE_ANNOTATION,
      what === 'key' ? `the key \`${name}\` is given twice; the last value wins` : `the annotation \`@${name}\` is given twice; the last value wins`,
      { span: again, related: [{ message: 'first given here', span: first }], hint: 'remove one of them' },
    ),
  );
};
