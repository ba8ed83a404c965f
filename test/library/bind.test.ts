import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bindAll,
  bindTool,
  createTool,
  emptyToolLibrary,
  formatBindError,
  invoke,
  type JsonObject,
  lookupTool,
  registerTool,
  type ToolSpecification,
  toolLibrary,
} from '../../src/index.js';
import { expectGolden } from '../support/golden.js';
import { bfclSpecs, greet, greetSpec, spec, toolFor } from './support.js';

const sayHello = spec(
  'sayHello',
  { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  { type: 'string' },
  'Returns a friendly greeting message for the given name',
);

describe('bindTool', () => {
  it('binds a specification to the tool of its name that agrees with it', () => {
    const tool = toolFor(greetSpec, greet);
    const r = bindTool(greetSpec, toolLibrary([tool]));
    expect(r._tag).toBe('Right');
    if (r._tag !== 'Right') return;
    expect(r.right.name).toBe('greet');
    expect(r.right.spec).toBe(greetSpec);
    expect(r.right.tool).toBe(tool);
    const v = r.right.validators();
    expect(v._tag === 'Right' && v.right.args.check({ name: 'Ada' })).toBe(true);
    expect(v._tag === 'Right' && v.right.output?.check(3)).toBe(false);
  });

  it('compares schemas structurally (key order, required order) and descriptions up to whitespace', () => {
    const tool = createTool(
      'sayHello',
      '  Returns a friendly greeting\n   message for the given name ',
      { required: ['name'], properties: { name: { type: 'string' } }, type: 'object' },
      () => 'hi',
    );
    expect(bindTool(sayHello, toolLibrary([tool]))._tag).toBe('Right');
  });

  it('compiles the validators on the first call, not when binding', async () => {
    const broken = spec('broken', { type: 'object', properties: { a: { type: 'no-such-type' } } });
    const r = bindTool(broken, toolLibrary([toolFor(broken, () => 1)]));
    expect(r._tag).toBe('Right');
    if (r._tag !== 'Right') return;
    const result = await invoke(r.right, { a: 1 });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.reason).toBe('TOOL_INVALID_SCHEMA');
      expect(result.error.message).toMatch(/^the argument schema of "broken" is not valid: invalid JSON Schema/);
    }
  });

  it('reports a missing tool, with close names', () => {
    const lib = toolLibrary([toolFor({ ...sayHello, name: 'say_hello' }, () => 'x'), toolFor({ ...sayHello, name: 'sayGoodbye' }, () => 'x')]);
    const r = bindTool(sayHello, lib);
    expect(r._tag === 'Left' && r.left).toMatchObject([
      {
        code: 'TOOL_NOT_IN_LIBRARY',
        toolName: 'sayHello',
        message: 'no tool "sayHello" in the library (did you mean "say_hello"?)',
        suggestions: ['say_hello'],
      },
    ]);
    const none = bindTool(sayHello, emptyToolLibrary);
    expect(none._tag === 'Left' && none.left[0]?.message).toBe('no tool "sayHello" in the library');
  });

  it('says which of name, description, schema and output schema differ, and shows how', () => {
    const other = createTool('greeter', 'Says hello', { type: 'object', properties: { name: { type: 'integer' }, loud: { type: 'boolean' } } }, () => 'x', {
      outputSchema: { type: 'object' },
    });
    const r = bindTool(sayHello, registerTool('sayHello', other, emptyToolLibrary));
    expect(r._tag).toBe('Left');
    if (r._tag !== 'Left') return;
    expect(r.left).toHaveLength(1);
    const e = r.left[0]!;
    expect(e.code).toBe('TOOL_MISMATCH');
    expect(e.mismatches.map((m) => m.code)).toEqual(['TOOL_NAME_MISMATCH', 'TOOL_DESCRIPTION_MISMATCH', 'TOOL_SCHEMA_MISMATCH', 'TOOL_OUTPUT_SCHEMA_MISMATCH']);
    expect(e.message).toBe('the tool "sayHello" does not match its specification: its name, description, argument schema and output schema differ');
    expect(e.mismatches[2]?.differences.map((d) => [d.pointer, d.kind])).toEqual([
      ['/properties/name/type', 'changed'],
      ['/properties/loud', 'extra'],
      ['/required', 'missing'],
    ]);
  });

  it('reports a library entry that is not a usable tool', () => {
    const bad = { name: 'sayHello', description: 'Returns a friendly greeting message for the given name', schema: sayHello.schema, invoke: 'not a function' };
    const r = bindTool(sayHello, registerTool('sayHello', bad as never, emptyToolLibrary));
    expect(r._tag === 'Left' && r.left[0]?.code).toBe('TOOL_INVALID');
    expect(r._tag === 'Left' && r.left[0]?.problems.map((p) => p.code)).toEqual(['TOOL_INVALID_IMPLEMENTATION']);
  });

  it('renders bind errors for people (golden)', () => {
    const lib = toolLibrary([
      createTool(
        'getWeather',
        'Current weather for a city',
        { type: 'object', properties: { city: { type: 'integer' }, unit: { enum: ['c', 'f'] } }, required: ['city'] },
        () => 1,
      ),
      createTool('search', 'Search the web', { type: 'object', properties: { q: { type: 'string' } } }, () => 1),
      createTool('say_hello', 'x', {}, () => 1),
    ]);
    const specs: ToolSpecification[] = [
      spec(
        'getWeather',
        { type: 'object', properties: { city: { type: 'string' }, unit: { enum: ['c', 'f', 'k'] } }, required: ['city'] },
        {},
        'Current weather for a city',
      ),
      spec('search', { type: 'object', properties: { q: { type: 'string' } } }, {}, 'Search the web for pages'),
      sayHello,
      sayHello,
    ];
    const r = bindAll(specs, lib);
    expect(r._tag).toBe('Left');
    if (r._tag !== 'Left') return;
    expectGolden('library/golden/bind-errors.txt', `${r.left.map(formatBindError).join('\n\n')}\n`);
    expectGolden('library/golden/bind-errors.json', r.left);
    // a bind error is a diagnostic: the differences are its hint
    expect(r.left[0]).toMatchObject({ code: 'TOOL_MISMATCH', severity: 'error', hint: expect.stringContaining('TOOL_SCHEMA_MISMATCH') });
  });
});

