/**
 * The typed, readonly AST of a gram document.
 *
 * It keeps everything a printer needs so as not to lose what a user wrote: the header record,
 * comments (with their spans, re-attached by position when printing), arrow families and
 * directions, label separators (`:` / `::`), the quoting style of strings, names and keys, and the
 * raw text of numbers. Every node has a `span` of offsets into the source (see `span.ts`).
 *
 * Paths are flat (`nodes` and `arrows`), not right-nested as in tree-sitter's CST, so long paths
 * never need deep recursion to walk.
 */
import type { Diagnostic } from '../core/diagnostic.js';
import type { Span } from '../core/span.js';

// -------------------------------------------------------------------------------------------------
// names
// -------------------------------------------------------------------------------------------------

/** A pattern identity: `a`, `` `a b` ``, or `42`. `value` is decoded (backticks and escapes removed). */
export interface Identifier {
  readonly kind: 'Identifier';
  readonly style: 'symbol' | 'backtick' | 'integer';
  readonly value: string;
  readonly span: Span;
}

/** One label with its separator: `:Person`, `::Text`, `` :`Two words` ``. */
export interface Label {
  readonly kind: 'Label';
  readonly separator: ':' | '::';
  readonly style: 'symbol' | 'backtick';
  readonly name: string;
  readonly span: Span;
}

/** A record or map key: `name`, `` `a key` ``, `"a key"`. */
export interface Key {
  readonly kind: 'Key';
  readonly style: 'symbol' | 'backtick' | 'double';
  readonly name: string;
  readonly span: Span;
}

// -------------------------------------------------------------------------------------------------
// values
// -------------------------------------------------------------------------------------------------

/** `'a'`, `"a"`, `` `a` `` or a fenced string. `value` is decoded; fenced content is raw (final newline included). */
export interface StringValue {
  readonly kind: 'String';
  readonly style: 'single' | 'double' | 'backtick' | 'fenced';
  readonly value: string;
  readonly span: Span;
}

/** `` date`2024-01-15` `` (inline) or a fenced string with a tag after the opening fence. */
export interface TaggedStringValue {
  readonly kind: 'TaggedString';
  readonly style: 'inline' | 'fenced';
  readonly tag: string;
  readonly content: string;
  readonly span: Span;
}

/** `42`, `-7`. `raw` is the source text (exact even beyond 2^53); `value` its number. */
export interface IntegerValue {
  readonly kind: 'Integer';
  readonly raw: string;
  readonly value: number;
  readonly span: Span;
}

/** `3.14`, `-0.5`. */
export interface DecimalValue {
  readonly kind: 'Decimal';
  readonly raw: string;
  readonly value: number;
  readonly span: Span;
}

/** `0xFF`; lowers to an integer. */
export interface HexadecimalValue {
  readonly kind: 'Hexadecimal';
  readonly raw: string;
  readonly value: number;
  readonly span: Span;
}

/** `042`; lowers to an integer. */
export interface OctalValue {
  readonly kind: 'Octal';
  readonly raw: string;
  readonly value: number;
  readonly span: Span;
}

/** `168cm`: an integer immediately followed by a unit. */
export interface MeasurementValue {
  readonly kind: 'Measurement';
  readonly raw: string;
  readonly value: number;
  readonly unit: string;
  readonly span: Span;
}

export type NumericValue = IntegerValue | DecimalValue | HexadecimalValue | OctalValue | MeasurementValue;

/** `1..10` (closed), `1...` (from), `...10` (to). */
export interface RangeValue {
  readonly kind: 'Range';
  readonly form: 'closed' | 'from' | 'to';
  readonly lower?: NumericValue;
  readonly upper?: NumericValue;
  readonly span: Span;
}

export interface BooleanValue {
  readonly kind: 'Boolean';
  readonly value: boolean;
  readonly span: Span;
}

/** A bare symbol in value position: `{status: active}`. */
export interface SymbolValue {
  readonly kind: 'Symbol';
  readonly name: string;
  readonly span: Span;
}

/**
 * `[1, "x", true]`. Standard gram allows scalars only and no empty array; gramkit's default mode
 * also accepts nested arrays and maps and `[]` (reported in strict mode).
 */
export interface ArrayValue {
  readonly kind: 'Array';
  readonly items: ReadonlyArray<Value>;
  readonly span: Span;
}

/** One `key: value` entry of a map or record. `separator` is `::` only in records. */
export interface Property {
  readonly kind: 'Property';
  readonly key: Key;
  readonly separator: ':' | '::';
  readonly value: Value;
  readonly span: Span;
}

/** `{city: "P", zip: 97201}` in value position. Nested values inside are an extension (see ArrayValue). */
export interface MapValue {
  readonly kind: 'Map';
  readonly entries: ReadonlyArray<Property>;
  readonly span: Span;
}

export type ScalarValue =
  | StringValue
  | TaggedStringValue
  | NumericValue
  | RangeValue
  | BooleanValue
  | SymbolValue;

export type Value = ScalarValue | ArrayValue | MapValue;

