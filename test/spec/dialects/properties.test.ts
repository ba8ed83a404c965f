/**
 * Laws of the exporters, on generated schemas and values:
 * - a provider never rejects a call the canonical schema accepts (lowering only loosens);
 * - when an export reports no warning (only `info` rewrites), the lowered schema accepts exactly
 *   what the canonical one accepts, once `normalizeArguments` has undone the lowering, and
 *   `normalizeArguments` gives the canonical value back;
 * - every exported definition obeys its provider's rules (`checkExportedTool`);
 * - tool names round-trip through the reverse map, and provider names are valid and distinct.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkExportedTool,
  DIALECTS,
  exportTool,
  exportTools,
  isValidToolName,
  normalizeArguments,
  sanitizeToolName,
  toolNameMap,
  type Dialect,
} from '../../../src/entries/providers.js';
import { compileSchema, type JsonObject, type JsonValue } from '../../../src/index.js';
import { generatedSchema, mutate } from './schema-arbitrary.js';

// -------------------------------------------------------------------------------------------------
// helpers
// -------------------------------------------------------------------------------------------------

const isObj = (v: unknown): v is Record<string, JsonValue> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Gemini's OpenAPI subset read as JSON Schema (for ajv): `nullable` becomes a null type. */
const geminiToJsonSchema = (s: JsonValue): JsonValue => {
  if (Array.isArray(s)) return s.map(geminiToJsonSchema);
  if (!isObj(s)) return s;
  const out: Record<string, JsonValue> = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === 'nullable' || k === 'propertyOrdering' || k === 'example' || (k === 'format' && v === 'enum')) continue;
    out[k] = k === 'properties' && isObj(v) ? Object.fromEntries(Object.entries(v).map(([n, x]) => [n, geminiToJsonSchema(x)])) : geminiToJsonSchema(v);
  }
  if (s['nullable'] === true) {
    if (typeof out['type'] === 'string') out['type'] = [out['type'], 'null'];
    if (Array.isArray(out['enum'])) out['enum'] = [...out['enum'], null];
    if (out['type'] === undefined && Array.isArray(out['anyOf'])) out['anyOf'] = [...out['anyOf'], { type: 'null' }];
  }
  return out;
};

/** The argument schema inside an exported definition, as JSON Schema. */
const loweredSchema = (d: Dialect, tool: JsonObject): JsonObject => {
  switch (d) {
    case 'jsonschema':
      return tool;
    case 'openai':
    case 'openai-strict':
      return (tool['function'] as JsonObject)['parameters'] as JsonObject;
    case 'anthropic':
      return tool['input_schema'] as JsonObject;
    case 'mcp':
      return tool['inputSchema'] as JsonObject;
    case 'gemini':
      return (tool['parameters'] === undefined ? { type: 'object' } : geminiToJsonSchema(tool['parameters'])) as JsonObject;
  }
};

/**
 * How a model answers under the lowered schema (test side, independent of the exporters):
 * strict mode sends null for every optional property it leaves out; Gemini sends enum numbers as
 * strings.
 */
const raise = (d: Dialect, strict: boolean, s: JsonValue | undefined, v: JsonValue): JsonValue => {
  if (!isObj(s)) return v;
  if (d === 'gemini' && typeof v === 'number') {
    const allowed = Array.isArray(s['enum']) ? s['enum'] : 'const' in s ? [s['const'] as JsonValue] : undefined;
    if (allowed?.some((x) => typeof x === 'number')) return String(v);
  }
  if (Array.isArray(v)) {
    const prefix = Array.isArray(s['prefixItems']) ? s['prefixItems'] : [];
    return v.map((x, i) => raise(d, strict, i < prefix.length ? prefix[i] : (s['items'] as JsonValue | undefined), x));
  }
  if (isObj(v) && isObj(s['properties'])) {
    const props = s['properties'];
    const required = Array.isArray(s['required']) ? s['required'] : [];
    const out: Record<string, JsonValue> = {};
    for (const [k, x] of Object.entries(v)) out[k] = raise(d, strict, props[k], x);
    if (d === 'openai-strict' && strict) for (const k of Object.keys(props)) if (!(k in v) && !required.includes(k)) out[k] = null;
    return out;
  }
  return v;
};

const checker = (schema: JsonValue): ((v: unknown) => boolean) => {
  const c = compileSchema(schema as JsonObject);
  if (c._tag === 'Left') throw new Error(`does not compile: ${c.left.message} ${JSON.stringify(schema)}`);
  return c.right.check;
};

const isStrict = (d: Dialect, tool: JsonObject): boolean => d === 'openai-strict' && (tool['function'] as JsonObject)['strict'] === true;

// -------------------------------------------------------------------------------------------------
// laws
// -------------------------------------------------------------------------------------------------

const samples = (g: { schema: JsonObject; value: fc.Arbitrary<JsonValue> }) =>
  fc.array(
    g.value.chain((v) => fc.oneof(fc.constant(v), mutate(v, g.schema)).map((m) => ({ valid: v, sample: m }))),
    { minLength: 4, maxLength: 8 },
  );

