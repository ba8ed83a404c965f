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
  AnnotatedPattern,
  Arrow,
  ArrowDirection,
  ArrowFamily,
  ArrayValue,
  BooleanValue,
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
  RelationshipPath,
  StringValue,
  SubjectPattern,
  SubjectPatternElement,
  SymbolValue,
  TaggedStringValue,
  Value,
} from './ast.js';
import { type Diagnostic, warning } from '../core/diagnostic.js';
import { type Span, spanOf } from '../core/span.js';
import { keySpan } from './subject.js';
import * as T from './tokens.js';

// -------------------------------------------------------------------------------------------------
// constants
// -------------------------------------------------------------------------------------------------

const ID = {
  Symbol: T.idx(T.SymbolToken),
  Integer: T.idx(T.Integer),
  Decimal: T.idx(T.Decimal),
  Hexadecimal: T.idx(T.Hexadecimal),
  Octal: T.idx(T.Octal),
  Backtick: T.idx(T.BacktickString),
  Single: T.idx(T.SingleString),
  Double: T.idx(T.DoubleString),
  DoubleColon: T.idx(T.DoubleColon),
  Dash: T.idx(T.Dash),
  DashGt: T.idx(T.DashGt),
  LtDash: T.idx(T.LtDash),
  Eq: T.idx(T.Eq),
  EqGt: T.idx(T.EqGt),
  LtEq: T.idx(T.LtEq),
  TildeGt: T.idx(T.TildeGt),
  LtTilde: T.idx(T.LtTilde),
};

export const NO_LABELS: ReadonlyArray<Label> = Object.freeze([]);

const MEASUREMENT = /^(-?(?:0|[1-9][0-9]*))([a-zA-Z]+)$/;
const FENCE_TAG = /^```[ \t]*([^\s`]+)/;

// -------------------------------------------------------------------------------------------------
// spans and arrays
// -------------------------------------------------------------------------------------------------

/** An offset as a small integer; error recovery's NaN becomes -1. */
export const offset = (o: number): number => (o === o ? o | 0 : -1);

export const span = (start: number, end: number): Span => ({ start: offset(start), end: offset(end) });

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
  start: offset(start),
  end: offset(end),
});

/** A label: its separator (`:` or `::`) at `start`, its name token (symbol or backtick name) ending at `end`. */
export const label = (sep: number, name: number, image: string, payload: string | undefined, start: number, end: number): Label => {
  const backtick = name === ID.Backtick;
  return {
    kind: 'Label',
    separator: sep === ID.DoubleColon ? '::' : ':',
    style: backtick ? 'backtick' : 'symbol',
    name: backtick ? (payload ?? '') : image,
    start: offset(start),
    end: offset(end),
  };
};

// -------------------------------------------------------------------------------------------------
// values
// -------------------------------------------------------------------------------------------------

/** A number token; numbers that JSON cannot hold exactly are reported to `warnings`. */
export const numeric = (i: number, raw: string, start: number, end: number, warnings: Diagnostic[]): NumericValue => {
  const s = offset(start);
  const e = offset(end);
  switch (i) {
    case ID.Integer: {
      const value = Number(raw);
      if (!Number.isSafeInteger(value)) unsafe(raw, s, e, warnings);
      return { kind: 'Integer', raw, value, start: s, end: e };
    }
    case ID.Decimal: {
      const value = Number(raw);
      if (!Number.isFinite(value)) unsafe(raw, s, e, warnings);
      return { kind: 'Decimal', raw, value, start: s, end: e };
    }
    case ID.Hexadecimal: {
      const value = Number.parseInt(raw.slice(2), 16);
      if (!Number.isSafeInteger(value)) unsafe(raw, s, e, warnings);
      return { kind: 'Hexadecimal', raw, value, start: s, end: e };
    }
    case ID.Octal: {
      const value = Number.parseInt(raw.slice(1), 8);
      if (!Number.isSafeInteger(value)) unsafe(raw, s, e, warnings);
      return { kind: 'Octal', raw, value, start: s, end: e };
    }
    default: {
      const m = MEASUREMENT.exec(raw);
      const value = Number(m?.[1] ?? Number.NaN);
      if (m !== null && !Number.isSafeInteger(value)) unsafe(raw, s, e, warnings);
      return { kind: 'Measurement', raw, value, unit: m?.[2] ?? '', start: s, end: e };
    }
  }
};

