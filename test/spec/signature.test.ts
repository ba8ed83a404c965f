import { describe, expect, it } from 'vitest';
import {
  type Diagnostic,
  checkedDiagnostics,
  checkedValue,
  checkTypeSignature,
  parseTypeSignature,
  typeSignatureToJSONSchema,
  formatDiagnostics,
} from '../../src/index.js';
import { signatureSchemas } from '../../src/entries/types.js';

const schemaOf = (sig: string) => {
  const r = typeSignatureToJSONSchema(sig);
  if (r._tag === 'Left') throw new Error(formatDiagnostics(r.left, sig));
  return r.right;
};

const outputOf = (sig: string) => {
  const r = parseTypeSignature(sig);
  if (r._tag === 'Left') throw new Error(formatDiagnostics(r.left, sig));
  return signatureSchemas(r.right).outputSchema;
};

/** The diagnostics of a signature that must fail. */
const errorsOf = (sig: string): ReadonlyArray<Diagnostic> => {
  const r = parseTypeSignature(sig);
  if (r._tag === 'Right') throw new Error(`expected errors: ${sig}`);
  return r.left;
};

/** The source text under a diagnostic's span. */
const under = (sig: string, d: Diagnostic | undefined): string | undefined => (d?.span === undefined ? undefined : sig.slice(d.span.start, d.span.end));

