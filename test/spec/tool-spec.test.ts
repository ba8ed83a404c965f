import { describe, expect, it } from 'vitest';
import {
  createAgentSpecification,
  createToolSpecification,
  decodeAgentSpecification,
  decodeSpecifications,
  decodeToolSpecification,
  encodeAgentSpecification,
  encodeToolSpecification,
  printToolSpecification,
  toolSpecDescription,
  toolSpecName,
  toolSpecSchema,
  toolSpecSignature,
  toolSpecTypeSignature,
  toolSpecOutputSchema,
  validateToolArgs,
  withMetadata,
} from '../../src/index.js';

const SIG = '(::Text {paramName:"name"})==>(::String)';
const hello = (() => {
  const r = createToolSpecification('sayHello', 'Returns a friendly greeting message for the given name', SIG);
  if (r._tag === 'Left') throw new Error('sayHello');
  return r.right;
})();

describe('createToolSpecification', () => {
  it('builds a specification, with its accessors', () => {
    expect(toolSpecName(hello)).toBe('sayHello');
    expect(toolSpecDescription(hello)).toBe('Returns a friendly greeting message for the given name');
    expect(toolSpecTypeSignature(hello)).toBe(SIG);
    expect(toolSpecSchema(hello)).toEqual({ type: 'object', additionalProperties: false, properties: { name: { type: 'string' } }, required: ['name'] });
    expect(toolSpecOutputSchema(hello)).toEqual({ type: 'string' });
    expect(toolSpecSignature(hello)._tag).toBe('Right');
  });

  it('requires a non-empty name and description and a valid signature, reporting all three', () => {
    const r = createToolSpecification(' ', '', '(::Txt)==>(::String)');
    expect(r._tag === 'Left' && r.left.map((d) => d.code)).toEqual(['SPEC_EMPTY_NAME', 'SPEC_MISSING_DESCRIPTION', 'SPEC_UNKNOWN_TYPE']);
  });

  it('is immutable', () => {
    expect(Object.isFrozen(hello)).toBe(true);
    expect(Object.isFrozen(hello.schema)).toBe(true);
    expect(() => {
      (hello.schema as { type: string }).type = 'array';
    }).toThrow();
  });

  it('keeps metadata, copied (the caller may change its own object)', () => {
    const meta = { http: { method: 'GET' } };
    const r = createToolSpecification('w', 'Weather', '(city::String)==>(::String)', { metadata: meta });
    if (r._tag === 'Left') throw new Error('w');
    meta.http.method = 'POST';
    expect(r.right.metadata).toEqual({ http: { method: 'GET' } });
    expect(withMetadata(r.right, undefined).metadata).toBeUndefined();
    expect(printToolSpecification(r.right)).toBe('[w:Tool {description: "Weather", http: {method: "GET"}} |\n  (city::String)==>(::String)\n]');
  });

  it('computes the signature of a specification built by hand', () => {
    const byHand = { name: 'x', description: 'y', typeSignature: '(a::Int)==>(::Int)', schema: {}, outputSchema: {} };
    const s = toolSpecSignature(byHand);
    expect(s._tag === 'Right' && s.right.args.fields.map((f) => f.name)).toEqual(['a']);
  });
});

describe('validateToolArgs', () => {
  const schema = (() => {
    const r = createToolSpecification(
      'w',
      'd',
      '(city::String {minLength: 1})==>(units::String {enum: ["c", "f"], default: "c"})==>(opts::Object {fields: [{name: "deep", type: "Bool", default: true}], optional: true})==>(::String)',
    );
    if (r._tag === 'Left') throw new Error('w');
    return r.right.schema;
  })();

  it('returns the arguments with defaults filled in, on a copy', () => {
    const args = { city: 'Paris', opts: {} };
    const r = validateToolArgs(schema, args);
    expect(r).toEqual({ _tag: 'Right', right: { city: 'Paris', units: 'c', opts: { deep: true } } });
    expect(args).toEqual({ city: 'Paris', opts: {} });
  });

  it('returns the value itself when there is nothing to fill in', () => {
    const noDefaults = hello.schema;
    const args = { name: 'Ada' };
    const r = validateToolArgs(noDefaults, args);
    expect(r._tag === 'Right' && r.right).toBe(args);
  });

  it('explains what is wrong in words a model can act on', () => {
    const r = validateToolArgs(schema, { city: '', units: 'k', opts: { deep: 'yes' } });
    expect(r._tag === 'Left' && r.left.map((i) => i.message)).toEqual([
      'argument "city" must have at least 1 character, got ""',
      'argument "units" must be one of "c", "f", got "k"',
      'argument "opts.deep" must be a boolean (true or false), got "yes"',
    ]);
    const missing = validateToolArgs(schema, {});
    expect(missing._tag === 'Left' && missing.left).toEqual([{ path: 'city', code: 'SPEC_ARG_REQUIRED', message: 'argument "city" is required' }]);
  });

  it('reports a schema that cannot be compiled instead of throwing', () => {
    const r = validateToolArgs({ type: 'nonsense' }, {});
    expect(r._tag === 'Left' && r.left[0]?.code).toBe('SPEC_ARG_INVALID');
  });
});

