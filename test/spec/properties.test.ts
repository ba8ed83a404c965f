/**
 * The interpreters of the type ADT agree: the value generator, the JSON Schema emitter (under
 * ajv), the importer, the gram printer and parser, the value checker, the JSON and gram codecs.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type JsonObject,
  type ToolSpecification,
  checkedDiagnostics,
  checkedValue,
  checkTypeSignature,
  compileSchema,
  createToolSpecification,
  decodeToolSpecification,
  encodeToolSpecification,
  parseSpecifications,
  printSpecifications,
} from '../../src/index.js';
import {
  checkValue,
  fromJsonSchema,
  printSignature,
  signatureSchemas,
  stripSignatureSpans,
  toJsonSchema,
  typeEquals,
  signatureEquals,
  returnType,
} from '../../src/entries/types.js';
import { valueArbitrary } from '../../src/testing/arbitrary.js';
import { metadataArb, nameArb, signatureArb, textArb, typeArb } from './support/arbitraries.js';
import { mutations } from './support/mutate.js';

const RUNS = { numRuns: 200 };

const ajvCheck = (schema: JsonObject): ((v: unknown) => boolean) => {
  const c = compileSchema(schema);
  if (c._tag === 'Left') throw new Error(`schema does not compile: ${c.left.message}\n${JSON.stringify(schema)}`);
  return c.right.check;
};

/** A type with some values of it. */
const typeWithValues = typeArb.chain((t) => fc.tuple(fc.constant(t), fc.array(valueArbitrary(t), { minLength: 1, maxLength: 4 })));

describe('interpreters agree', { timeout: 120_000 }, () => {
  it('values generated from a type validate against its emitted schema (ajv)', () => {
    fc.assert(
      fc.property(typeWithValues, ([t, values]) => {
        const check = ajvCheck(toJsonSchema(t));
        for (const v of values) expect(check(v), JSON.stringify({ schema: toJsonSchema(t), v })).toBe(true);
      }),
      RUNS,
    );
  });

  it('the value checker agrees with ajv on generated and mutated values', () => {
    fc.assert(
      fc.property(typeWithValues, fc.integer({ min: 0, max: 1000 }), ([t, values], seed) => {
        const check = ajvCheck(toJsonSchema(t));
        for (const v of values) {
          for (const m of [v, ...mutations(v, seed)]) {
            expect(checkValue(t, m).length === 0, JSON.stringify({ schema: toJsonSchema(t), m })).toBe(check(m));
          }
        }
      }),
      RUNS,
    );
  });

  it('fromJsonSchema(toJsonSchema(t)) is t', () => {
    fc.assert(
      fc.property(typeArb, (t) => {
        const back = fromJsonSchema(toJsonSchema(t));
        expect(back._tag).toBe('Right');
        if (back._tag === 'Right') expect(typeEquals(back.right, t), JSON.stringify({ t, back: back.right })).toBe(true);
      }),
      RUNS,
    );
  });

  it('an imported schema accepts and rejects the same values as the original', () => {
    fc.assert(
      fc.property(typeWithValues, fc.integer({ min: 0, max: 1000 }), ([t, values], seed) => {
        const original = toJsonSchema(t);
        const imported = fromJsonSchema(original);
        if (imported._tag === 'Left') throw new Error('import failed');
        const a = ajvCheck(original);
        const b = ajvCheck(toJsonSchema(imported.right));
        for (const v of values) for (const m of [v, ...mutations(v, seed)]) expect(b(m)).toBe(a(m));
      }),
      RUNS,
    );
  });

  it('gram print → parse is the identity on signatures', () => {
    fc.assert(
      fc.property(signatureArb, fc.constantFrom<'identifier' | 'paramName'>('identifier', 'paramName'), fc.boolean(), (s, names, multiline) => {
        const text = printSignature(s, { names, ...(multiline ? { layout: { indent: '  ' } } : {}) });
        const back = checkTypeSignature(text);
        expect(checkedValue(back), `${text}\n${JSON.stringify(checkedDiagnostics(back))}`).toBeDefined();
        const read = checkedValue(back);
        if (read !== undefined) expect(signatureEquals(stripSignatureSpans(read), s), text).toBe(true);
        // and printing again gives the same text
        if (read !== undefined) expect(printSignature(read, { names, ...(multiline ? { layout: { indent: '  ' } } : {}) })).toBe(text);
      }),
      RUNS,
    );
  });

  it('the schemas of a signature are deterministic (same text, same bytes)', () => {
    fc.assert(
      fc.property(signatureArb, (s) => {
        const text = printSignature(s);
        const a = checkedValue(checkTypeSignature(text));
        const b = checkedValue(checkTypeSignature(text));
        expect(a).toBeDefined();
        if (a !== undefined && b !== undefined) expect(JSON.stringify(signatureSchemas(a))).toBe(JSON.stringify(signatureSchemas(b)));
      }),
      { numRuns: 50 },
    );
  });
});

const makeSpecForTest = (name: string, description: string, sig: string, metadata: JsonObject | undefined): ToolSpecification => {
  const r = createToolSpecification(name, description, sig, metadata !== undefined ? { metadata } : {});
  if (r._tag === 'Left') throw new Error(`${sig}: ${JSON.stringify(r.left)}`);
  return r.right;
};

const specArb = fc
  .tuple(
    nameArb.filter((n) => n.trim() !== ''),
    textArb.filter((d) => d.trim() !== ''),
    signatureArb,
    metadataArb,
  )
  .map(([name, description, sig, metadata]) => makeSpecForTest(name, description, printSignature(sig, { names: 'paramName' }), metadata));

/**
 * Specifications that may share one file: parameters named with `paramName` (not identities) and
 * anonymous returns (a named return is an identity: two tools returning different types under one
 * name conflict, by design).
 */
const fileSpecArb = fc
  .tuple(
    nameArb.filter((n) => n.trim() !== ''),
    textArb.filter((d) => d.trim() !== ''),
    signatureArb,
    metadataArb,
  )
  .map(([name, description, sig, metadata]) =>
    makeSpecForTest(name, description, printSignature({ ...sig, returns: returnType(sig.returns.type) }, { names: 'paramName' }), metadata),
  );

describe('specification codecs', { timeout: 120_000 }, () => {
  it('JSON → spec → JSON is the identity', () => {
    fc.assert(
      fc.property(specArb, (spec) => {
        const json = JSON.parse(JSON.stringify(encodeToolSpecification(spec)));
        const back = decodeToolSpecification(json);
        expect(back._tag, JSON.stringify(back)).toBe('Right');
        if (back._tag === 'Right') expect(encodeToolSpecification(back.right)).toEqual(json);
      }),
      RUNS,
    );
  });

  it('spec → gram → spec is the identity, and gram → spec → gram too', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fileSpecArb, { maxLength: 4, selector: (s) => s.name }), (specs) => {
        const gram = printSpecifications({ tools: specs });
        const back = parseSpecifications(gram);
        expect(back._tag, `${gram}\n${JSON.stringify(back)}`).toBe('Right');
        if (back._tag !== 'Right') return;
        // compared as JSON text: JSON has no -0, and neither has gram
        expect(JSON.stringify(back.right.tools.map(encodeToolSpecification))).toBe(JSON.stringify(specs.map(encodeToolSpecification)));
        expect(printSpecifications({ tools: back.right.tools })).toBe(gram);
      }),
      RUNS,
    );
  });
});