// -------------------------------------------------------------------------------------------------
// subjects
// -------------------------------------------------------------------------------------------------

/** `{k: v, ...}` in subject position (after a node's identifier and labels, or as the header). */
export interface RecordNode {
  readonly kind: 'Record';
  readonly properties: ReadonlyArray<Property>;
  readonly span: Span;
}

/** Identity, labels and record; at least one is present (an absent subject is `undefined`). */
export interface Subject {
  readonly kind: 'Subject';
  readonly identifier?: Identifier;
  readonly labels: ReadonlyArray<Label>;
  readonly record?: RecordNode;
  readonly span: Span;
}

// -------------------------------------------------------------------------------------------------
// patterns
// -------------------------------------------------------------------------------------------------

/** `(subject?)` */
export interface NodePattern {
  readonly kind: 'Node';
  readonly subject?: Subject;
  readonly span: Span;
}

export type ArrowFamily = '-' | '=' | '~';
export type ArrowDirection = 'right' | 'left' | 'undirected' | 'bidirectional';

/**
 * The arrow between two nodes, e.g. `-[r:KNOWS]->`, `==>`, `<~~`. `bracketed` is true when the
 * source had `[...]` (possibly empty, `-[]->`); `subject` is the relationship's subject.
 */
export interface Arrow {
  readonly kind: 'Arrow';
  readonly family: ArrowFamily;
  readonly direction: ArrowDirection;
  readonly bracketed: boolean;
  readonly subject?: Subject;
  readonly span: Span;
}

/**
 * A path of two or more nodes: `(a)-[r]->(b)<--(c)`. Always `nodes.length === arrows.length + 1`
 * and `arrows.length >= 1`; `arrows[i]` joins `nodes[i]` and `nodes[i + 1]`.
 */
export interface RelationshipPath {
  readonly kind: 'Path';
  readonly nodes: ReadonlyArray<NodePattern>;
  readonly arrows: ReadonlyArray<Arrow>;
  readonly span: Span;
}

/** A path in the grammar's sense: a lone node or a relationship path. */
export type PathPattern = NodePattern | RelationshipPath;

/** A bare identifier inside a subject pattern's element list: a reference to a pattern defined elsewhere. */
export interface PatternReference {
  readonly kind: 'Reference';
  readonly identifier: Identifier;
  readonly span: Span;
}

export type SubjectPatternElement = SubjectPattern | PathPattern | PatternReference;

/**
 * `[subject? | elements]`. A `|` is written exactly when `elements` is non-empty (an empty element
 * list after a pipe is a syntax error).
 */
export interface SubjectPattern {
  readonly kind: 'SubjectPattern';
  readonly subject?: Subject;
  readonly elements: ReadonlyArray<SubjectPatternElement>;
  readonly span: Span;
}

/** `@key(value)` */
export interface PropertyAnnotation {
  readonly kind: 'PropertyAnnotation';
  readonly key: string;
  readonly value: Value;
  readonly span: Span;
}

/** `@@id:Label` (identifier, labels, or both). */
export interface IdentifiedAnnotation {
  readonly kind: 'IdentifiedAnnotation';
  readonly identifier?: Identifier;
  readonly labels: ReadonlyArray<Label>;
  readonly span: Span;
}

/** Annotations followed by the pattern they wrap. */
export interface AnnotatedPattern {
  readonly kind: 'Annotated';
  readonly identified?: IdentifiedAnnotation;
  readonly annotations: ReadonlyArray<PropertyAnnotation>;
  readonly target: SubjectPattern | PathPattern;
  readonly span: Span;
}

export type TopLevelPattern = AnnotatedPattern | SubjectPattern | PathPattern;

/** `// text` to the end of the line. `text` excludes the `//` (and a trailing carriage return). */
export interface Comment {
  readonly kind: 'Comment';
  readonly text: string;
  readonly span: Span;
  /** True when code precedes the comment on its line (`(a) // note`); absent for a comment on its own line. */
  readonly endOfLine?: boolean;
}

/** A whole file: an optional header record, the top-level patterns, and every comment in source order. */
export interface GramDocument {
  readonly kind: 'Document';
  readonly header?: RecordNode;
  readonly patterns: ReadonlyArray<TopLevelPattern>;
  readonly comments: ReadonlyArray<Comment>;
  readonly span: Span;
  /** The file name given to `parseGram`, if any (diagnostics about this document use it). */
  readonly filename?: string;
  /**
   * Layout: offsets of blank lines in the source (one per run of blank lines), so the formatter
   * keeps paragraphs apart. Absent on documents built by hand.
   */
  readonly blankLines?: ReadonlyArray<number>;
  /** Warnings about a document that parsed (duplicate keys, integers that lose precision). */
  readonly warnings?: ReadonlyArray<Diagnostic>;
}

export type AstNode =
  | GramDocument
  | TopLevelPattern
  | RelationshipPath
  | Arrow
  | PatternReference
  | PropertyAnnotation
  | IdentifiedAnnotation
  | Subject
  | RecordNode
  | Property
  | Value
  | Identifier
  | Label
  | Key
  | Comment;