describe('dialect laws', () => {
  for (const d of DIALECTS) {
    it(`${d}: the provider accepts every valid call; lossless exports accept exactly the canonical values`, () => {
      let lossless = 0;
      let lossy = 0;
      fc.assert(
        fc.property(
          generatedSchema({ allowAny: true, allowClosed: true }).chain((g) => fc.tuple(fc.constant(g), samples(g))),
          ([g, values]) => {
            const e = exportTool({ name: 'tool', description: 'A tool', schema: g.schema }, d);
            expect(e.diagnostics.filter((x) => x.severity === 'error')).toEqual([]);
            expect(checkExportedTool(d, e.tool)).toEqual([]);
            const strict = isStrict(d, e.tool);
            const canonical = checker(g.schema);
            const lowered = checker(loweredSchema(d, e.tool));
            const exact = e.diagnostics.every((x) => x.severity === 'info');
            if (exact) lossless++;
            else lossy++;
            for (const { valid, sample } of values) {
              // completeness: what the canonical schema accepts, the provider accepts
              const raised = raise(d, strict, g.schema, valid);
              expect(lowered(raised), `valid ${JSON.stringify(valid)} raised ${JSON.stringify(raised)}`).toBe(true);
              if (!exact) continue;
              // exactness, and normalizeArguments undoes the lowering
              expect(normalizeArguments(d, g.schema, raised)).toEqual(valid);
              const x = raise(d, strict, g.schema, sample);
              const what = `sample ${JSON.stringify(sample)} raised ${JSON.stringify(x)}`;
              const providerAccepts = lowered(x);
              const locallyValid = canonical(normalizeArguments(d, g.schema, x));
              // what the provider lets through validates locally, and what is valid the provider lets through
              if (providerAccepts) expect(locallyValid, what).toBe(true);
              if (canonical(sample)) expect(providerAccepts, what).toBe(true);
              // Gemini sends null for optional fields its schema does not make nullable: normalizeArguments
              // accepts them as "not given", so there only the two implications hold
              if (d !== 'gemini') expect(providerAccepts, what).toBe(locallyValid);
            }
          },
        ),
        { numRuns: 150 },
      );
      // the exact law was exercised, not skipped
      expect(lossless).toBeGreaterThan(10);
      if (d === 'jsonschema' || d === 'openai' || d === 'anthropic' || d === 'mcp') expect(lossy).toBe(0);
    });
  }

  it('normalizeArguments never mutates its input and passes through what the schema does not describe', () => {
    fc.assert(
      fc.property(
        generatedSchema().chain((g) => fc.tuple(fc.constant(g), g.value, fc.jsonValue({ maxDepth: 2 }))),
        ([g, v, junk]) => {
          for (const d of DIALECTS) {
            const before = JSON.stringify(v);
            normalizeArguments(d, g.schema, v);
            expect(JSON.stringify(v)).toBe(before);
            const j = JSON.stringify(junk);
            const out = normalizeArguments(d, g.schema, junk);
            expect(JSON.stringify(junk)).toBe(j);
            if (typeof junk !== 'object' || junk === null) expect(out).toEqual(junk);
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('tool names', () => {
  const names = fc.uniqueArray(
    fc.oneof(
      fc.stringMatching(/^[a-zA-Z_][a-zA-Z0-9_-]{0,20}$/),
      fc.string({ minLength: 1, maxLength: 90 }),
      fc.constantFrom('weather.get', 'weather_get', 'weather get', 'a.b', 'a_b', 'a b', '3d', 'ünï', '/', '', ' '),
    ),
    { maxLength: 12 },
  );
  for (const d of DIALECTS) {
    it(`${d}: provider names are valid and distinct, valid names are kept, and the reverse map gives gramkit names back`, () => {
      fc.assert(
        fc.property(names, (ns) => {
          const map = toolNameMap(ns, d);
          const provider = ns.map((n) => map.toProvider.get(n) as string);
          expect(new Set(provider).size).toBe(ns.length);
          ns.forEach((n, i) => {
            expect(map.toGramkit.get(provider[i] as string)).toBe(n);
            if (d !== 'jsonschema') expect(isValidToolName(provider[i] as string, d)).toBe(true);
            if (isValidToolName(n, d)) expect(provider[i]).toBe(n);
          });
          const e = exportTools(
            ns.map((n) => ({ name: n, description: 'x', schema: { type: 'object', properties: {} } })),
            d,
          );
          expect([...e.names.values()].sort()).toEqual([...ns].sort());
        }),
        { numRuns: 200 },
      );
    });
  }
  it('sanitizes to the provider alphabet and length', () => {
    expect(sanitizeToolName('weather.get forecast', 'openai')).toBe('weather_get_forecast');
    expect(sanitizeToolName('weather.get forecast', 'mcp')).toBe('weather.get_forecast');
    expect(sanitizeToolName('3d', 'gemini')).toBe('_3d');
    expect(sanitizeToolName('grüßen', 'anthropic')).toBe('gru_en');
    expect(sanitizeToolName('x'.repeat(100), 'openai')).toHaveLength(64);
    expect(sanitizeToolName('x'.repeat(100), 'anthropic')).toBe('x'.repeat(100));
    expect(sanitizeToolName('', 'openai')).toBe('tool');
    expect(sanitizeToolName('sayHello', 'openai')).toBe('sayHello');
  });
});
