/**
 * fast-check arbitraries for gram ASTs that the formatter can print and the parser read back:
 * valid symbols where the syntax needs them, number spellings that lex as their kind, fenced
 * contents without a fence inside. Offsets are placeholders (tests compare ASTs without them).
 */
import fc from 'fast-check';
import { hasSubject } from '../../../src/entries/gram.js';
import {
  type AnnotatedPattern,
  type Arrow,
  type GramDocument,
  type Identifier,
  type IdentifiedAnnotation,
  type Label,
  type NodePattern,
  type NumericValue,
  type PathPattern,
  type Property,
  type PropertyAnnotation,
  type RangeValue,
  type RecordNode,
  type RelationshipPath,
  type Subject,
  type SubjectPattern,
  type SubjectPatternElement,
  type TopLevelPattern,
  type Value,
} from '../../../src/index.js';

/** Symbols (not `true`/`false`, which are booleans in value position). */
export const symbolArb = fc.stringMatching(/^[a-zA-Z_][0-9a-zA-Z_.\-@]{0,8}$/).filter((s) => s !== 'true' && s !== 'false');

/** Any text, including quotes, backslashes, control characters and astral characters. */
export const textArb = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 8 }),
  fc.constantFrom('', '"', "'", '`', '\\', '\n', '\r\n', '\t', '// not a comment', 'a\\nb', '😀', '\u0000'),
);

/** Text that can be the body of a fenced string. */
export const fencedArb = fc
  .string({ maxLength: 30, unit: fc.constantFrom('a', ' ', '\n', '`', '"', '\\', 'é', '\t', '/', 'x') })
  .filter((s) => !s.includes('```') && !s.endsWith('`'));

const integerTextArb = fc.oneof(
  fc.integer({ min: -1_000_000, max: 1_000_000 }).map(String),
  fc.constantFrom('-0', '9007199254740993', '123456789012345678901234567890'),
);

const numericArb: fc.Arbitrary<NumericValue> = fc.oneof(
  integerTextArb.map((raw): NumericValue => ({ kind: 'Integer', raw, value: Number(raw), start: 0, end: 0 })),
  fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 99999 }), fc.stringMatching(/^[0-9]{1,4}$/)).map(([neg, i, f]): NumericValue => {
    const raw = `${neg ? '-' : ''}${i}.${f}`;
    return { kind: 'Decimal', raw, value: Number(raw), start: 0, end: 0 };
  }),
  fc.stringMatching(/^[0-9a-fA-F]{1,6}$/).map((h): NumericValue => ({ kind: 'Hexadecimal', raw: `0x${h}`, value: Number.parseInt(h, 16), start: 0, end: 0 })),
  fc.stringMatching(/^[0-7]{1,6}$/).map((o): NumericValue => ({ kind: 'Octal', raw: `0${o}`, value: Number.parseInt(o, 8), start: 0, end: 0 })),
  fc
    .tuple(fc.integer({ min: -5000, max: 5000 }), fc.stringMatching(/^[a-zA-Z]{1,4}$/))
    .filter(([n, u]) => !(n === 0 && u.startsWith('x')))
    .map(([n, unit]): NumericValue => ({ kind: 'Measurement', raw: `${n}${unit}`, value: n, unit, start: 0, end: 0 })),
);

const rangeArb: fc.Arbitrary<RangeValue> = fc.oneof(
  fc.tuple(numericArb, numericArb).map(([lower, upper]): RangeValue => ({ kind: 'Range', form: 'closed', lower, upper, start: 0, end: 0 })),
  numericArb.map((lower): RangeValue => ({ kind: 'Range', form: 'from', lower, upper: undefined, start: 0, end: 0 })),
  numericArb.map((upper): RangeValue => ({ kind: 'Range', form: 'to', lower: undefined, upper, start: 0, end: 0 })),
);