describe('bindAll', () => {
  it('binds every specification, in order, and reports every failure (not the first)', () => {
    const a = spec('a', { type: 'object' });
    const b = spec('b', { type: 'object' });
    const c = spec('c', { type: 'object' });
    const lib = toolLibrary([toolFor(a, () => 1), toolFor(b, () => 2), toolFor(c, () => 3)]);
    const ok = bindAll([c, a, b], lib);
    expect(ok._tag === 'Right' && ok.right.tools.map((t) => t.name)).toEqual(['c', 'a', 'b']);
    expect(ok._tag === 'Right' && ok.right.byName.get('a')?.tool).toBe(lookup(lib, 'a'));

    const bad = bindAll([a, spec('x', { type: 'object' }), { ...b, description: 'other' }, a, spec('y', { type: 'object' })], lib);
    expect(bad._tag === 'Left' && bad.left.map((e) => `${e.code} ${e.toolName}`)).toEqual([
      'TOOL_NOT_IN_LIBRARY x',
      'TOOL_MISMATCH b',
      'TOOL_DUPLICATE_SPECIFICATION a',
      'TOOL_NOT_IN_LIBRARY y',
    ]);
  });

  it('binds the real BFCL function schemas against tools written with their keys in another order', () => {
    const specs = bfclSpecs();
    expect(specs.length).toBeGreaterThan(700);
    const reversed = (v: unknown): unknown =>
      Array.isArray(v)
        ? v.map(reversed)
        : typeof v === 'object' && v !== null
          ? Object.fromEntries(
              Object.entries(v)
                .reverse()
                .map(([k, x]) => [k, reversed(x)]),
            )
          : v;
    const lib = toolLibrary(specs.map((s) => createTool(s.name, s.description, reversed(s.schema) as JsonObject, () => null)));
    const r = bindAll(specs, lib);
    expect(r._tag === 'Right' && r.right.tools.length).toBe(specs.length);

    // one property type changed in each: every one is reported, with the pointer to it
    const changed = specs.filter((s) => Object.keys((s.schema['properties'] as object) ?? {}).length > 0);
    const mutated = toolLibrary(
      changed.map((s) => {
        const props = s.schema['properties'] as Record<string, JsonObject>;
        const first = Object.keys(props)[0] as string;
        const schema = {
          ...s.schema,
          properties: { ...props, [first]: { ...props[first], type: props[first]?.['type'] === 'boolean' ? 'string' : 'boolean' } },
        };
        return createTool(s.name, s.description, schema, () => null);
      }),
    );
    const m = bindAll(changed, mutated);
    expect(m._tag).toBe('Left');
    if (m._tag !== 'Left') return;
    expect(m.left).toHaveLength(changed.length);
    for (const [k, e] of m.left.entries()) {
      const s = changed[k] as ToolSpecification;
      const first = Object.keys(s.schema['properties'] as object)[0] as string;
      expect(e.mismatches.map((x) => x.code)).toEqual(['TOOL_SCHEMA_MISMATCH']);
      expect(e.mismatches[0]?.differences[0]?.pointer).toBe(`/properties/${first.replace(/~/g, '~0').replace(/\//g, '~1')}/type`);
    }
  });
});

