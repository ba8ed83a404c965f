import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type Diagnostic,
  type Specifications,
  createToolSpecification,
  encodeSpecifications,
  formatDiagnostics,
  loadSpecificationFiles,
  loadSpecifications,
  parseSpecifications,
  printSpecifications,
  validateToolArgs,
} from '../../src/index.js';
import { compiledSchemaCount } from '../../src/schema/validate.js';

const ok = (text: string, options = {}): Specifications => {
  const r = parseSpecifications(text, options);
  if (r._tag === 'Left') throw new Error(formatDiagnostics(r.left, text));
  return r.right;
};

const fail = (text: string, options = {}): ReadonlyArray<Diagnostic> => {
  const r = parseSpecifications(text, options);
  if (r._tag === 'Right') throw new Error('expected errors');
  return r.left;
};

const under = (text: string, d: Diagnostic | { span?: { start: number; end: number } } | undefined): string | undefined =>
  d?.span === undefined ? undefined : text.slice(d.span.start, d.span.end);

const HELLO = `// from the design
[sayHello:ToolSpecification {description: "Returns a friendly greeting for the given name"} |
  (::Text {paramName: "name"})==>(::String)
]

[hello_world_agent:Agent {
  description: "A friendly agent that greets people",
  instruction: \`\`\`
  When the user greets you, call sayHello with their name.
  \`\`\`,
  model: "openai/gpt-4o-mini"
} | sayHello ]
`;