const scalarArb: fc.Arbitrary<Value> = fc.oneof(
  fc
    .tuple(fc.constantFrom('single', 'double', 'backtick') as fc.Arbitrary<'single' | 'double' | 'backtick'>, textArb)
    .map(([style, value]): Value => ({ kind: 'String', style, value, start: 0, end: 0 })),
  fencedArb.map((value): Value => ({ kind: 'String', style: 'fenced', value, start: 0, end: 0 })),
  fc.tuple(symbolArb, textArb).map(([tag, content]): Value => ({ kind: 'TaggedString', style: 'inline', tag, content, start: 0, end: 0 })),
  fc.tuple(symbolArb, fencedArb).map(([tag, content]): Value => ({ kind: 'TaggedString', style: 'fenced', tag, content, start: 0, end: 0 })),
  numericArb,
  rangeArb,
  fc.boolean().map((value): Value => ({ kind: 'Boolean', value, start: 0, end: 0 })),
  symbolArb.map((name): Value => ({ kind: 'Symbol', name, start: 0, end: 0 })),
);

/** A key and its style, as a property holds them. */
export const keyArb: fc.Arbitrary<Pick<Property, 'key' | 'keyStyle'>> = fc.oneof(
  symbolArb.map((key) => ({ key, keyStyle: 'symbol' as const })),
  textArb.map((key) => ({ key, keyStyle: 'backtick' as const })),
  textArb.map((key) => ({ key, keyStyle: 'double' as const })),
);

export const identifierArb: fc.Arbitrary<Identifier> = fc.oneof(
  symbolArb.map((value): Identifier => ({ kind: 'Identifier', style: 'symbol', value, start: 0, end: 0 })),
  textArb.map((value): Identifier => ({ kind: 'Identifier', style: 'backtick', value, start: 0, end: 0 })),
  integerTextArb.map((value): Identifier => ({ kind: 'Identifier', style: 'integer', value, start: 0, end: 0 })),
);

export const labelArb: fc.Arbitrary<Label> = fc
  .tuple(
    fc.constantFrom(':', '::') as fc.Arbitrary<':' | '::'>,
    fc.oneof(
      symbolArb.map((name) => ({ style: 'symbol' as const, name })),
      textArb.map((name) => ({ style: 'backtick' as const, name })),
    ),
  )
  .map(([separator, n]): Label => ({ kind: 'Label', separator, ...n, start: 0, end: 0 }));

/** Values: scalars, and (gramkit's default mode) arrays and maps nested to a few levels. */
export const valueArb: fc.Arbitrary<Value> = fc.letrec<{ value: Value }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalarArb,
    fc.array(tie('value'), { maxLength: 4 }).map((items): Value => ({ kind: 'Array', items, start: 0, end: 0 })),
    fc.array(fc.tuple(keyArb, tie('value')), { maxLength: 3 }).map(
      (es): Value => ({
        kind: 'Map',
        entries: es.map(([k, value]): Property => ({ kind: 'Property', ...k, keyEnd: 0, separator: ':', value, start: 0, end: 0 })),
        start: 0,
        end: 0,
      }),
    ),
  ),
})).value;

export const recordArb: fc.Arbitrary<RecordNode> = fc
  .array(fc.tuple(keyArb, fc.constantFrom(':', '::') as fc.Arbitrary<':' | '::'>, valueArb), { maxLength: 4 })
  .map(
    (ps): RecordNode => ({
      kind: 'Record',
      properties: ps.map(([k, separator, value]): Property => ({ kind: 'Property', ...k, keyEnd: 0, separator, value, start: 0, end: 0 })),
      start: 0,
      end: 0,
    }),
  );

export const subjectArb: fc.Arbitrary<Subject> = fc.record({
  identifier: fc.option(identifierArb, { nil: undefined }),
  labels: fc.array(labelArb, { maxLength: 3 }),
  record: fc.option(recordArb, { nil: undefined }),
});

export const nodeArb: fc.Arbitrary<NodePattern> = subjectArb.map((s): NodePattern => ({ kind: 'Node', ...s, start: 0, end: 0 }));

export const arrowArb: fc.Arbitrary<Arrow> = fc
  .record({
    family: fc.constantFrom('-', '=', '~') as fc.Arbitrary<'-' | '=' | '~'>,
    direction: fc.constantFrom('right', 'left', 'undirected', 'bidirectional') as fc.Arbitrary<Arrow['direction']>,
    bracketed: fc.boolean(),
    subject: subjectArb,
  })
  .map(({ subject, ...a }): Arrow => ({ kind: 'Arrow', ...a, ...subject, bracketed: a.bracketed || hasSubject(subject), start: 0, end: 0 }));

