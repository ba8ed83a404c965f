/**
 * The 2020-12 meta-schema's validator generated ahead of time (src/schema/meta-validator.ts) in
 * place of the one ajv compiles on the first schema of a process: in sync with the ajv installed,
 * and `compileSchema` accepts and refuses exactly the schemas, with exactly the messages, of an
 * ajv that checks schemas itself.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { compileSchema } from '../../src/index.js';
import { MODULE_PATH, renderMetaValidator } from './sync-meta-validator.js';

const interop = <T>(m: T): T => ((m as { default?: T }).default ?? m) as T;

/** An ajv 2020 that validates schemas itself (its default), with validate.ts's options that matter here. */
const reference = (() => {
  const ajv = new (interop(Ajv2020))({ allErrors: true, strict: false, validateFormats: true, logger: false });
  interop(addFormatsModule)(ajv);
  return ajv;
})();

/** What ajv says about a schema before compiling it: `undefined` when it is valid, else its message. */
const ajvVerdict = (schema: unknown): string | undefined => {
  try {
    return reference.validateSchema(schema as object, true) ? undefined : 'invalid';
  } catch (e) {
    return (e as Error).message;
  }
};

/** What compileSchema says about the schema's validity as a schema (other refusals, e.g. a bad $ref, count as valid here). */
const verdict = (schema: object | boolean): string | undefined => {
  const r = compileSchema(schema as never);
  if (r._tag === 'Right') return undefined;
  const m = /^invalid JSON Schema: (schema is invalid: .*)$/.exec(r.left.message);
  return m?.[1];
};

const keyword = fc.constantFrom(
  'type',
  'properties',
  'required',
  'items',
  'prefixItems',
  'enum',
  'const',
  'minimum',
  'maxLength',
  'pattern',
  'format',
  'additionalProperties',
  'anyOf',
  'oneOf',
  'allOf',
  'not',
  '$id',
  '$anchor',
  '$defs',
  'uniqueItems',
  'dependentRequired',
  'description',
);
const value = fc.oneof(
  fc.constantFrom('string', 'object', 'integer', 'nope', ['string', 'null'], ['string', 'string'], 'a#b', 'x', '^a+$', '(', 'date-time'),
  fc.integer({ min: -2, max: 3 }),
  fc.boolean(),
  fc.constant(null),
  fc.constant({}),
  fc.constant({ a: { type: 'string' } }),
  fc.constant([{ type: 'integer' }, true]),
);
const schemaArb = fc.dictionary(keyword, value, { maxKeys: 4 });

describe('the 2020-12 meta-schema validator generated ahead of time', () => {
  it('is what ajv generates for it today (run `npx tsx test/spec/sync-meta-validator.ts` after upgrading ajv)', async () => {
    expect(readFileSync(MODULE_PATH, 'utf8')).toBe(await renderMetaValidator());
  });

  it('refuses exactly the schemas ajv refuses, with its message', () => {
    const cases: ReadonlyArray<object> = [
      { type: 'object', properties: { a: { type: 'nope' } } },
      { type: 'object', required: 'a' },
      { $id: 'a#b' },
      { $anchor: '1a' },
      { minimum: 'x', items: { maxLength: -1 } },
      { type: ['string', 'string'] },
      { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 3 },
    ];
    for (const schema of cases) {
      const expected = ajvVerdict(schema);
      expect(expected, JSON.stringify(schema)).toMatch(/^schema is invalid: /);
      expect(verdict(schema), JSON.stringify(schema)).toBe(expected);
    }
  });

  it('law: compileSchema and an ajv that checks schemas itself agree on any schema', () => {
    fc.assert(
      fc.property(schemaArb, (schema) => {
        const expected = ajvVerdict(schema);
        expect(verdict(schema)).toBe(expected?.startsWith('schema is invalid: ') === true ? expected : undefined);
      }),
      { numRuns: 300 },
    );
  });

  it('a schema naming another meta-schema is still checked by ajv (an unknown one is refused)', () => {
    const r = compileSchema({ $schema: 'https://example.com/unknown-meta', type: 'string' });
    expect(r._tag).toBe('Left');
    if (r._tag === 'Left') expect(r.left.message).toContain('no schema with key or ref "https://example.com/unknown-meta"');
  });
});
