import { describe, expect, it } from 'vitest';
import { checkExportedTool, DialectCodes, exportTool, exportTools, normalizeArguments, parseDialect } from '../../../src/entries/providers.js';
import { type JsonObject } from '../../../src/index.js';

const hello: JsonObject = { type: 'object', properties: { personName: { type: 'string', default: 'world' } } };

describe('normalizeArguments', () => {
  const schema: JsonObject = {
    type: 'object',
    properties: {
      name: { type: 'string' },
      note: { type: ['string', 'null'] },
      level: { enum: [1, 2, 3] },
      code: { enum: ['1', 2] },
      user: { type: 'object', properties: { email: { type: 'string' } } },
      list: { type: 'array', items: { type: 'object', properties: { x: { type: 'integer' } } } },
      pair: { type: 'array', prefixItems: [{ type: 'string' }, { const: 4 }] },
      either: {
        anyOf: [
          { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false },
          { type: 'object', properties: { b: { type: 'string' } }, additionalProperties: false },
        ],
      },
      ref: { $ref: '#/$defs/r' },
    },
    required: ['name'],
    $defs: { r: { type: 'object', properties: { deep: { type: 'string' } } } },
  };
  it('openai-strict: null for an optional non-nullable property means "not given", at any depth', () => {
    expect(
      normalizeArguments('openai-strict', schema, {
        name: 'a',
        note: null,
        level: null,
        user: { email: null },
        list: [{ x: null }, { x: 2 }],
        either: { a: null },
        ref: { deep: null },
      }),
    ).toEqual({ name: 'a', note: null, user: {}, list: [{}, { x: 2 }], either: {}, ref: {} });
  });
  it('keeps a null the schema asks for (required) so validation can report it', () => {
    expect(normalizeArguments('openai-strict', schema, { name: null })).toEqual({ name: null });
  });
  it('gemini: enum and const numbers sent as strings become numbers again, strings that are allowed stay', () => {
    expect(normalizeArguments('gemini', schema, { name: 'x', level: '2', code: '1', pair: ['a', '4'], note: null })).toEqual({
      name: 'x',
      level: 2,
      code: '1',
      pair: ['a', 4],
      note: null,
    });
    expect(normalizeArguments('gemini', schema, { name: 'x', code: '2' })).toEqual({ name: 'x', code: 2 });
    expect(normalizeArguments('gemini', schema, { name: 'x', level: '9' })).toEqual({ name: 'x', level: '9' });
  });
  it('the lossless dialects send what the canonical schema describes: arguments unchanged', () => {
    const args = { name: 'a', note: null, level: null };
    for (const d of ['jsonschema', 'openai', 'anthropic', 'mcp'] as const) expect(normalizeArguments(d, schema, args)).toBe(args);
  });
  it('returns the same object when nothing changes', () => {
    const args = { name: 'a', user: { email: 'x' } };
    expect(normalizeArguments('openai-strict', schema, args)).toBe(args);
  });
});

