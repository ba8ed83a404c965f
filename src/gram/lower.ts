/**
 * Lowering: a gram document to patterns, `{subject: {identity, labels, properties}, elements}`,
 * the data model of gram-hs (NOTES §2), with these decisions:
 *
 * - a relationship `(a)-[r]->(b)` is the pattern `[r | a, b]`; a left arrow reverses the elements
 *   (`(a)<-[r]-(b)` is `[r | b, a]`); undirected and bidirectional keep source order;
 * - each relationship of a multi-hop path is its own two-element pattern (`(a)-->(b)-->(c)` gives
 *   `[ | a, b]` and `[ | b, c]`), at top level and inside element lists;
 * - annotations become an anonymous wrapper whose properties are the annotation keys and whose
 *   elements are the lowered target (`@@id:L` sets the wrapper's identity and labels);
 * - a reference `a` inside an element list is the atom `{identity: "a"}` (references are not
 *   resolved); integer identities become their decimal string (`(42)` has identity `"42"`);
 * - labels are a set (sorted, duplicates removed); properties a map (a repeated key keeps the last
 *   value; the parser warns about it);
 * - values lower as `valueToJson` says; the header record is returned separately.
 */
import type {
  AnnotatedPattern,
  GramDocument,
  Identifier,
  Label,
  NodePattern,
  NumericValue,
  PathPattern,
  Property,
  RecordNode,
  Subject,
  SubjectPattern,
  SubjectPatternElement,
  TopLevelPattern,
  Value,
} from './ast.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** A JSON value (structurally the same as the spec layer's `JsonValue`). */
export type GramJson = string | number | boolean | null | ReadonlyArray<GramJson> | { readonly [key: string]: GramJson };

export type GramProperties = { readonly [key: string]: GramJson };

export interface PatternSubject {
  /** `""` for an anonymous pattern. */
  readonly identity: string;
  /** Sorted, without duplicates. */
  readonly labels: ReadonlyArray<string>;
  readonly properties: GramProperties;
}

/** `Pattern<Subject>`: 0 elements is an atom (node), 1 an annotation wrapper, 2 a relationship, N a list. */
export interface GramPattern {
  readonly subject: PatternSubject;
  readonly elements: ReadonlyArray<GramPattern>;
}

export interface LoweredDocument {
  /** The header record's properties, when the document has one. */
  readonly header?: GramProperties;
  readonly patterns: ReadonlyArray<GramPattern>;
}

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

/** Compares strings by Unicode code point (not UTF-16 unit), the order of canonical JSON. */
export const compareCodePoints = (a: string, b: string): number => {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800) x += x <= 0xdfff ? 0x2000 : -0x800;
    if (y >= 0xd800) y += y <= 0xdfff ? 0x2000 : -0x800;
    return x - y;
  }
  return a.length - b.length;
};

/** Sets `key` on a fresh object even when it is `__proto__`. */
const put = (o: Record<string, GramJson>, key: string, value: GramJson): void => {
  if (key === '__proto__') Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
  else o[key] = value;
};

const numberOf = (v: NumericValue | undefined): number | null => (v === undefined ? null : v.value);

// -------------------------------------------------------------------------------------------------
// values
// -------------------------------------------------------------------------------------------------

/**
 * An AST value as plain JSON, as lowering writes it: strings (any quoting) as strings; integers,
 * decimals, hexadecimal and octal as numbers; booleans; arrays and maps as arrays and objects;
 * `sym` as `{"type":"symbol","value":"sym"}`; ``tag`content` `` as
 * `{"type":"tagged","tag":"tag","content":"content"}`; `1..10` as
 * `{"type":"range","lower":1,"upper":10}` (a missing bound is `null`; a measurement bound keeps
 * its number); `168cm` as `{"type":"measurement","unit":"cm","value":168}`.
 */
export const valueToJson = (v: Value): GramJson => {
  switch (v.kind) {
    case 'String':
      return v.value;
    case 'Integer':
    case 'Decimal':
    case 'Hexadecimal':
    case 'Octal':
      return v.value;
    case 'Boolean':
      return v.value;
    case 'Symbol':
      return { type: 'symbol', value: v.name };
    case 'TaggedString':
      return { type: 'tagged', tag: v.tag, content: v.content };
    case 'Measurement':
      return { type: 'measurement', unit: v.unit, value: v.value };
    case 'Range':
      return { type: 'range', lower: numberOf(v.lower), upper: numberOf(v.upper) };
    case 'Array':
      return v.items.map(valueToJson);
    case 'Map':
      return propertiesToJson(v.entries);
  }
};

