/**
 * The typed, readonly AST of a gram document.
 *
 * It keeps everything a printer needs so as not to lose what a user wrote: the header record,
 * comments (with their spans, re-attached by position when printing), arrow families and
 * directions, label separators (`:` / `::`), the quoting style of strings, names and keys, and the
 * raw text of numbers. Every node is its own `Span`: `start` and `end` are UTF-16 offsets into the
 * source (half-open, as ESTree's), held on the node itself rather than in an object of their own,
 * which keeps a large document's AST a quarter smaller (see `span.ts`).
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
export interface Identifier extends Span {
  readonly kind: 'Identifier';
  readonly style: 'symbol' | 'backtick' | 'integer';
  readonly value: string;
}

/** One label with its separator: `:Person`, `::Text`, `` :`Two words` ``. */
export interface Label extends Span {
  readonly kind: 'Label';
  readonly separator: ':' | '::';
  readonly style: 'symbol' | 'backtick';
  readonly name: string;
}

// -------------------------------------------------------------------------------------------------
// values
// -------------------------------------------------------------------------------------------------

/** `'a'`, `"a"`, `` `a` `` or a fenced string. `value` is decoded; fenced content is raw (final newline included). */
export interface StringValue extends Span {
  readonly kind: 'String';
  readonly style: 'single' | 'double' | 'backtick' | 'fenced';
  readonly value: string;
}

/** `` date`2024-01-15` `` (inline) or a fenced string with a tag after the opening fence. */
export interface TaggedStringValue extends Span {
  readonly kind: 'TaggedString';
  readonly style: 'inline' | 'fenced';
  readonly tag: string;
  readonly content: string;
}

/** `42`, `-7`. `raw` is the source text (exact even beyond 2^53); `value` its number. */
export interface IntegerValue extends Span {
  readonly kind: 'Integer';
  readonly raw: string;
  readonly value: number;
}

/** `3.14`, `-0.5`. */
export interface DecimalValue extends Span {
  readonly kind: 'Decimal';
  readonly raw: string;
  readonly value: number;
}

/** `0xFF`; lowers to an integer. */
export interface HexadecimalValue extends Span {
  readonly kind: 'Hexadecimal';
  readonly raw: string;
  readonly value: number;
}

/** `042`; lowers to an integer. */
export interface OctalValue extends Span {
  readonly kind: 'Octal';
  readonly raw: string;
  readonly value: number;
}

/** `168cm`: an integer immediately followed by a unit. */
export interface MeasurementValue extends Span {
  readonly kind: 'Measurement';
  readonly raw: string;
  readonly value: number;
  readonly unit: string;
}

export type NumericValue = IntegerValue | DecimalValue | HexadecimalValue | OctalValue | MeasurementValue;

/** `1..10` (closed), `1...` (from), `...10` (to). */
export interface RangeValue extends Span {
  readonly kind: 'Range';
  readonly form: 'closed' | 'from' | 'to';
  readonly lower?: NumericValue;
  readonly upper?: NumericValue;
}

export interface BooleanValue extends Span {
  readonly kind: 'Boolean';
  readonly value: boolean;
}

/** A bare symbol in value position: `{status: active}`. */
export interface SymbolValue extends Span {
  readonly kind: 'Symbol';
  readonly name: string;
}

/**
 * `[1, "x", true]`. Standard gram allows scalars only and no empty array; gramkit's default mode
 * also accepts nested arrays and maps and `[]` (reported in strict mode).
 */
export interface ArrayValue extends Span {
  readonly kind: 'Array';
  readonly items: ReadonlyArray<Value>;
}

/**
 * One `key: value` entry of a map or record. `key` is the decoded name, written as `keyStyle` says
 * (`name`, `` `a key` ``, `"a key"`); the key spans `start` to `keyEnd` (see `keySpan`).
 * `separator` is `::` only in records.
 */
export interface Property extends Span {
  readonly kind: 'Property';
  readonly key: string;
  readonly keyStyle: 'symbol' | 'backtick' | 'double';
  readonly keyEnd: number;
  readonly separator: ':' | '::';
  readonly value: Value;
}

/** `{city: "P", zip: 97201}` in value position. Nested values inside are an extension (see ArrayValue). */
export interface MapValue extends Span {
  readonly kind: 'Map';
  readonly entries: ReadonlyArray<Property>;
}

export type ScalarValue = StringValue | TaggedStringValue | NumericValue | RangeValue | BooleanValue | SymbolValue;

export type Value = ScalarValue | ArrayValue | MapValue;