/** Range bounds lower to plain numbers: a measurement's unit would be lost. */
export const rangeBound = (v: NumericValue, warnings: Diagnostic[]): void => {
  if (v.kind !== 'Measurement') return;
  warnings.push(
    warning(GramCodes.RANGE_UNIT, `the unit of \`${v.raw}\` is dropped: range bounds are plain numbers`, {
      span: spanOf(v),
      hint: `write the bound as a number (${Number.isNaN(v.value) ? 'without the unit' : String(v.value)}) and put the unit in a separate property`,
    }),
  );
};

const unsafe = (raw: string, start: number, end: number, warnings: Diagnostic[]): void => {
  warnings.push(
    warning(GramCodes.UNSAFE_NUMBER, `\`${raw}\` is too large to be represented exactly as a JSON number`, {
      span: span(start, end),
      hint: 'write it as a string if every digit matters',
    }),
  );
};

export const range = (form: RangeValue['form'], lower: NumericValue | undefined, upper: NumericValue | undefined, start: number, end: number): RangeValue => ({
  kind: 'Range',
  form,
  lower,
  upper,
  start: offset(start),
  end: offset(end),
});

export const boolean = (value: boolean, start: number, end: number): BooleanValue => ({ kind: 'Boolean', value, start: offset(start), end: offset(end) });

export const symbol = (name: string, start: number, end: number): SymbolValue => ({ kind: 'Symbol', name, start: offset(start), end: offset(end) });

/** A string token (single, double, backtick or fenced) with its decoded content. */
export const string = (i: number, value: string, start: number, end: number): StringValue => ({
  kind: 'String',
  style: i === ID.Double ? 'double' : i === ID.Single ? 'single' : i === ID.Backtick ? 'backtick' : 'fenced',
  value,
  start: offset(start),
  end: offset(end),
});

export const taggedString = (style: TaggedStringValue['style'], tag: string, content: string, start: number, end: number): TaggedStringValue => ({
  kind: 'TaggedString',
  style,
  tag,
  content,
  start: offset(start),
  end: offset(end),
});

/** The tag of a tagged fenced string, from its source text. */
export const fenceTag = (image: string): string => FENCE_TAG.exec(image)?.[1] ?? '';

export const array = (items: ReadonlyArray<Value>, start: number, end: number): ArrayValue => ({
  kind: 'Array',
  items,
  start: offset(start),
  end: offset(end),
});

export const map = (entries: ReadonlyArray<Property>, start: number, end: number): MapValue => ({
  kind: 'Map',
  entries,
  start: offset(start),
  end: offset(end),
});

// -------------------------------------------------------------------------------------------------
// records and subjects
// -------------------------------------------------------------------------------------------------

/** A property from its key token (symbol, backtick name or double-quoted name), separator and value. */
export const property = (
  i: number,
  image: string,
  payload: string | undefined,
  keyStart: number,
  keyEnd: number,
  separator: Property['separator'],
  value: Value,
  end: number,
): Property => ({
  kind: 'Property',
  key: i === ID.Symbol ? image : (payload ?? ''),
  keyStyle: i === ID.Symbol ? 'symbol' : i === ID.Backtick ? 'backtick' : 'double',
  keyEnd: offset(keyEnd),
  separator,
  value,
  start: offset(keyStart),
  end: offset(end),
});

/** A record; its duplicate keys are reported to `warnings`. */
export const record = (properties: ReadonlyArray<Property>, start: number, end: number, warnings: Diagnostic[]): RecordNode => {
  if (properties.length > 1) duplicates(properties, propertyName, propertyKeySpan, 'key', warnings);
  return { kind: 'Record', properties, start: offset(start), end: offset(end) };
};

// -------------------------------------------------------------------------------------------------
// patterns
// -------------------------------------------------------------------------------------------------

/**
 * A node. Every pattern with a subject holds its three fields, absent ones as `undefined` (and
 * `NO_LABELS`), so that all nodes share one object shape.
 */
export const node = (
  identifier: Identifier | undefined,
  labels: ReadonlyArray<Label>,
  record: RecordNode | undefined,
  start: number,
  end: number,
): NodePattern => ({
  kind: 'Node',
  identifier,
  labels,
  record,
  start: offset(start),
  end: offset(end),
});