const lookup = (lib: ReturnType<typeof toolLibrary>, name: string) => lookupTool(name, lib);

// -------------------------------------------------------------------------------------------------
// the law: bind succeeds exactly when spec and tool agree
// -------------------------------------------------------------------------------------------------

/** An independent notion of "the same schema": canonical JSON text, `required`/`type` arrays sorted and deduplicated. */
const canonicalSchema = (v: unknown, key?: string): string => {
  if (Array.isArray(v)) {
    const items = v.map((x) => canonicalSchema(x));
    return `[${(key === 'required' || key === 'type' ? [...new Set(items)].sort() : items).join(',')}]`;
  }
  if (typeof v === 'object' && v !== null) {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalSchema(o[k], k)}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
};

const typeArb = fc.constantFrom('string', 'integer', 'number', 'boolean', 'object', 'array');
const propArb = fc.record({ type: typeArb, description: fc.constantFrom(undefined, 'a', 'b') }, { requiredKeys: ['type'] });
const schemaArb = fc.dictionary(fc.constantFrom('name', 'age', 'city', 'unit', 'q'), propArb, { maxKeys: 4 }).chain((properties) =>
  fc.record({
    type: fc.constant('object'),
    properties: fc.constant(properties),
    required: fc.subarray(Object.keys(properties)),
  }),
);

/** A variant of a schema: the same, reordered (still the same), or changed somewhere. */
const variantArb = (schema: JsonObject) =>
  fc.oneof(
    fc.constant(schema),
    fc.constant(JSON.parse(JSON.stringify(schema, Object.keys(schema).reverse())) as JsonObject),
    fc.constant({ ...schema, required: [...((schema['required'] as string[]) ?? [])].reverse() }),
    schemaArb,
  );

const descriptionArb = fc.constantFrom('Finds things', '  Finds   things ', 'Finds things.', 'finds things');

describe('bind law', () => {
  it('bind succeeds exactly when name, description (up to whitespace) and schema (structurally) agree', () => {
    fc.assert(
      fc.property(
        schemaArb.chain((s) => fc.tuple(fc.constant(s), variantArb(s))),
        fc.constantFrom('find', 'find_things'),
        fc.constantFrom('find', 'find_things'),
        descriptionArb,
        descriptionArb,
        ([specSchema, toolSchema], specName, toolName, specDescription, toolDescription) => {
          const s = spec(specName, specSchema as JsonObject, {}, specDescription);
          const lib = registerTool(
            specName,
            createTool(toolName, toolDescription, toolSchema, () => null),
            emptyToolLibrary,
          );
          const agree =
            specName === toolName &&
            specDescription.trim().replace(/\s+/g, ' ') === toolDescription.trim().replace(/\s+/g, ' ') &&
            canonicalSchema(specSchema) === canonicalSchema(toolSchema);
          const r = bindTool(s, lib);
          expect(r._tag === 'Right').toBe(agree);
          if (r._tag === 'Left') {
            expect(r.left[0]?.code).toBe('TOOL_MISMATCH');
            expect(r.left[0]?.mismatches.length).toBeGreaterThan(0);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