// -------------------------------------------------------------------------------------------------
// subjects
// -------------------------------------------------------------------------------------------------

/** `{k: v, ...}` in subject position (after a node's identifier and labels, or as the header). */
export interface RecordNode extends Span {
  readonly kind: 'Record';
  readonly properties: ReadonlyArray<Property>;
}

/**
 * What a node, an arrow's brackets or a subject pattern says of its subject: an identity, labels
 * and a record, each optional (`()` has none; `labels` is then empty). The fields sit on the
 * pattern itself, as in tree-sitter-gram's CST (`node_pattern(identifier?, labels?, record?)`),
 * not in an object of their own; with keys held by their properties (`Property`), that makes a
 * large document's AST a sixth smaller. `subjectSpan` (in `gramkit/gram`) gives their extent,
 * `hasSubject` whether any is written.
 */
export interface Subject {
  readonly identifier?: Identifier;
  readonly labels: ReadonlyArray<Label>;
  readonly record?: RecordNode;
}

// -------------------------------------------------------------------------------------------------
// patterns
// -------------------------------------------------------------------------------------------------

/** `(subject?)`: `(a:Person {name: "x"})`, `()`. */
export interface NodePattern extends Span, Subject {
  readonly kind: 'Node';
}

export type ArrowFamily = '-' | '=' | '~';
export type ArrowDirection = 'right' | 'left' | 'undirected' | 'bidirectional';

/**
 * The arrow between two nodes, e.g. `-[r:KNOWS]->`, `==>`, `<~~`. `bracketed` is true when the
 * source had `[...]` (possibly empty, `-[]->`); the subject fields are the relationship's.
 */
export interface Arrow extends Span, Subject {
  readonly kind: 'Arrow';
  readonly family: ArrowFamily;
  readonly direction: ArrowDirection;
  readonly bracketed: boolean;
}

/**
 * A path of two or more nodes: `(a)-[r]->(b)<--(c)`. Always `nodes.length === arrows.length + 1`
 * and `arrows.length >= 1`; `arrows[i]` joins `nodes[i]` and `nodes[i + 1]`.
 */
export interface RelationshipPath extends Span {
  readonly kind: 'Path';
  readonly nodes: ReadonlyArray<NodePattern>;
  readonly arrows: ReadonlyArray<Arrow>;
}

/** A path in the grammar's sense: a lone node or a relationship path. */
export type PathPattern = NodePattern | RelationshipPath;

/** A bare identifier inside a subject pattern's element list: a reference to a pattern defined elsewhere. */
export interface PatternReference extends Span {
  readonly kind: 'Reference';
  readonly identifier: Identifier;
}

export type SubjectPatternElement = SubjectPattern | PathPattern | PatternReference;

/**
 * `[subject? | elements]`. A `|` is written exactly when `elements` is non-empty (an empty element
 * list after a pipe is a syntax error).
 */
export interface SubjectPattern extends Span, Subject {
  readonly kind: 'SubjectPattern';
  readonly elements: ReadonlyArray<SubjectPatternElement>;
}

/** `@key(value)` */
export interface PropertyAnnotation extends Span {
  readonly kind: 'PropertyAnnotation';
  readonly key: string;
  readonly value: Value;
}

/** `@@id:Label` (identifier, labels, or both). */
export interface IdentifiedAnnotation extends Span {
  readonly kind: 'IdentifiedAnnotation';
  readonly identifier?: Identifier;
  readonly labels: ReadonlyArray<Label>;
}

/** Annotations followed by the pattern they wrap. */
export interface AnnotatedPattern extends Span {
  readonly kind: 'Annotated';
  readonly identified?: IdentifiedAnnotation;
  readonly annotations: ReadonlyArray<PropertyAnnotation>;
  readonly target: SubjectPattern | PathPattern;
}

export type TopLevelPattern = AnnotatedPattern | SubjectPattern | PathPattern;

/** `// text` to the end of the line. `text` excludes the `//` (and a trailing carriage return). */
export interface Comment extends Span {
  readonly kind: 'Comment';
  readonly text: string;
  /** True when code precedes the comment on its line (`(a) // note`); absent for a comment on its own line. */
  readonly endOfLine?: boolean;
}

/** A whole file: an optional header record, the top-level patterns, and every comment in source order. */
export interface GramDocument extends Span {
  readonly kind: 'Document';
  readonly header?: RecordNode;
  readonly patterns: ReadonlyArray<TopLevelPattern>;
  readonly comments: ReadonlyArray<Comment>;
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
  | RecordNode
  | Property
  | Value
  | Identifier
  | Label
  | Comment;