export const familyOf = (i: number): ArrowFamily =>
  i === ID.Dash || i === ID.DashGt || i === ID.LtDash ? '-' : i === ID.Eq || i === ID.EqGt || i === ID.LtEq ? '=' : '~';

/** An arrow from the type indexes of its halves (of one family: the parsers check that first). */
export const arrow = (
  left: number,
  right: number,
  bracketed: boolean,
  identifier: Identifier | undefined,
  labels: ReadonlyArray<Label>,
  record: RecordNode | undefined,
  start: number,
  end: number,
): Arrow => {
  const toLeft = left === ID.LtDash || left === ID.LtEq || left === ID.LtTilde;
  const toRight = right === ID.DashGt || right === ID.EqGt || right === ID.TildeGt;
  const direction: ArrowDirection = toLeft ? (toRight ? 'bidirectional' : 'left') : toRight ? 'right' : 'undirected';
  return { kind: 'Arrow', family: familyOf(left), direction, bracketed, identifier, labels, record, start: offset(start), end: offset(end) };
};

export const path = (nodes: ReadonlyArray<NodePattern>, arrows: ReadonlyArray<Arrow>): RelationshipPath => ({
  kind: 'Path',
  nodes,
  arrows,
  start: nodes[0]?.start ?? -1,
  end: nodes[nodes.length - 1]?.end ?? -1,
});

export const reference = (id: Identifier): PatternReference => ({ kind: 'Reference', identifier: id, start: id.start, end: id.end });

export const subjectPattern = (
  identifier: Identifier | undefined,
  labels: ReadonlyArray<Label>,
  record: RecordNode | undefined,
  elements: ReadonlyArray<SubjectPatternElement>,
  start: number,
  end: number,
): SubjectPattern => ({
  kind: 'SubjectPattern',
  identifier,
  labels,
  record,
  elements,
  start: offset(start),
  end: offset(end),
});

export const propertyAnnotation = (k: string, value: Value, start: number, end: number): PropertyAnnotation => ({
  kind: 'PropertyAnnotation',
  key: k,
  value,
  start: offset(start),
  end: offset(end),
});

export const identifiedAnnotation = (id: Identifier | undefined, labels: ReadonlyArray<Label>, start: number, end: number): IdentifiedAnnotation => ({
  kind: 'IdentifiedAnnotation',
  identifier: id,
  labels,
  start: offset(start),
  end: offset(end),
});

/** Annotations and their target; duplicate annotations are reported to `warnings`. */
export const annotated = (
  identified: IdentifiedAnnotation | undefined,
  annotations: ReadonlyArray<PropertyAnnotation>,
  target: SubjectPattern | PathPattern,
  warnings: Diagnostic[],
): AnnotatedPattern => {
  const first = identified ?? annotations[0];
  if (annotations.length > 1) duplicates(annotations, annotationName, annotationSpan, 'annotation', warnings);
  return {
    kind: 'Annotated',
    identified,
    annotations,
    target,
    start: first?.start ?? -1,
    end: target?.end ?? -1,
  };
};

// -------------------------------------------------------------------------------------------------
// warnings
// -------------------------------------------------------------------------------------------------

// How `duplicates` reads names and positions (error recovery may leave `undefined` in a list).
const propertyName = (p: Property | undefined): string | undefined => p?.key;
const propertyKeySpan = (p: Property | undefined): Span | undefined => (p === undefined ? undefined : keySpan(p));
const annotationName = (a: PropertyAnnotation | undefined): string | undefined => a?.key;
const annotationSpan = (a: PropertyAnnotation | undefined): Span | undefined => (a === undefined ? undefined : spanOf(a));

/** Warns about names given twice in one record, map or annotation list (the last one wins). */
const duplicates = <A>(
  items: ReadonlyArray<A>,
  nameOf: (a: A) => string | undefined,
  locate: (a: A) => Span | undefined,
  what: 'key' | 'annotation',
  warnings: Diagnostic[],
): void => {
  const n = items.length;
  if (n <= 8) {
    for (let i = 1; i < n; i++) {
      const name = nameOf(items[i] as A);
      for (let j = 0; j < i; j++) {
        if (name !== undefined && nameOf(items[j] as A) === name) {
          duplicate(name, locate(items[j] as A), locate(items[i] as A), what, warnings);
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
    if (before !== undefined) duplicate(name, locate(before), locate(it), what, warnings);
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