describe('JSON form', () => {
  it('encodes the JSON form, and decodes it back', () => {
    const json = encodeToolSpecification(hello);
    expect(json).toEqual({
      name: 'sayHello',
      description: 'Returns a friendly greeting message for the given name',
      typeSignature: SIG,
      schema: { type: 'object', additionalProperties: false, properties: { name: { type: 'string' } }, required: ['name'] },
      outputSchema: { type: 'string' },
    });
    const back = decodeToolSpecification(JSON.parse(JSON.stringify(json)));
    expect(back._tag === 'Right' && encodeToolSpecification(back.right)).toEqual(json);
  });

  it('regenerates the schema from the signature; a stored schema that disagrees is reported', () => {
    const withoutSchema = decodeToolSpecification({ name: 'a', description: 'b', typeSignature: '(x::Int)==>(::Int)' });
    expect(withoutSchema._tag === 'Right' && withoutSchema.right.schema).toEqual({
      type: 'object',
      additionalProperties: false,
      properties: { x: { type: 'integer' } },
      required: ['x'],
    });
    const stale = decodeToolSpecification(
      { name: 'a', description: 'b', typeSignature: '(x::Int)==>(::Int)', schema: { type: 'object', properties: { x: { type: 'string' } }, required: ['x'] } },
      { at: 'tools[0]' },
    );
    expect(stale._tag === 'Left' && stale.left.map((d) => [d.code, d.message])).toEqual([
      ['SPEC_SCHEMA_MISMATCH', 'tools[0].schema: the stored schema is not the one `typeSignature` compiles to (first difference at /properties/x/type)'],
    ]);
  });

  it('reports the shape problems with their paths, unknown keys and signature errors', () => {
    const r = decodeToolSpecification({ name: 'a', description: 3, typeSignature: '(x::Int)==>(::Int)' });
    expect(r._tag === 'Left' && r.left.map((d) => d.message)).toEqual(['description: expected string, got 3']);
    const extra = decodeToolSpecification({ name: 'a', description: 'b', typeSignature: '(x::Int)==>(::Int)', descripton: 'x' });
    expect(extra._tag === 'Left' && extra.left.map((d) => [d.code, d.hint])).toEqual([['SPEC_INVALID_JSON', 'did you mean `description`?']]);
    const sig = decodeToolSpecification({ name: 'a', description: 'b', typeSignature: '(x::Strng)==>(::Int)' });
    expect(sig._tag === 'Left' && sig.left.map((d) => [d.code, d.message, d.span])).toEqual([
      ['SPEC_UNKNOWN_TYPE', 'typeSignature, at offset 5 of the signature: unknown type `Strng`', undefined],
    ]);
  });

  it('decodes agents with tools inline or by name, and whole files', () => {
    const agent = createAgentSpecification('greeter', 'Greets', 'Say hello', [hello], { model: 'openai/gpt-4o-mini' });
    if (agent._tag === 'Left') throw new Error('agent');
    const inline = encodeAgentSpecification(agent.right);
    const back = decodeAgentSpecification(JSON.parse(JSON.stringify(inline)));
    expect(back._tag === 'Right' && encodeAgentSpecification(back.right)).toEqual(inline);
    const byName = encodeAgentSpecification(agent.right, new Set(['sayHello']));
    expect(byName['tools']).toEqual(['sayHello']);
    expect(decodeAgentSpecification(byName)._tag).toBe('Left');
    expect(decodeAgentSpecification(byName, { knownTools: [hello] })._tag).toBe('Right');
    const file = decodeSpecifications({ tools: [encodeToolSpecification(hello)], agents: [byName] });
    expect(file._tag === 'Right' && file.right.agents[0]?.tools[0]?.name).toBe('sayHello');
    expect(decodeSpecifications([encodeToolSpecification(hello)])._tag).toBe('Right');
    expect(decodeSpecifications(encodeToolSpecification(hello))._tag).toBe('Right');
  });
});

describe('createAgentSpecification', () => {
  it('requires a name, description and instruction, and unique tool names', () => {
    const r = createAgentSpecification('', '', ' ', [hello, hello], { model: '' });
    expect(r._tag === 'Left' && r.left.map((d) => d.code)).toEqual([
      'SPEC_EMPTY_NAME',
      'SPEC_MISSING_DESCRIPTION',
      'SPEC_MISSING_INSTRUCTION',
      'SPEC_INVALID_PROPERTY',
      'SPEC_DUPLICATE_AGENT_TOOL',
    ]);
  });
});