describe('parseSpecifications', () => {
  it('reads the tool and the agent of the design', () => {
    const s = ok(HELLO);
    expect(s.tools.map((t) => [t.name, t.description, t.typeSignature])).toEqual([
      ['sayHello', 'Returns a friendly greeting for the given name', '(::Text {paramName: "name"})==>(::String)'],
    ]);
    expect(s.tools[0]?.schema).toEqual({ type: 'object', additionalProperties: false, properties: { name: { type: 'string' } }, required: ['name'] });
    const a = s.agents[0];
    expect([a?.name, a?.description, a?.instruction, a?.model]).toEqual([
      'hello_world_agent',
      'A friendly agent that greets people',
      'When the user greets you, call sayHello with their name.',
      'openai/gpt-4o-mini',
    ]);
    expect(a?.tools.map((t) => t.name)).toEqual(['sayHello']);
    expect(a?.tools[0]).toBe(s.tools[0]);
  });

  it('accepts Tool as an alias of ToolSpecification, and inline tools in agents', () => {
    const s = ok(
      '[a:Agent {description: "d", instruction: "i"} | [t:Tool {description: "x"} | (q::String)==>(::String)], [u:ToolSpecification {description: "y"} | ()==>(::Integer)]]',
    );
    expect(s.tools.map((t) => t.name)).toEqual(['t', 'u']);
    expect(s.agents[0]?.tools.map((t) => t.name)).toEqual(['t', 'u']);
    expect(s.agents[0]?.model).toBeUndefined();
  });

  it('keeps the other record properties as metadata (tagged strings, ranges and measurements in canonical JSON)', () => {
    const s = ok(
      '[w:Tool {description: "x", http: {method: "GET", url: url`https://e.com/${q}`, retry: 1..3}, timeout: 10s, tags: ["a", "b"], none: null} | (q::String)==>(::String)]',
    );
    expect(s.tools[0]?.metadata).toEqual({
      http: { method: 'GET', url: { type: 'tagged', tag: 'url', content: 'https://e.com/${q}' }, retry: { type: 'range', lower: 1, upper: 3 } },
      timeout: { type: 'measurement', unit: 's', value: 10 },
      tags: ['a', 'b'],
      none: null,
    });
    const agentMeta = ok('[a:Agent {description: "d", instruction: "i", maxSteps: 5}]').agents[0]?.metadata;
    expect(agentMeta).toEqual({ maxSteps: 5 });
  });

  it("warns about the properties of tools and agents that gramkit does not read, with a suggestion; x- properties are the user's own", () => {
    const text =
      '[t:Tool {description: "x", desciption: "y", x-owner: "me"} | (q::String)==>(::String)]\n[a:Agent {description: "d", instruction: "i", modle: "m", temperature: 0.2, `x-team`: "a"} | t]';
    const s = ok(text);
    expect(s.warnings.map((d) => [d.code, d.severity, under(text, d), d.hint])).toEqual([
      ['SPEC_UNKNOWN_PROPERTY', 'warning', 'desciption', 'did you mean `description`? metadata of your own takes an `x-` prefix: `x-desciption`'],
      ['SPEC_UNKNOWN_PROPERTY', 'warning', 'modle', 'did you mean `model`? metadata of your own takes an `x-` prefix: `x-modle`'],
      [
        'SPEC_UNKNOWN_PROPERTY',
        'warning',
        'temperature',
        'known properties: description, instruction, model; metadata of your own takes an `x-` prefix: `x-temperature`',
      ],
    ]);
    // nothing is lost: every property is metadata
    expect(s.tools[0]?.metadata).toEqual({ desciption: 'y', 'x-owner': 'me' });
    expect(s.agents[0]?.metadata).toEqual({ modle: 'm', temperature: 0.2, 'x-team': 'a' });
  });

  it('shares parameter identifiers across the signatures of a file, references included', () => {
    const text =
      '[a:Tool {description: "x"} | (city::String {description: "City"})==>(::String)]\n[b:Tool {description: "y"} | (city)==>(n::Int)==>(::String)]';
    const s = ok(text);
    expect(s.tools[1]?.schema).toEqual({
      type: 'object',
      additionalProperties: false,
      properties: { city: { type: 'string', description: 'City' }, n: { type: 'integer' } },
      required: ['city', 'n'],
    });
    // the signature text stands alone: the reference is replaced by its definition
    expect(s.tools[1]?.typeSignature).toBe('(city::String {description: "City"})==>(n::Int)==>(::String)');
    expect(createToolSpecification('b', 'y', s.tools[1]?.typeSignature ?? '')._tag).toBe('Right');
  });

  it('scopes parameter names to their tool: two tools may declare `query` differently', () => {
    const text = '[a:Tool {description: "x"} | (query::String)==>(::String)]\n[b:Tool {description: "y"} | (query::Int {optional: true})==>(::String)]';
    const s = ok(text);
    expect(s.tools.map((t) => t.schema)).toEqual([
      { type: 'object', additionalProperties: false, properties: { query: { type: 'string' } }, required: ['query'] },
      { type: 'object', additionalProperties: false, properties: { query: { type: 'integer' } } },
    ]);
  });

  it('reports a reference to an identifier the signatures of a file define differently, pointing at each definition', () => {
    const text =
      '[a:Tool {description: "x"} | (city::String)==>(::String)]\n[b:Tool {description: "y"} | (city::Int)==>(::String)]\n[c:Tool {description: "z"} | (city)==>(::String)]';
    const d = fail(text).find((x) => x.code === 'SPEC_CONFLICTING_PARAM');
    expect(under(text, d)).toBe('(city)');
    expect(d?.related?.map((r) => under(text, r))).toEqual(['(city::String)', '(city::Int)']);
    // the same definition twice is fine
    ok(
      '[a:Tool {description: "x"} | (city::String)==>(::String)]\n[b:Tool {description: "y"} | (city::String)==>(::Integer)]\n[c:Tool {description: "z"} | (city)==>(::String)]',
    );
  });

  it('reports every problem of a file at once, in source order', () => {
    const text = [
      '[a:Tool {description: "x"} | (city::Strin)==>(::String)]',
      '[b:Tool | (q::String)==>(::String)]',
      '[c:Tool {description: "z"}]',
      '[d:Tool {description: "w"} | (a::Int)==>(::String), (b::Int)==>(::String)]',
      '[:Tool {description: "v"} | (a::Int)==>(::String)]',
      '[ag:Agent {description: "d"} | a, nope, b]',
      '[a:Tool {description: "again"} | ()==>(::String)]',
      '[ag2:Agent {description: "d", instruction: "i"} | (x::Int)==>(::String)]',
    ].join('\n');
    const ds = fail(text);
    expect(ds.map((d) => d.code)).toEqual([
      'SPEC_UNKNOWN_TYPE',
      'SPEC_MISSING_DESCRIPTION',
      'SPEC_MISSING_SIGNATURE',
      'SPEC_MULTIPLE_SIGNATURES',
      'SPEC_MISSING_NAME',
      'SPEC_MISSING_INSTRUCTION',
      'SPEC_UNKNOWN_TOOL',
      'SPEC_DUPLICATE_NAME',
      'SPEC_INVALID_AGENT_ELEMENT',
    ]);
    expect(ds.every((d) => d.span !== undefined)).toBe(true);
    const dup = ds.find((d) => d.code === 'SPEC_DUPLICATE_NAME');
    expect(under(text, dup)).toBe('a');
    expect(dup?.related?.[0]?.span.start).toBe(1);
    expect(ds.find((d) => d.code === 'SPEC_UNKNOWN_TOOL')?.hint).toBe('tools defined: a, b, c, d');
  });

  it('lets agents use known tools (the built-in ones), and warns about near-miss labels', () => {
    const builtin = createToolSpecification('read_file', 'Reads a file', '(path::String)==>(::String)');
    if (builtin._tag === 'Left') throw new Error('builtin');
    const s = ok('[a:Agent {description: "d", instruction: "i"} | read_file]\n[x:Tools {description: "oops"}]', { knownTools: [builtin.right] });
    expect(s.agents[0]?.tools[0]).toBe(builtin.right);
    expect(s.warnings.map((w) => w.code)).toEqual(['SPEC_UNKNOWN_LABEL']);
    expect(fail('[a:Agent {description: "d", instruction: "i"} | read_file]').map((d) => d.code)).toEqual(['SPEC_UNKNOWN_TOOL']);
  });

  it('leaves other patterns alone', () => {
    const s = ok('(alice:Person {name: "Alice"})-[:KNOWS]->(bob:Person)\n[team:Team | alice, bob]\n[t:Tool {description: "x"} | ()==>(::String)]');
    expect(s.tools.map((t) => t.name)).toEqual(['t']);
    expect(s.warnings).toEqual([]);
  });

  it('rejects nested values in strict mode (the gram extension), and accepts them by default', () => {
    const text = '[t:Tool {description: "x"} | (p::Object {fields: [{name: "a", type: "Int"}]})==>(::String)]';
    ok(text);
    expect(fail(text, { strict: true })[0]?.code).toMatch(/^GRAM_/);
  });

  it('compiles no validator while loading 1,000 tools; the first call compiles one', () => {
    const text = Array.from(
      { length: 1000 },
      (_, i) => `[t${i}:Tool {description: "tool ${i}"} | (a${i}::Int {range: 0..${i + 1}})==>(b${i}::String {default: "x${i}"})==>(::String)]`,
    ).join('\n');
    const before = compiledSchemaCount();
    const s = ok(text);
    expect(s.tools.length).toBe(1000);
    expect(compiledSchemaCount()).toBe(before);
    const t = s.tools[999];
    if (t === undefined) throw new Error('tool');
    expect(validateToolArgs(t.schema, { a999: 1000 })).toEqual({ _tag: 'Right', right: { a999: 1000, b999: 'x999' } });
    expect(compiledSchemaCount()).toBe(before + 1);
    expect(validateToolArgs(t.schema, { a999: 1001 })._tag).toBe('Left');
    expect(compiledSchemaCount()).toBe(before + 1);
  });
});

