/**
 * Importing tool definitions: JSON Schema (2020-12, draft-07), OpenAI, MCP, Anthropic. Each imported
 * schema must accept and reject the same values as the original (ajv, on samples of the imported
 * type and their mutations), and the gram written is pinned by golden files.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type JsonObject, type JsonValue, checkedDiagnostics, checkedValue, compileSchema, importTools, parseSpecifications } from '../../src/index.js';
import { checkFromJsonSchema, detectFormat, fromJsonSchema, importSucceeded, toJsonSchema } from '../../src/entries/types.js';
import { valueArbitrary } from '../../src/testing/arbitrary.js';
import { expectGolden } from '../support/golden.js';
import { mutations } from './support/mutate.js';

const fixture = (name: string): string => readFileSync(new URL(`../fixtures/spec/import/${name}`, import.meta.url), 'utf8');

/** The argument schema of each definition of a fixture, as the provider gives it. */
const originals = (name: string): Map<string, JsonObject> => {
  const raw = JSON.parse(fixture(name)) as unknown;
  const list = (Array.isArray(raw) ? raw : ((raw as { tools?: unknown[] }).tools ?? [raw])) as JsonObject[];
  const out = new Map<string, JsonObject>();
  for (const d of list) {
    const f = (d['function'] ?? d) as JsonObject;
    const schema = (f['parameters'] ?? f['inputSchema'] ?? f['input_schema'] ?? f) as JsonObject;
    out.set(String(f['name'] ?? f['title']), schema);
  }
  return out;
};

/** Checks that each imported tool's schema agrees with the original on samples. */
const agrees = (name: string): void => {
  const r = importTools(fixture(name), { file: name });
  const orig = originals(name);
  for (const t of r.tools) {
    if (t.spec === undefined) continue;
    const a = compileSchema(orig.get(t.name) as JsonObject);
    const b = compileSchema(t.spec.schema);
    if (a._tag === 'Left' || b._tag === 'Left' || t.spec.signature === undefined) throw new Error(`${t.name}: does not compile`);
    const values = fc.sample(valueArbitrary(t.spec.signature.args), { numRuns: 60, seed: 42 });
    let n = 0;
    for (const v of values) {
      for (const m of [v, ...mutations(v, n++)]) expect(b.right.check(m), `${t.name}: ${JSON.stringify(m)}`).toBe(a.right.check(m as JsonValue));
    }
    // the generator's values validate against the original too
    for (const v of values) expect(a.right.check(v), `${t.name}: ${JSON.stringify(v)}`).toBe(true);
  }
};

const codes = (name: string) => {
  const r = importTools(fixture(name), { file: name });
  return Object.fromEntries(r.tools.map((t) => [t.name, t.diagnostics.map((d) => `${d.severity}:${d.code}`)]));
};