describe('the paramName and identifier forms', () => {
  it('compiles a parameter named by paramName', () => {
    expect(schemaOf('(::Text {paramName:"name"})==>(::String)')).toEqual({
      type: 'object',
      additionalProperties: false,
      properties: { name: { type: 'string' } },
      required: ['name'],
    });
  });

  it("compiles the design's simplest signature: an anonymous parameter is named by its position", () => {
    expect(schemaOf('(::Text)==>(::String)')).toEqual({
      type: 'object',
      additionalProperties: false,
      properties: { arg1: { type: 'string' } },
      required: ['arg1'],
    });
    expect(schemaOf('(::Text)==>(::Int {optional: true})==>(::String)')).toEqual({
      type: 'object',
      additionalProperties: false,
      properties: { arg1: { type: 'string' }, arg2: { type: 'integer' } },
      required: ['arg1'],
    });
    // the position counts every parameter, named or not; the Arguments node is not a parameter
    expect(schemaOf('(::Arguments {description: "x"})==>(a::Text)==>(::Int)==>(::String)')['properties']).toEqual({
      a: { type: 'string' },
      arg2: { type: 'integer' },
    });
  });

  it('accepts both written forms, with the same schema', () => {
    expect(schemaOf('(name::Text)==>(::String)')).toEqual(schemaOf('(::Text {paramName:"name"})==>(::String)'));
    expect(schemaOf('(name::Text {paramName: "name"})==>(::String)')).toEqual(schemaOf('(name::Text)==>(::String)'));
  });

  it('maps every type of the table', () => {
    const s = schemaOf(
      '(a::Text)==>(b::String)==>(c::Int)==>(d::Integer)==>(e::Double)==>(f::Number)==>(g::Float)==>(h::Bool)==>(i::Boolean)==>(j::Any)==>(k::Object)==>(l::Array)==>(::String)',
    );
    expect(s['properties']).toEqual({
      a: { type: 'string' },
      b: { type: 'string' },
      c: { type: 'integer' },
      d: { type: 'integer' },
      e: { type: 'number' },
      f: { type: 'number' },
      g: { type: 'number' },
      h: { type: 'boolean' },
      i: { type: 'boolean' },
      j: {},
      k: { type: 'object' },
      l: { type: 'array' },
    });
  });

  it('compiles multiple, optional and record parameters', () => {
    expect(schemaOf('(::Text {paramName:"name"})==>(::Int {paramName:"age"})==>(::String)')).toEqual({
      type: 'object',
      properties: { name: { type: 'string' }, age: { type: 'integer' } },
      required: ['name', 'age'],
      additionalProperties: false,
    });
    expect(schemaOf('(::Text {paramName:"name"})==>(::Int {paramName:"age", optional:true})==>(::String)')['required']).toEqual(['name']);
    expect(schemaOf('(::Object {paramName:"params", fields:[{name:"name", type:"Text"}, {name:"age", type:"Int"}]})==>(::String)')).toEqual({
      type: 'object',
      properties: { params: { type: 'object', properties: { name: { type: 'string' }, age: { type: 'integer' } }, required: ['name', 'age'] } },
      required: ['params'],
      additionalProperties: false,
    });
  });

  it('compiles type expressions in elementType, type and fields', () => {
    const s = schemaOf(
      '(tags::Array {elementType: "[Text]"})==>(user::Object {type: "{name: Text, age: Maybe Int}"})==>(p::Array {type: "(Double, Double)"})==>(f::Object {fields: [{name: "xs", type: "[Int]", optional: true}]})==>(::String)',
    );
    expect(s['properties']).toEqual({
      tags: { type: 'array', items: { type: 'array', items: { type: 'string' } } },
      user: { type: 'object', properties: { name: { type: 'string' }, age: { type: 'integer' } }, required: ['name'] },
      p: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }], minItems: 2, maxItems: 2 },
      f: { type: 'object', properties: { xs: { type: 'array', items: { type: 'integer' } } } },
    });
  });

  it('makes a parameter optional with default, optional: true or Maybe', () => {
    const s = schemaOf('(a::String {default: "world"})==>(b::Int {optional: true})==>(c::Any {type: "Maybe Int"})==>(d::Bool)==>(::String)');
    expect(s['required']).toEqual(['d']);
    expect(s['properties']).toEqual({ a: { type: 'string', default: 'world' }, b: { type: 'integer' }, c: { type: 'integer' }, d: { type: 'boolean' } });
  });

  it('keeps a parameter required with a default when optional: false says so', () => {
    expect(schemaOf('(a::Int {default: 3, optional: false})==>(::String)')).toEqual({
      type: 'object',
      additionalProperties: false,
      properties: { a: { type: 'integer', default: 3 } },
      required: ['a'],
    });
  });

  it('maps constraints and documentation to their keywords, and ranges to bounds', () => {
    const s = schemaOf(
      '(n::Int {range: 1..10, description: "count"})==>(m::Double {range: 0.5...})==>(k::Int {range: ...7})==>(s::Text {range: 1..3, pattern: "^[a-z]+$", format: "email"})==>(xs::Array {elementType: "Int", range: 1..2, uniqueItems: true})==>(u::String {enum: ["c", "f"], title: "Unit", examples: ["c"], deprecated: true})==>(::String)',
    );
    expect(s['properties']).toEqual({
      n: { type: 'integer', description: 'count', minimum: 1, maximum: 10 },
      m: { type: 'number', minimum: 0.5 },
      k: { type: 'integer', maximum: 7 },
      s: { type: 'string', minLength: 1, maxLength: 3, pattern: '^[a-z]+$', format: 'email' },
      xs: { type: 'array', items: { type: 'integer' }, minItems: 1, maxItems: 2, uniqueItems: true },
      u: { type: 'string', title: 'Unit', enum: ['c', 'f'], examples: ['c'], deprecated: true },
    });
  });

  it('closes the arguments object by default; additionalProperties: true opens it', () => {
    expect(schemaOf('(a::Int)==>(::String)')['additionalProperties']).toBe(false);
    expect(schemaOf('(::Arguments {additionalProperties: true})==>(a::Int)==>(::String)')).toEqual({
      type: 'object',
      properties: { a: { type: 'integer' } },
      required: ['a'],
    });
    expect(schemaOf('(::Arguments {additionalProperties: "Int"})==>(a::Int)==>(::String)')['additionalProperties']).toEqual({ type: 'integer' });
  });

  it('means no parameters by () or a lone node', () => {
    const empty = { type: 'object', properties: {}, additionalProperties: false };
    expect(schemaOf('()==>(::String)')).toEqual(empty);
    expect(schemaOf('(::String)')).toEqual(empty);
    expect(outputOf('(::String)')).toEqual({ type: 'string' });
  });

  it('accepts every right arrow, : and :: alike, and comments', () => {
    const a = schemaOf('(a::Text)==>(b::Int)==>(::String)');
    expect(schemaOf('(a:Text)-->(b:Int)~~>(::String)')).toEqual(a);
    expect(schemaOf('(a::Text) // the name\n  ==> (b::Int)\n  ==> (::String)')).toEqual(a);
  });

  it('compiles the return type to the output schema (named or anonymous)', () => {
    expect(outputOf('(a::Int)==>(::Object {type: "{temperature: Double, summary: Text | Null}"})')).toEqual({
      type: 'object',
      properties: { temperature: { type: 'number' }, summary: { type: ['string', 'null'] } },
      required: ['temperature', 'summary'],
    });
    expect(outputOf('(a::Int)==>(greeting::String {description: "the greeting"})')).toEqual({ type: 'string', description: 'the greeting' });
  });

  it('describes the arguments object with a leading Arguments node', () => {
    expect(schemaOf('(::Arguments {additionalProperties: false, description: "all"})==>(a::Int)==>(::String)')).toEqual({
      type: 'object',
      description: 'all',
      properties: { a: { type: 'integer' } },
      required: ['a'],
      additionalProperties: false,
    });
  });

  it('writes unions, maps and null', () => {
    expect(
      schemaOf(
        '(a::Any {type: "Text | Int"})==>(b::Object {type: "Map Int"})==>(c::Null)==>(d::Any {anyOf: ["Text", {type: "Int", minimum: 0}]})==>(::String)',
      )['properties'],
    ).toEqual({
      a: { type: ['string', 'integer'] },
      b: { type: 'object', additionalProperties: { type: 'integer' } },
      c: { type: 'null' },
      d: { anyOf: [{ type: 'string' }, { type: 'integer', minimum: 0 }] },
    });
  });

  it('is deterministic: the same text gives the same bytes, in parameter order', () => {
    const sig = '(z::Int)==>(a::Text {description: "x", default: "y"})==>(m::Bool)==>(::String)';
    const a = JSON.stringify(schemaOf(sig));
    expect(JSON.stringify(schemaOf(sig))).toBe(a);
    expect(a).toBe(
      '{"type":"object","properties":{"z":{"type":"integer"},"a":{"type":"string","description":"x","default":"y"},"m":{"type":"boolean"}},"required":["z","m"],"additionalProperties":false}',
    );
  });
});