describe('gram and JSON forms of a whole document', () => {
  it('prints a document that reads back to the same specifications, agents included', () => {
    const s = ok(HELLO);
    const printed = printSpecifications(s);
    const again = ok(printed);
    expect(encodeSpecifications(again)).toEqual(encodeSpecifications(s));
    expect(printSpecifications(again)).toBe(printed);
    expect(printed).toContain('instruction: "When the user greets you, call sayHello with their name."');
  });

  it('writes a multi-line instruction as a fenced string that reads back unchanged', () => {
    const s = ok('[a:Agent {description: "d", instruction: ```\n    Line one.\n      Indented.\n    ```}]');
    expect(s.agents[0]?.instruction).toBe('Line one.\n  Indented.');
    const printed = printSpecifications(s);
    expect(printed).toContain('```');
    expect(ok(printed).agents[0]?.instruction).toBe('Line one.\n  Indented.');
  });
});

describe('several sources', () => {
  it('resolves agents against the tools of every source, gram and JSON', () => {
    const tools = '[t:Tool {description: "x"} | (q::String)==>(::String)]';
    const json = JSON.stringify({
      tools: [{ name: 'j', description: 'J', typeSignature: '(n::Int)==>(::Int)' }],
      agents: [{ name: 'ja', description: 'd', instruction: 'i', tools: ['t', 'j'] }],
    });
    const agent = '[ga:Agent {description: "d", instruction: "i"} | t, j]';
    const r = loadSpecifications([
      { text: tools, filename: 'tools.gram' },
      { text: json, filename: 'more.json' },
      { text: agent, filename: 'agent.gram' },
    ]);
    if (r._tag === 'Left') throw new Error(JSON.stringify(r.left));
    expect(r.right.tools.map((t) => t.name).sort()).toEqual(['j', 't']);
    expect(r.right.agents.map((a) => [a.name, a.tools.map((t) => t.name)])).toEqual([
      ['ga', ['t', 'j']],
      ['ja', ['t', 'j']],
    ]);
  });

  it('reports a name defined in two files, with both files', () => {
    const r = loadSpecifications([
      { text: '[t:Tool {description: "x"} | ()==>(::String)]', filename: 'a.gram' },
      { text: '\n[t:Tool {description: "y"} | ()==>(::String)]', filename: 'b.gram' },
    ]);
    if (r._tag === 'Right') throw new Error('expected a duplicate');
    const d = r.left.find((x) => x.code === 'SPEC_DUPLICATE_NAME');
    expect(d?.file).toBe('b.gram');
    expect(d?.related?.[0]?.file).toBe('a.gram');
  });

  it('reads files, and reports a file it cannot read without rejecting', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gramkit-spec-'));
    writeFileSync(join(dir, 'a.gram'), '[t:Tool {description: "x"} | ()==>(::String)]');
    writeFileSync(join(dir, 'b.gram'), '[ag:Agent {description: "d", instruction: "i"} | t]');
    const r = await loadSpecificationFiles([join(dir, 'a.gram'), join(dir, 'b.gram')]);
    expect(r._tag === 'Right' && r.right.agents[0]?.tools[0]?.name).toBe('t');
    const missing = await loadSpecificationFiles([join(dir, 'a.gram'), join(dir, 'nope.gram')]);
    expect(missing._tag === 'Left' && missing.left.map((d) => d.code)).toEqual(['SPEC_READ_ERROR']);
  });
});