describe('import', { timeout: 60_000 }, () => {
  for (const name of ['mcp-filesystem.json', 'mcp-pydantic.json', 'openai-tools.json', 'anthropic-tools.json', 'jsonschema-draft07.json']) {
    it(`imports ${name}: golden gram, and the same values accepted and rejected`, () => {
      const r = importTools(fixture(name), { file: name, name: 'fallback_name' });
      expect(importSucceeded(r), JSON.stringify(r.tools.map((t) => t.diagnostics))).toBe(true);
      expectGolden(`spec/golden/import/${name.replace(/\.json$/, '.gram')}`, r.gram);
      const back = parseSpecifications(r.gram);
      expect(back._tag).toBe('Right');
      agrees(name);
    });
  }

  it('detects each format from the shape of a definition', () => {
    expect(detectFormat({ type: 'function', function: { name: 'a', parameters: {} } })).toBe('openai');
    expect(detectFormat({ name: 'a', parameters: { type: 'object' } })).toBe('openai');
    expect(detectFormat({ name: 'a', parameters: { type: 'dict', properties: {} } })).toBe('bfcl');
    expect(detectFormat({ name: 'a', inputSchema: {} })).toBe('mcp');
    expect(detectFormat({ name: 'a', input_schema: {} })).toBe('anthropic');
    expect(detectFormat({ type: 'object', properties: {} })).toBe('jsonschema');
  });

  it('says what changed on the way, per tool', () => {
    expect(codes('mcp-pydantic.json')).toEqual({ search_flights: [] });
    expect(codes('jsonschema-draft07.json')).toEqual({ plot_route: [] });
    expect(codes('anthropic-tools.json')).toEqual({ get_stock_price: [] });
  });

  it('keeps the properties of a definition that are not its schema as metadata', () => {
    const r = importTools(fixture('mcp-filesystem.json'));
    const specs = Object.fromEntries(r.tools.map((t) => [t.name, t.spec]));
    expect(specs['read_text_file']?.metadata).toEqual({ annotations: { readOnlyHint: true } });
    expect(specs['list_directory_with_sizes']?.metadata).toEqual({ title: 'List directory with sizes' });
    expect(specs['list_directory_with_sizes']?.outputSchema).toEqual({ type: 'object', properties: { content: { type: 'string' } }, required: ['content'] });
    const openai = importTools(fixture('openai-tools.json'));
    expect(openai.tools[0]?.spec?.metadata).toEqual({ strict: true });
    const anthropic = importTools(fixture('anthropic-tools.json'));
    expect(anthropic.tools[0]?.spec?.metadata).toEqual({ cache_control: { type: 'ephemeral' } });
  });

  it('reports what cannot be imported, per tool with its reason, and keeps the rest', () => {
    const r = importTools(fixture('unsupported.json'));
    expect(codes('unsupported.json')).toEqual({
      negation: ['error:SPEC_IMPORT_UNSUPPORTED_KEYWORD'],
      conditional: ['error:SPEC_IMPORT_UNSUPPORTED_KEYWORD', 'error:SPEC_IMPORT_UNSUPPORTED_KEYWORD'],
      patterns: ['error:SPEC_IMPORT_UNSUPPORTED_KEYWORD'],
      tree: ['error:SPEC_IMPORT_RECURSIVE_REF'],
      annotated: ['warning:SPEC_IMPORT_KEYWORD_DROPPED', 'warning:SPEC_IMPORT_KEYWORD_DROPPED', 'warning:SPEC_IMPORT_KEYWORD_DROPPED'],
      remote: ['error:SPEC_IMPORT_UNRESOLVED_REF'],
    });
    const messages = r.tools.flatMap((t) => t.diagnostics.map((d) => d.message));
    expect(messages).toContain('tool "negation": `inputSchema/properties/x/not`: `not` has no equivalent in gram types');
    expect(messages.some((m) => m.includes('`nullable` is OpenAPI'))).toBe(true);
    expect(r.tools.filter((t) => t.spec !== undefined).map((t) => t.name)).toEqual(['annotated']);
    expect(r.gram).toContain('[annotated:Tool');
    expect(importSucceeded(r)).toBe(false);
  });

  it('reports definitions without a name or a description, and input that is not JSON', () => {
    const r = importTools(JSON.stringify({ type: 'object', properties: { a: { type: 'string' } } }));
    expect(r.tools[0]?.diagnostics.map((d) => d.code)).toEqual(['SPEC_IMPORT_MISSING_NAME', 'SPEC_IMPORT_MISSING_DESCRIPTION']);
    expect(importTools('{"a": ').diagnostics.map((d) => d.code)).toEqual(['SPEC_IMPORT_INVALID_INPUT']);
    expect(importTools('').diagnostics.map((d) => d.code)).toEqual(['SPEC_IMPORT_INVALID_INPUT']);
  });

  it('reads JSON lines', () => {
    const lines = [
      JSON.stringify({ name: 'a', description: 'A', parameters: { type: 'object', properties: {} } }),
      JSON.stringify({ name: 'b', description: 'B', inputSchema: { type: 'object', properties: { x: { type: 'integer' } } } }),
    ].join('\n');
    const r = importTools(lines);
    expect(r.tools.map((t) => [t.name, t.format, t.spec !== undefined])).toEqual([
      ['a', 'openai', true],
      ['b', 'mcp', true],
    ]);
  });

  it('writes a repeated identical definition once, and reports a different one', () => {
    const a = { name: 'a', description: 'A', parameters: { type: 'object', properties: { x: { type: 'integer' } } } };
    const r = importTools(JSON.stringify([a, a, { ...a, description: 'other' }]));
    expect(r.tools.map((t) => t.diagnostics.map((d) => `${d.severity}:${d.code}`))).toEqual([
      [],
      ['info:SPEC_IMPORT_DUPLICATE'],
      ['error:SPEC_IMPORT_DUPLICATE'],
    ]);
  });

  it('names parameters by identifier, per tool: one name may mean different things in two tools', () => {
    const r = importTools(
      JSON.stringify([
        { name: 'a', description: 'A', parameters: { type: 'object', properties: { path: { type: 'string', description: 'a file' } }, required: ['path'] } },
        { name: 'b', description: 'B', parameters: { type: 'object', properties: { path: { type: 'integer', description: 'a depth' } } } },
      ]),
    );
    expect(r.gram).toContain('(path::String {description: "a file"})');
    expect(r.gram).toContain('(path::Integer {description: "a depth", optional: true})');
    expect(r.gram).not.toContain('paramName');
    const back = parseSpecifications(r.gram);
    if (back._tag === 'Left') throw new Error(JSON.stringify(back.left));
    expect(back.right.tools.map((t) => t.schema.properties)).toEqual([
      { path: { type: 'string', description: 'a file' } },
      { path: { type: 'integer', description: 'a depth' } },
    ]);
    // a name that is not a gram identifier is written with paramName
    const spaced = importTools(
      JSON.stringify([{ name: 'c', description: 'C', parameters: { type: 'object', properties: { 'first name': { type: 'string' } } } }]),
    );
    expect(spaced.gram).toContain('paramName: "first name"');
  });
});

