import { describe, expect, it } from 'vitest';
import {
  bindTool,
  createTool,
  defineTool,
  invoke,
  isTool,
  parseSpecifications,
  toolDescription,
  toolLibrary,
  toolName,
  toolOutputSchema,
  toolSchema,
  type ToolSpecification,
} from '../../src/index.js';
import { validateTool } from '../../src/library/tool.js';
import { greet, greetSpec } from './support.js';

const schema = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } as const;

describe('createTool', () => {
  it('makes a frozen tool with its accessors', () => {
    const impl = (a: { name: string }) => `Hello, ${a.name}! Nice to meet you.`;
    const t = createTool('sayHello', 'Returns a friendly greeting message for the given name', schema, impl, {
      outputSchema: { type: 'string' },
      limits: { timeoutMs: 1000 },
      annotations: { safetyLevel: 'low', permissions: [] },
    });
    expect(toolName(t)).toBe('sayHello');
    expect(toolDescription(t)).toBe('Returns a friendly greeting message for the given name');
    expect(toolSchema(t)).toBe(schema);
    expect(toolOutputSchema(t)).toEqual({ type: 'string' });
    expect(t.invoke).toBe(impl);
    expect(t.limits).toEqual({ timeoutMs: 1000 });
    expect(Object.isFrozen(t)).toBe(true);
    expect(Object.isFrozen(t.limits)).toBe(true);
    expect(isTool(t)).toBe(true);
    expect(validateTool(t)).toEqual([]);
  });

  it('is not serializable, and says so instead of losing its function', () => {
    const t = createTool('sayHello', 'Greets', schema, () => 'hi');
    const json = JSON.parse(JSON.stringify({ tools: [t] })) as { tools: Array<Record<string, unknown>> };
    expect(json.tools[0]).toEqual({
      code: 'TOOL_NOT_SERIALIZABLE',
      severity: 'error',
      message: 'tool "sayHello" is not serializable: it holds a function',
      hint: 'serialize its ToolSpecification (name, description, typeSignature) and bind it to a library at run time',
    });
    // the marker does not show up as data
    expect(Object.keys(t)).not.toContain('toJSON');
  });
});

describe('defineTool', () => {
  it('takes name, description and both schemas from the specification', () => {
    const t = defineTool<{ name: string; times: number }, string>(greetSpec, greet, { limits: { maxCallsPerMinute: 10 } });
    expect(t.name).toBe(greetSpec.name);
    expect(t.description).toBe(greetSpec.description);
    expect(t.schema).toBe(greetSpec.schema);
    expect(t.outputSchema).toBe(greetSpec.outputSchema);
    expect(t.limits).toEqual({ maxCallsPerMinute: 10 });
    expect(JSON.stringify(t)).toContain('TOOL_NOT_SERIALIZABLE');
  });
});

describe('defineTool from gram text', () => {
  const gram = `
[sayHello:Tool {description: "Returns a friendly greeting for the given name"} |
  (personName::String {default: "world", description: "Who to greet"})==>(::String)
]`;

  it('compiles the text and implements the tool it defines, which binds to the same text', async () => {
    const r = defineTool<{ personName: string }, string>(gram, (a) => `Hello, ${a.personName}!`);
    expect(r._tag).toBe('Right');
    if (r._tag !== 'Right') return;
    const specs = parseSpecifications(gram);
    if (specs._tag === 'Left') throw new Error('spec');
    const bound = bindTool(specs.right.tools[0] as ToolSpecification, toolLibrary([r.right]));
    expect(bound._tag).toBe('Right');
    if (bound._tag === 'Right') expect(await invoke(bound.right, {})).toEqual({ ok: true, value: 'Hello, world!' });
  });

  it('gives diagnostics, not exceptions, for text with errors, no tool, or several', () => {
    const bad = defineTool('[broken:Tool {description: "x"} | (a::NoSuchType)==>(::String)]', () => 'x');
    expect(bad._tag === 'Left' && bad.left.length).toBeGreaterThan(0);
    const none = defineTool('(a)-->(b)', () => 'x');
    expect(none._tag === 'Left' && none.left.map((d) => d.code)).toEqual(['TOOL_DEFINE_NO_TOOL']);
    const two = `${gram}\n[other:Tool {description: "Other"} | (::String {paramName: "q"})==>(::String)]`;
    const ambiguous = defineTool(two, () => 'x');
    expect(ambiguous._tag === 'Left' && ambiguous.left.map((d) => d.code)).toEqual(['TOOL_DEFINE_AMBIGUOUS']);
    const picked = defineTool(two, () => 'x', { name: 'other' });
    expect(picked._tag === 'Right' && picked.right.name).toBe('other');
    const missing = defineTool(two, () => 'x', { name: 'third', filename: 'tools.gram' });
    expect(missing._tag === 'Left' && missing.left[0]).toMatchObject({
      code: 'TOOL_DEFINE_NOT_FOUND',
      file: 'tools.gram',
      hint: 'it defines "sayHello", "other"',
    });
  });
});

describe('validateTool', () => {
  it('reports everything wrong with a would-be tool, without throwing', () => {
    const codes = (v: unknown) => validateTool(v).map((d) => d.code);
    expect(codes(null)).toEqual(['TOOL_INVALID']);
    expect(codes(42)).toEqual(['TOOL_INVALID']);
    expect(codes({})).toEqual(['TOOL_INVALID_NAME', 'TOOL_INVALID_DESCRIPTION', 'TOOL_INVALID_SCHEMA', 'TOOL_INVALID_IMPLEMENTATION']);
    expect(codes({ name: 'x', description: ' ', schema: [], invoke: 'f' })).toEqual([
      'TOOL_INVALID_DESCRIPTION',
      'TOOL_INVALID_SCHEMA',
      'TOOL_INVALID_IMPLEMENTATION',
    ]);
    const limits = validateTool({
      name: 'x',
      description: 'd',
      schema: {},
      invoke: () => 1,
      outputSchema: 3,
      limits: { timeoutMs: -1, maxCallsPerMinute: 1.5, maxResultBytes: Number.NaN },
    });
    expect(limits.map((d) => d.code)).toEqual(['TOOL_INVALID_SCHEMA', 'TOOL_INVALID_LIMIT', 'TOOL_INVALID_LIMIT', 'TOOL_INVALID_LIMIT']);
    expect(limits[2]?.message).toBe('tool "x": limits.maxResultBytes must be a positive number, got NaN');
    expect(limits[3]?.message).toBe('tool "x": limits.maxCallsPerMinute must be a positive integer, got 1.5');
    expect(isTool({ name: 'x', description: 'd', schema: true, invoke: () => 1 })).toBe(true);
    expect(isTool({ name: 'x', description: 'd', schema: true })).toBe(false);
  });
});