/** Entries as a JSON object; a repeated key keeps its last value. */
export const propertiesToJson = (entries: ReadonlyArray<Property>): GramProperties => {
  const o: Record<string, GramJson> = {};
  for (const e of entries) put(o, e.key, valueToJson(e.value));
  return o;
};

/** A record's properties as a JSON object (empty without a record). */
export const recordToJson = (r: RecordNode | undefined): GramProperties => (r === undefined ? {} : propertiesToJson(r.properties));

/** The identity of an identifier: its name, or the decimal form of an integer (`-0` is `"0"`). */
export const identityOf = (i: Identifier | undefined): string => {
  if (i === undefined) return '';
  if (i.style !== 'integer') return i.value;
  try {
    return BigInt(i.value).toString();
  } catch {
    return i.value;
  }
};

/** Label names as a set: sorted by code point, without duplicates. */
export const labelSet = (labels: ReadonlyArray<Label>): ReadonlyArray<string> => {
  if (labels.length === 0) return [];
  if (labels.length === 1) return [(labels[0] as Label).name];
  return [...new Set(labels.map((l) => l.name))].sort(compareCodePoints);
};

// -------------------------------------------------------------------------------------------------
// patterns
// -------------------------------------------------------------------------------------------------

const EMPTY: ReadonlyArray<GramPattern> = Object.freeze([]);

const subjectOf = (s: Subject): PatternSubject => ({ identity: identityOf(s.identifier), labels: labelSet(s.labels), properties: recordToJson(s.record) });

const atom = (n: NodePattern): GramPattern => ({ subject: subjectOf(n), elements: EMPTY });

/** A path as patterns: a node is one atom; a path one relationship pattern per arrow. */
const lowerPath = (p: PathPattern, out: GramPattern[]): void => {
  if (p.kind === 'Node') {
    out.push(atom(p));
    return;
  }
  let left = atom(p.nodes[0] as NodePattern);
  for (let i = 0; i < p.arrows.length; i++) {
    const a = p.arrows[i];
    const next = p.nodes[i + 1];
    if (a === undefined || next === undefined) break;
    const right = atom(next);
    out.push({ subject: subjectOf(a), elements: a.direction === 'left' ? [right, left] : [left, right] });
    left = right;
  }
};

const lowerSubjectPattern = (p: SubjectPattern): GramPattern => {
  const elements: GramPattern[] = [];
  for (const e of p.elements) lowerElement(e, elements);
  return { subject: subjectOf(p), elements };
};

const lowerElement = (e: SubjectPatternElement, out: GramPattern[]): void => {
  switch (e.kind) {
    case 'Reference':
      out.push({ subject: { identity: identityOf(e.identifier), labels: [], properties: {} }, elements: EMPTY });
      return;
    case 'SubjectPattern':
      out.push(lowerSubjectPattern(e));
      return;
    default:
      lowerPath(e, out);
  }
};

const lowerAnnotated = (p: AnnotatedPattern): GramPattern => {
  const properties: Record<string, GramJson> = {};
  for (const a of p.annotations) put(properties, a.key, valueToJson(a.value));
  const elements: GramPattern[] = [];
  if (p.target.kind === 'SubjectPattern') elements.push(lowerSubjectPattern(p.target));
  else lowerPath(p.target, elements);
  return {
    subject: { identity: identityOf(p.identified?.identifier), labels: labelSet(p.identified?.labels ?? []), properties },
    elements,
  };
};

/** One top-level pattern as patterns (a multi-hop path gives one per relationship). */
export const lowerPattern = (p: TopLevelPattern, out: GramPattern[] = []): GramPattern[] => {
  switch (p.kind) {
    case 'Annotated':
      out.push(lowerAnnotated(p));
      break;
    case 'SubjectPattern':
      out.push(lowerSubjectPattern(p));
      break;
    default:
      lowerPath(p, out);
  }
  return out;
};

/** Lowers a document: its patterns in order, and the header record's properties apart. */
export const toPatterns = (document: GramDocument): LoweredDocument => {
  const patterns: GramPattern[] = [];
  for (const p of document.patterns) lowerPattern(p, patterns);
  return document.header === undefined ? { patterns } : { header: recordToJson(document.header), patterns };
};

/** The header as gram-hs's `fromGram` lists it: an anonymous, unlabelled atom with the header's properties. */
export const headerPattern = (header: GramProperties): GramPattern => ({
  subject: { identity: '', labels: [], properties: header },
  elements: EMPTY,
});