describe('JSON Schema to types', () => {
  const imported = (schema: unknown) => {
    const r = fromJsonSchema(schema);
    if (r._tag === 'Left') throw new Error(JSON.stringify(r.left));
    return toJsonSchema(r.right);
  };

  it('reads nullable types, type arrays and anyOf', () => {
    expect(imported({ type: ['string', 'null'] })).toEqual({ type: ['string', 'null'] });
    expect(imported({ anyOf: [{ type: 'string' }, { type: 'null' }], description: 'x' })).toEqual({ type: ['string', 'null'], description: 'x' });
    expect(imported({ type: ['string', 'integer'], minLength: 2 })).toEqual({ anyOf: [{ type: 'string', minLength: 2 }, { type: 'integer' }] });
  });

  it('reads draft-04 boolean exclusive bounds', () => {
    const r = checkFromJsonSchema({ type: 'number', minimum: 3, exclusiveMinimum: true });
    expect(checkedValue(r) && toJsonSchema(checkedValue(r)!)).toEqual({ type: 'number', exclusiveMinimum: 3 });
    expect(checkedDiagnostics(r).map((d) => d.code)).toEqual(['SPEC_IMPORT_NOTE']);
  });

  it('merges allOf, and $ref with sibling keywords (2020-12)', () => {
    expect(
      imported({
        allOf: [
          { type: 'integer', minimum: 0 },
          { maximum: 9, description: 'digit' },
        ],
      }),
    ).toEqual({ type: 'integer', description: 'digit', minimum: 0, maximum: 9 });
    expect(imported({ $defs: { n: { type: 'integer' } }, type: 'object', properties: { a: { $ref: '#/$defs/n', minimum: 1 } } })).toEqual({
      type: 'object',
      properties: { a: { type: 'integer', minimum: 1 } },
    });
  });

  it('ignores keywords next to $ref in draft-07, as its validators do, with a warning', () => {
    const r = checkFromJsonSchema({
      $schema: 'http://json-schema.org/draft-07/schema#',
      definitions: { n: { type: 'integer' } },
      type: 'object',
      properties: { a: { $ref: '#/definitions/n', minimum: 1 } },
    });
    expect(checkedValue(r) && toJsonSchema(checkedValue(r)!)).toEqual({ type: 'object', properties: { a: { type: 'integer' } } });
    expect(checkedDiagnostics(r).map((d) => d.code)).toEqual(['SPEC_IMPORT_KEYWORD_IGNORED']);
  });

  it('reads oneOf as a union, warning when branches overlap', () => {
    expect(checkedDiagnostics(checkFromJsonSchema({ oneOf: [{ type: 'string' }, { type: 'integer' }] }))).toEqual([]);
    expect(
      checkedDiagnostics(
        checkFromJsonSchema({
          oneOf: [
            { type: 'object', properties: { k: { const: 'a' } }, required: ['k'] },
            { type: 'object', properties: { k: { const: 'b' } }, required: ['k'] },
          ],
        }),
      ),
    ).toEqual([]);
    expect(checkedDiagnostics(checkFromJsonSchema({ oneOf: [{ type: 'number' }, { type: 'integer' }] })).map((d) => d.code)).toEqual([
      'SPEC_IMPORT_ONEOF_AS_ANYOF',
    ]);
  });

  it('drops what does not validate, saying so: enum values of the wrong type, invalid defaults, misplaced keywords', () => {
    const r = checkFromJsonSchema({ type: 'string', enum: ['a', 1], default: 2, maximum: 3 });
    expect(checkedValue(r) && toJsonSchema(checkedValue(r)!)).toEqual({ type: 'string', enum: ['a'] });
    expect(
      checkedDiagnostics(r)
        .map((d) => d.code)
        .sort(),
    ).toEqual(['SPEC_IMPORT_DEFAULT_DROPPED', 'SPEC_IMPORT_KEYWORD_IGNORED', 'SPEC_IMPORT_VALUE_DROPPED']);
  });

  it('rejects what cannot be written, and schemas that are not JSON Schema', () => {
    expect(checkedDiagnostics(checkFromJsonSchema({ type: 'dict' })).map((d) => [d.code, d.hint])).toEqual([
      ['SPEC_IMPORT_INVALID_SCHEMA', "this is BFCL's dialect: import with `--from bfcl`"],
    ]);
    expect(checkedDiagnostics(checkFromJsonSchema({ type: 'array', prefixItems: [{ type: 'string' }] })).map((d) => d.code)).toEqual([
      'SPEC_IMPORT_UNSUPPORTED_KEYWORD',
    ]);
    expect(checkedDiagnostics(checkFromJsonSchema({ type: 'string', minLength: -1 })).map((d) => d.code)).toEqual(['SPEC_IMPORT_INVALID_SCHEMA']);
    expect(checkedDiagnostics(checkFromJsonSchema({ type: 'string', const: 3 })).map((d) => d.code)).toEqual(['SPEC_IMPORT_UNSATISFIABLE']);
    expect(checkedDiagnostics(checkFromJsonSchema(false)).map((d) => d.code)).toEqual(['SPEC_IMPORT_UNSUPPORTED_KEYWORD']);
  });

  it('reads a 2020-12 exact tuple, and rejects open ones', () => {
    expect(imported({ type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }], items: false, minItems: 2 })).toEqual({
      type: 'array',
      prefixItems: [{ type: 'string' }, { type: 'integer' }],
      minItems: 2,
      maxItems: 2,
    });
  });
});