describe('exporters', () => {
  it('the hello tool in every shape providers take', () => {
    const tool = { name: 'sayHello', description: 'Greets', schema: hello };
    expect(exportTool(tool, 'openai').tool).toEqual({ type: 'function', function: { name: 'sayHello', description: 'Greets', parameters: hello } });
    expect(exportTool(tool, 'anthropic').tool).toEqual({ name: 'sayHello', description: 'Greets', input_schema: hello });
    expect(exportTool(tool, 'mcp').tool).toEqual({ name: 'sayHello', description: 'Greets', inputSchema: hello });
    expect(exportTool(tool, 'jsonschema').tool).toBe(hello);
    expect(exportTool(tool, 'openai-strict').tool).toEqual({
      type: 'function',
      function: {
        name: 'sayHello',
        description: 'Greets',
        parameters: {
          type: 'object',
          properties: { personName: { type: ['string', 'null'], description: '(default: "world", used when null)' } },
          required: ['personName'],
          additionalProperties: false,
        },
        strict: true,
      },
    });
  });
  it('reports a schema that is not an object schema and leaves the tool out', () => {
    const e = exportTools(
      [
        { name: 'bad', description: 'x', schema: { type: 'string' } },
        { name: 'ok', description: 'y', schema: hello },
      ],
      'openai',
    );
    expect(e.tools).toHaveLength(1);
    expect(e.diagnostics.map((d) => [d.severity, d.code])).toEqual([['error', DialectCodes.INVALID_SCHEMA]]);
    expect([...e.names]).toEqual([['ok', 'ok']]);
  });
  it('reports a repeated tool name and exports the first only', () => {
    const e = exportTools(
      [
        { name: 'a', description: 'x', schema: hello },
        { name: 'a', description: 'y', schema: hello },
      ],
      'anthropic',
    );
    expect(e.tools).toHaveLength(1);
    expect(e.diagnostics[0]?.message).toContain('already exported');
  });
  it('adds "type": "object" to a root with properties only', () => {
    const e = exportTool({ name: 't', description: 'x', schema: { properties: { a: { type: 'string' } } } }, 'anthropic');
    expect(e.tool['input_schema']).toEqual({ type: 'object', properties: { a: { type: 'string' } } });
    expect(e.diagnostics[0]?.code).toBe(DialectCodes.LOWERED);
  });
  it('mcp keeps an object output schema', () => {
    const e = exportTool({ name: 't', description: 'x', schema: hello, outputSchema: { type: 'object', properties: { n: { type: 'integer' } } } }, 'mcp');
    expect(e.tool['outputSchema']).toEqual({ type: 'object', properties: { n: { type: 'integer' } } });
  });
  it('parses dialect names from user input', () => {
    expect(parseDialect('gemini')).toEqual({ _tag: 'Right', right: 'gemini' });
    const bad = parseDialect('claude');
    expect(bad._tag).toBe('Left');
    if (bad._tag === 'Left') expect(bad.left[0]?.hint).toContain('openai-strict');
  });
});

describe('provider rule checkers catch what providers reject', () => {
  it('openai: names, root type, arrays without items', () => {
    const v = checkExportedTool('openai', {
      type: 'function',
      function: { name: 'a.b', parameters: { type: 'object', properties: { t: { type: 'array' } } } },
    });
    expect(v.map((d) => d.message)).toEqual([
      expect.stringContaining('tool name "a.b" breaks the openai rule'),
      expect.stringContaining('at t: array schema missing items'),
    ]);
  });
  it('openai strict: open objects, missing required keys, forbidden keywords, unsupported formats', () => {
    const v = checkExportedTool('openai-strict', {
      type: 'function',
      function: {
        name: 'x',
        strict: true,
        parameters: {
          type: 'object',
          properties: { a: { type: 'string', minLength: 2, format: 'uri' }, b: { type: 'object', properties: {} } },
          required: ['a'],
        },
      },
    });
    const messages = v.map((d) => d.message).join('\n');
    expect(messages).toContain("(root): 'additionalProperties' is required to be supplied and to be false");
    expect(messages).toContain('missing b');
    expect(messages).toContain('"minLength" is not permitted in strict mode');
    expect(messages).toContain('format "uri" is not supported in strict mode');
    expect(messages).toContain("at b: 'additionalProperties' is required");
  });
  it('gemini: unknown keys, non-string enums, type arrays', () => {
    const v = checkExportedTool('gemini', {
      name: 'x',
      parameters: { type: 'object', additionalProperties: false, properties: { n: { type: ['integer', 'null'], enum: [1, 2] } } },
    });
    const messages = v.map((d) => d.message).join('\n');
    expect(messages).toContain('Unknown name "additionalProperties"');
    expect(messages).toContain('enum values must be strings');
    expect(messages).toContain('type must be one of');
  });
  it('anthropic and mcp: root object schemas and names', () => {
    expect(checkExportedTool('anthropic', { name: 'a b', input_schema: { type: 'string' } })).toHaveLength(2);
    expect(checkExportedTool('mcp', { name: 'a.b', inputSchema: { type: 'object' }, outputSchema: { type: 'array' } })).toHaveLength(1);
  });
});