export const pathArb: fc.Arbitrary<PathPattern> = fc.oneof(
  nodeArb,
  fc.tuple(nodeArb, fc.array(fc.tuple(arrowArb, nodeArb), { minLength: 1, maxLength: 3 })).map(
    ([first, hops]): RelationshipPath => ({
      kind: 'Path',
      nodes: [first, ...hops.map(([, n]) => n)],
      arrows: hops.map(([a]) => a),
      start: 0,
      end: 0,
    }),
  ),
);

export const subjectPatternArb: fc.Arbitrary<SubjectPattern> = fc.letrec<{ sp: SubjectPattern; element: SubjectPatternElement }>((tie) => ({
  sp: fc
    .record({ subject: subjectArb, elements: fc.array(tie('element'), { maxLength: 3 }) })
    .map(({ subject, elements }): SubjectPattern => ({ kind: 'SubjectPattern', ...subject, elements, start: 0, end: 0 })),
  element: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    identifierArb.map((identifier): SubjectPatternElement => ({ kind: 'Reference', identifier, start: 0, end: 0 })),
    pathArb,
    tie('sp'),
  ),
})).sp;

const identifiedArb: fc.Arbitrary<IdentifiedAnnotation> = fc
  .record({ identifier: fc.option(identifierArb, { nil: undefined }), labels: fc.array(labelArb, { maxLength: 2 }) })
  .filter((i) => i.identifier !== undefined || i.labels.length > 0)
  .map((i): IdentifiedAnnotation => ({ kind: 'IdentifiedAnnotation', ...i, start: 0, end: 0 }));

const propertyAnnotationArb: fc.Arbitrary<PropertyAnnotation> = fc
  .tuple(fc.oneof(symbolArb, fc.constant('true')), valueArb)
  .map(([key, value]): PropertyAnnotation => ({ kind: 'PropertyAnnotation', key, value, start: 0, end: 0 }));

export const annotatedArb: fc.Arbitrary<AnnotatedPattern> = fc
  .record({
    identified: fc.option(identifiedArb, { nil: undefined }),
    annotations: fc.array(propertyAnnotationArb, { maxLength: 3 }),
    target: fc.oneof(subjectPatternArb, pathArb),
  })
  .filter((a) => a.identified !== undefined || a.annotations.length > 0)
  .map((a): AnnotatedPattern => ({ kind: 'Annotated', ...a, start: 0, end: 0 }));

export const topLevelArb: fc.Arbitrary<TopLevelPattern> = fc.oneof(pathArb, subjectPatternArb, annotatedArb);

export const documentArb: fc.Arbitrary<GramDocument> = fc
  .record({ header: fc.option(recordArb, { nil: undefined }), patterns: fc.array(topLevelArb, { maxLength: 4 }) })
  .map((d): GramDocument => ({ kind: 'Document', ...d, comments: [], start: 0, end: 0 }));

/** The AST without positions and layout (spans, blank lines, warnings, comment placement). */
export const stripLayout = (x: unknown): unknown =>
  JSON.parse(
    JSON.stringify(x, (k, v: unknown) =>
      k === 'start' || k === 'end' || k === 'keyEnd' || k === 'blankLines' || k === 'warnings' || k === 'endOfLine' || k === 'filename' ? undefined : v,
    ),
  );

/** Gram's tokens and a few strings around them, for token-soup properties (parts joined at random). */
export const GRAM_TOKENS: ReadonlyArray<string> = [
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  ',',
  '|',
  ':',
  '::',
  '@',
  '@@',
  '..',
  '...',
  '-',
  '->',
  '<-',
  '=',
  '=>',
  '<=',
  '~',
  '~>',
  '<~',
  '-->',
  'a',
  'b1',
  'true',
  '42',
  '-7',
  '3.5',
  '0xF',
  '07',
  '5cm',
  '"s"',
  "'t'",
  '`u`',
  '```\nf\n```',
  '```md\nx```',
  '//c\n',
  ' ',
  '\n',
  '\t',
  '>',
  '#',
  'é',
  '"',
  '`',
  '\\',
  '\r\n',
];
