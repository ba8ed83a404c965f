/**
 * Renders a gramkit AST as tree-sitter-gram's S-expression (named nodes and fields), so corpus
 * cases compare whole trees, not just accept/reject. Comments are dropped on both sides.
 */
import {
  type GramDocument,
  type Identifier,
  type Label,
  type NodePattern,
  type PathPattern,
  type Property,
  type RecordNode,
  type Subject,
  type SubjectPattern,
  type SubjectPatternElement,
  type TopLevelPattern,
  type Value,
} from '../../../src/index.js';

const content = (s: string): string => (s === '' ? '' : ' content: (string_content)');

const identifier = (i: Identifier): string => (i.style === 'symbol' ? '(symbol)' : i.style === 'integer' ? '(integer)' : `(quoted_name${content(i.value)})`);

const label = (l: Label): string => (l.style === 'symbol' ? '(symbol)' : `(quoted_name${content(l.name)})`);

const key = (p: Property): string =>
  p.keyStyle === 'symbol' ? '(symbol)' : p.keyStyle === 'backtick' ? `(quoted_name${content(p.key)})` : `(double_quoted_name${content(p.key)})`;

const value = (v: Value): string => {
  switch (v.kind) {
    case 'String':
      return `(string_literal${content(v.value)})`;
    case 'TaggedString':
      return `(tagged_string tag: (symbol)${content(v.content)})`;
    case 'Integer':
      return '(integer)';
    case 'Decimal':
      return '(decimal)';
    case 'Hexadecimal':
      return '(hexadecimal)';
    case 'Octal':
      return '(octal)';
    case 'Measurement':
      return '(measurement)';
    case 'Range':
      return `(range${v.lower ? ` lower: ${value(v.lower)}` : ''}${v.upper ? ` upper: ${value(v.upper)}` : ''})`;
    case 'Boolean':
      return '(boolean_literal)';
    case 'Symbol':
      return '(symbol)';
    case 'Array':
      return `(array${v.items.map((i) => ` ${value(i)}`).join('')})`;
    case 'Map':
      return `(map${v.entries.map((e) => ` (map_entry key: ${key(e)} value: ${value(e.value)})`).join('')})`;
  }
};

const property = (p: Property): string => `(record_property key: ${key(p)} value: ${value(p.value)})`;

const record = (r: RecordNode): string => `(record${r.properties.map((p) => ` ${property(p)}`).join('')})`;

const subjectFields = (s: Subject): string =>
  `${s.identifier ? ` identifier: ${identifier(s.identifier)}` : ''}${s.labels.length > 0 ? ` labels: (labels${s.labels.map((l) => ` ${label(l)}`).join('')})` : ''}${s.record ? ` record: ${record(s.record)}` : ''}`;

const node = (n: NodePattern): string => `(node_pattern${subjectFields(n)})`;

const ARROW = { right: 'right_arrow', left: 'left_arrow', undirected: 'undirected_arrow', bidirectional: 'bidirectional_arrow' };

const path = (p: PathPattern): string => {
  if (p.kind === 'Node') return node(p);
  let out = node(p.nodes[p.nodes.length - 1] as NodePattern);
  for (let i = p.arrows.length - 1; i >= 0; i--) {
    const a = p.arrows[i];
    const n = p.nodes[i];
    if (a === undefined || n === undefined) continue;
    out = `(relationship_pattern left: ${node(n)} kind: (${ARROW[a.direction]}${subjectFields(a)}) right: ${out})`;
  }
  return out;
};

const element = (e: SubjectPatternElement): string =>
  e.kind === 'Reference' ? `(pattern_reference identifier: ${identifier(e.identifier)})` : e.kind === 'SubjectPattern' ? subjectPattern(e) : path(e);

const subjectPattern = (p: SubjectPattern): string =>
  `(subject_pattern${subjectFields(p)}${p.elements.length > 0 ? ` elements: (subject_pattern_elements${p.elements.map((e) => ` ${element(e)}`).join('')})` : ''})`;

const topLevel = (p: TopLevelPattern): string => {
  if (p.kind === 'Annotated') {
    const anns: string[] = [];
    if (p.identified) {
      const i = p.identified;
      anns.push(
        `(identified_annotation${i.identifier ? ` identifier: ${identifier(i.identifier)}` : ''}${i.labels.length > 0 ? ` labels: (labels${i.labels.map((l) => ` ${label(l)}`).join('')})` : ''})`,
      );
    }
    for (const a of p.annotations) anns.push(`(property_annotation key: (symbol) value: ${value(a.value)})`);
    const target = p.target.kind === 'SubjectPattern' ? subjectPattern(p.target) : path(p.target);
    return `(annotated_pattern annotations: (annotations ${anns.join(' ')}) elements: ${target})`;
  }
  return p.kind === 'SubjectPattern' ? subjectPattern(p) : path(p);
};

/** The document as tree-sitter would print it (one line, single spaces). */
export const toSexp = (d: GramDocument): string =>
  `(gram_pattern${d.header ? ` root: ${record(d.header)}` : ''}${d.patterns.map((p) => ` ${topLevel(p)}`).join('')})`;

/** Normalizes an expected S-expression: comments dropped, whitespace collapsed. */
export const normalizeSexp = (s: string): string =>
  s
    .replace(/\(comment\)/g, '')
    .replace(/\s+/g, ' ')
    .replace(/\(\s+/g, '(')
    .replace(/\s+\)/g, ')')
    .trim();

/** Whether an expected tree names fields (tree-sitter compares fields only when it does). */
export const hasFields = (s: string): boolean => /\w+: \(/.test(s);

export const stripFields = (s: string): string => s.replace(/\w+: \(/g, '(');
