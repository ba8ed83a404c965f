/**
 * The one table of JSON Schema keywords (schema/schema-keywords.ts) says what each lowering dialect
 * does with a keyword: `keep`, `drop`, `describe` (into the description) or `lower` (rewritten).
 * The dialects' code is checked against it here: a property carrying one keyword, exported to
 * OpenAI strict and to Gemini, keeps it, loses it, or loses it into its description, as the table
 * says. (`lower` rewrites differ per keyword; the golden files pin them.)
 */
import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonValue } from '../../../src/core/json-schema.js';
import { exportTools } from '../../../src/entries/providers.js';
import { type DialectAction, SCHEMA_KEYWORDS } from '../../../src/schema/schema-keywords.js';

/** For each keyword checked: the property schema that carries it, and its value there. */
const str = (): JsonObject => ({ type: 'string' });
const num = (): JsonObject => ({ type: 'number' });
const arr = (): JsonObject => ({ type: 'array', items: { type: 'string' } });
const obj = (): JsonObject => ({
  type: 'object',
  properties: { a: { type: 'string' }, b: { type: 'string' } },
  required: ['a', 'b'],
  additionalProperties: false,
});
const SAMPLES: Readonly<Record<string, readonly [JsonObject, JsonValue]>> = {
  $comment: [str(), 'a comment'],
  $anchor: [str(), 'here'],
  not: [str(), { const: 'no' }],
  if: [str(), { const: 'a' }],
  then: [str(), { minLength: 1 }],
  else: [str(), { maxLength: 9 }],
  dependentSchemas: [obj(), { a: { required: ['b'] } }],
  dependencies: [obj(), { a: ['b'] }],
  contains: [arr(), { const: 'x' }],
  patternProperties: [obj(), { '^x': { type: 'string' } }],
  propertyNames: [obj(), { maxLength: 3 }],
  unevaluatedItems: [arr(), false],
  enum: [str(), ['a', 'b']],
  const: [str(), 'a'],
  multipleOf: [num(), 2],
  maximum: [num(), 10],
  exclusiveMaximum: [num(), 10],
  minimum: [num(), 1],
  exclusiveMinimum: [num(), 1],
  maxLength: [str(), 9],
  minLength: [str(), 2],
  pattern: [str(), '^[a-z]+$'],
  maxItems: [arr(), 5],
  minItems: [arr(), 1],
  uniqueItems: [arr(), true],
  maxProperties: [obj(), 3],
  minProperties: [obj(), 1],
  dependentRequired: [obj(), { a: ['b'] }],
  contentEncoding: [str(), 'base64'],
  contentMediaType: [str(), 'text/plain'],
  title: [str(), 'Title'],
  description: [str(), 'What it is'],
  default: [str(), 'ab'],
  deprecated: [str(), true],
  readOnly: [str(), true],
  writeOnly: [str(), true],
  examples: [str(), ['ab', 'cd']],
  nullable: [str(), true],
  example: [str(), 'ab'],
  discriminator: [obj(), { propertyName: 'a' }],
  xml: [str(), { name: 'x' }],
  externalDocs: [str(), { url: 'https://example.com' }],
  // Gemini drops the one given and writes its own, from the order of `properties`
  propertyOrdering: [obj(), ['b', 'a']],
};

/** The exported schema of property `x` of a tool whose only argument carries `keyword`. */
const exported = (dialect: 'openai-strict' | 'gemini', keyword: string): Readonly<Record<string, unknown>> => {
  const [base, value] = SAMPLES[keyword] as readonly [JsonObject, JsonValue];
  const schema: JsonObject = { type: 'object', properties: { x: { ...base, [keyword]: value } }, required: ['x'], additionalProperties: false };
  const tool = exportTools([{ name: 't', description: 'd', schema }], dialect).tools[0] as Record<string, any>;
  const parameters = dialect === 'gemini' ? tool['parameters'] : tool['function']['parameters'];
  return parameters.properties.x as Readonly<Record<string, unknown>>;
};

const checks: Array<readonly [string, 'openai-strict' | 'gemini', DialectAction]> = SCHEMA_KEYWORDS.filter((k) => SAMPLES[k.name] !== undefined).flatMap(
  (k) => [[k.name, 'openai-strict', k.openaiStrict] as const, [k.name, 'gemini', k.gemini] as const],
);

describe('the keyword table and the lowering dialects agree', () => {
  it('every keyword with a simple sample is checked', () => {
    expect(Object.keys(SAMPLES).filter((k) => !SCHEMA_KEYWORDS.some((x) => x.name === k))).toEqual([]);
    expect(checks.length).toBeGreaterThanOrEqual(80);
  });

  it.each(checks.filter(([, , action]) => action !== 'lower'))('%s in %s: %s', (keyword, dialect, action) => {
    const x = exported(dialect, keyword);
    const value = (SAMPLES[keyword] as readonly [JsonObject, JsonValue])[1];
    // keep: sent as given; drop and describe: the value given is not sent
    if (action === 'keep') expect(x[keyword]).toEqual(value);
    else expect(x[keyword]).not.toEqual(value);
    if (action === 'describe') expect(typeof x['description']).toBe('string');
  });
});