describe('errors: a stable code and a span', () => {
  const cases: ReadonlyArray<readonly [string, string, string, string?]> = [
    // [signature, code, text under the span, hint contains]
    ['(a::Strin)==>(::String)', 'SPEC_UNKNOWN_TYPE', 'Strin', 'String'],
    ['(a::Int)==>(::Str)', 'SPEC_UNKNOWN_TYPE', 'Str', 'String'],
    ['(a::Array {elementType: "[Txt]"})==>(::String)', 'SPEC_UNKNOWN_TYPE', 'Txt'],
    ['(a::Object {type: "{b: Maybe Intt}"})==>(::String)', 'SPEC_UNKNOWN_TYPE', 'Intt'],
    ['(a)==>(::String)', 'SPEC_MISSING_TYPE', '(a)'],
    ['(a::Text:Int)==>(::String)', 'SPEC_MULTIPLE_TYPES', ':Int'],
    ['(::Text {paramName: ""})==>(::String)', 'SPEC_MISSING_PARAM_NAME', '(::Text {paramName: ""})'],
    ['(::Text)==>(arg1::Int)==>(::String)', 'SPEC_DUPLICATE_PARAM', '(arg1::Int)'],
    ['(a::Text {paramName: "b"})==>(::String)', 'SPEC_PARAM_NAME_MISMATCH', '"b"'],
    ['(a::Text)==>(a::Int)==>(::String)', 'SPEC_DUPLICATE_PARAM', '(a::Int)'],
    ['(a::Int {default: "ten"})==>(::String)', 'SPEC_INVALID_DEFAULT', '"ten"'],
    ['(a::Int {default: 12, range: 1..10})==>(::String)', 'SPEC_INVALID_DEFAULT', '12'],
    ['(a::String {default: "x", enum: ["c", "f"]})==>(::String)', 'SPEC_INVALID_DEFAULT', '"x"'],
    ['(a::Int {minLength: 3})==>(::String)', 'SPEC_CONSTRAINT_TYPE', 'minLength'],
    ['(a::Text {minimum: 3})==>(::String)', 'SPEC_CONSTRAINT_TYPE', 'minimum', 'minLength'],
    ['(a::Bool {range: 1..2})==>(::String)', 'SPEC_CONSTRAINT_TYPE', 'range'],
    ['(a::Int {format: "email"})==>(::String)', 'SPEC_CONSTRAINT_TYPE', '"email"'],
    ['(a::Text {minLength: -1})==>(::String)', 'SPEC_INVALID_CONSTRAINT', '-1'],
    ['(a::Text {pattern: "[a-"})==>(::String)', 'SPEC_INVALID_CONSTRAINT', '"[a-"'],
    ['(a::Int {minimum: 5, maximum: 1})==>(::String)', 'SPEC_INVALID_CONSTRAINT', '5'],
    ['(a::Int {enum: [1, "two"]})==>(::String)', 'SPEC_INVALID_CONSTRAINT', '"two"'],
    ['(a::Int {range: 1..5, minimum: 2})==>(::String)', 'SPEC_INVALID_CONSTRAINT', 'range'],
    ['(a::Object {fields: "name"})==>(::String)', 'SPEC_MALFORMED_FIELDS', '"name"'],
    ['(a::Object {fields: [{type: "Text"}]})==>(::String)', 'SPEC_MALFORMED_FIELDS', '{type: "Text"}'],
    ['(a::Object {fields: [{name: "b"}]})==>(::String)', 'SPEC_MALFORMED_FIELDS', '{name: "b"}'],
    ['(a::Object {fields: [42]})==>(::String)', 'SPEC_MALFORMED_FIELDS', '42'],
    ['(a::Array {elementType: 42})==>(::String)', 'SPEC_MALFORMED_ELEMENT_TYPE', '42'],
    ['(a::Array {elementTypes: ["Int"]})==>(::String)', 'SPEC_MALFORMED_ELEMENT_TYPE', '["Int"]'],
    ['(a::Any {anyOf: 3})==>(::String)', 'SPEC_MALFORMED_TYPE', '3'],
    ['(a::Array {elementType: "[Int"})==>(::String)', 'SPEC_TYPE_EXPR', ''],
    ['(a::Object {type: "{b: }"})==>(::String)', 'SPEC_TYPE_EXPR', '}'],
    ['(a::Int {type: "[Int]"})==>(::String)', 'SPEC_TYPE_CONFLICT', '"[Int]"'],
    ['(a::Text {elementType: "Int"})==>(::String)', 'SPEC_TYPE_CONFLICT', 'elementType'],
    ['(a::Array {type: "[Maybe Int]"})==>(::String)', 'SPEC_MAYBE_POSITION', 'Maybe Int'],
    ['(a::Int)==>(::Any {type: "Maybe Int"})', 'SPEC_MAYBE_POSITION', 'Maybe Int'],
    ['(a::Int)==>()', 'SPEC_MISSING_RETURN', '()'],
    ['(::Text {paramName:"name"})', 'SPEC_MISSING_RETURN', 'paramName'],
    ['(a::Int)==>(b)', 'SPEC_MISSING_RETURN', '(b)'],
    ['(a::Text)<==(::String)', 'SPEC_ARROW_DIRECTION', '<==', '==>'],
    ['(a::Text)<-->(::String)', 'SPEC_ARROW_DIRECTION', '<-->', '-->'],
    ['(a::Text)==(::String)', 'SPEC_ARROW_DIRECTION', '=='],
    ['(a::Text)-[:R]->(::String)', 'SPEC_ARROW_SUBJECT', '-[:R]->'],
    ['(a::Text)==>(::`IO Text`)', 'SPEC_IO_TYPE', '::`IO Text`', 'String'],
    ['(a::Text)==>(::IO)', 'SPEC_IO_TYPE', '::IO'],
    ['(a::Text)==>(::Any {type: "IO Text"})', 'SPEC_IO_TYPE', 'IO Text'],
    ['(a::Text {optional: "yes"})==>(::String)', 'SPEC_INVALID_PARAM_PROPERTY', '"yes"'],
    ['(a::Object {type: "{b: Int, b: Text}"})==>(::String)', 'SPEC_DUPLICATE_FIELD', 'b'],
    ['(a::Object {fields: [{name: "b", type: "Int"}, {name: "b", type: "Int"}]})==>(::String)', 'SPEC_DUPLICATE_FIELD', '{name: "b", type: "Int"}'],
    ['(a::Text {default: date`2024-01-01`})==>(::String)', 'SPEC_INVALID_VALUE', 'date`2024-01-01`'],
    ['(a::Int {examples: [1, "x"]})==>(::String)', 'SPEC_INVALID_EXAMPLE', '"x"'],
    ['(a::Int)==>(::Arguments)==>(::String)', 'SPEC_ARGUMENTS_POSITION', '(::Arguments)'],
    ['[a | b]', 'SPEC_NOT_A_PATH', '[a | b]'],
    ['(a::Int)==>(::String) (b::Int)==>(::String)', 'SPEC_NOT_A_PATH', '(b::Int)==>(::String)'],
    ['   ', 'SPEC_EMPTY', '   '],
  ];
  for (const [sig, code, text, hint] of cases) {
    it(`${code}: ${sig.trim() === '' ? '(blank)' : sig}`, () => {
      const ds = errorsOf(sig);
      const d = ds.find((x) => x.code === code);
      expect(d, `${code} not in ${JSON.stringify(ds.map((x) => [x.code, x.message]))}`).toBeDefined();
      expect(d?.severity).toBe('error');
      expect(d?.span).toBeDefined();
      if (text !== '') expect(under(sig, d)).toBe(text);
      if (hint !== undefined) expect(d?.hint ?? '').toContain(hint);
    });
  }

  it("warns about an unknown property, with a suggestion, and leaves it out of the schema; x- properties are the user's own", () => {
    const sig = '(a::Text {desciption: "x", x-owner: "me"})==>(::String)';
    const r = checkTypeSignature(sig);
    expect(r._tag === 'Right' && r.right.warnings.map((d) => [d.code, d.severity, under(sig, d), d.hint])).toEqual([
      ['SPEC_UNKNOWN_PROPERTY', 'warning', 'desciption', 'did you mean `description`?'],
    ]);
    expect(schemaOf(sig)['properties']).toEqual({ a: { type: 'string' } });
  });

  it('reports gram syntax errors with the parser codes and a span', () => {
    const ds = errorsOf('(a::Text ==>(::String)');
    expect(ds[0]?.code).toMatch(/^GRAM_/);
    expect(ds[0]?.span).toBeDefined();
  });

  it('reports an IO label that gram cannot parse as SPEC_IO_TYPE too', () => {
    const sig = '(a::Text)==>(::IO Text)';
    const ds = errorsOf(sig);
    const d = ds.find((x) => x.code === 'SPEC_IO_TYPE');
    expect(under(sig, d)).toBe('IO Text');
  });

  it('reports every error at once, not the first only', () => {
    const ds = errorsOf('(a::Strin)==>(b::Int {minLength: 1})==>(a::Bool)==>(::Txt)');
    expect(ds.map((d) => d.code).sort()).toEqual(['SPEC_CONSTRAINT_TYPE', 'SPEC_DUPLICATE_PARAM', 'SPEC_UNKNOWN_TYPE', 'SPEC_UNKNOWN_TYPE']);
  });

  it('warns (and still compiles) for formats gramkit does not check', () => {
    const r = checkTypeSignature('(a::Text {format: "colour"})==>(::String)');
    expect(checkedValue(r)).toBeDefined();
    expect(checkedDiagnostics(r).map((d) => [d.code, d.severity])).toEqual([['SPEC_UNKNOWN_FORMAT', 'warning']]);
  });

  it('points into the string of a type expression, escapes included', () => {
    const sig = '(a::Object {type: "{\\"q\\\\\\"x\\": Foo}"})==>(::String)';
    const d = errorsOf(sig).find((x) => x.code === 'SPEC_UNKNOWN_TYPE');
    expect(under(sig, d)).toBe('Foo');
  });

  it('renders with the line and a caret', () => {
    const sig = '(city::Text)\n  ==>(days::Integr)\n  ==>(::String)';
    const text = formatDiagnostics(errorsOf(sig), sig, { filename: 'weather.gram' });
    expect(text).toContain('error[SPEC_UNKNOWN_TYPE]: unknown type `Integr`');
    expect(text).toContain('--> weather.gram:2:13');
    expect(text).toContain('^^^^^^');
  });
});
