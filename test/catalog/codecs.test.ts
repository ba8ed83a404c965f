/**
 * The record codecs as laws (fast-check): slugs and versions by the catalog's rules; the map form of
 * schemas both ways; a tool record through its stored JSON, through a `tool.json`, through gram and
 * through the registry's Tool JSON, unchanged.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildContent,
  CatalogCodes,
  type ContentEnvironment,
  contentToGram,
  decodeRegistryTool,
  decodeStoredTool,
  decodeToolJson,
  encodeRegistryTool,
  encodeTool,
  gramToInput,
  isMapForm,
  mapToSchema,
  MAX_SLUG_RUNES,
  parseBundleSlug,
  parseSlug,
  parseVersion,
  schemaToMap,
  catalogToolFormat,
  catalogToolToGram,
  type ToolContent,
  type ToolRecord,
} from 'gramkit/catalog';
import { builtinSpecification } from 'gramkit/builtins';

const env: ContentEnvironment = {
  builtinSpecification: (name) => builtinSpecification(name),
  builtinAnnotations: () => ({ permissions: ['fs:read'], safetyLevel: 'low' }),
  functionTool: () => undefined,
};

// -------------------------------------------------------------------------------------------------
// slugs
// -------------------------------------------------------------------------------------------------

const RUNES = ['a', 'Z', 'é', 'ß', '東', 'я', '٣', '7', '-', '_', ' ', '/', '.', '\t', '\u0000', '$', '+', '😀', 'e\u0301', '\u200b'];
const allowed = (s: string, dot: boolean, underscore = false): boolean =>
  [...s].length >= 1 && [...s].length <= MAX_SLUG_RUNES && [...s].every((c) => /^[\p{L}\p{Nd}-]$/u.test(c) || (dot && c === '.') || (underscore && c === '_'));
/** A tool slug: a bundle slug's runes and single underscores inside (none at an end, never two in a row). */
const toolSlugAllowed = (s: string): boolean => allowed(s, false, true) && !s.includes('__') && !s.startsWith('_') && !s.endsWith('_');

describe('slugs and versions', () => {
  it('accept exactly Unicode letters, digits and "-" (versions: and "."; tool slugs: single "_" inside), 1 to 64 runes', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...RUNES), { maxLength: 70 }), (parts) => {
        const s = parts.join('');
        expect(parseSlug(s)._tag === 'Right').toBe(toolSlugAllowed(s));
        expect(parseBundleSlug(s)._tag === 'Right').toBe(allowed(s, false));
        expect(parseVersion(s)._tag === 'Right').toBe(allowed(s, true));
      }),
      { numRuns: 500 },
    );
  });

  it('a served name <bundle>__<slug> is never a tool slug, and splits back at its first "__"', () => {
    const valid = (parse: typeof parseSlug) =>
      fc
        .array(fc.constantFrom(...RUNES), { minLength: 1, maxLength: 20 })
        .map((p) => p.join(''))
        .filter((s) => parse(s)._tag === 'Right');
    fc.assert(
      fc.property(valid(parseBundleSlug), valid(parseSlug), (bundle, tool) => {
        const served = `${bundle}__${tool}`;
        expect(parseSlug(served)._tag).toBe('Left');
        const at = served.indexOf('__');
        expect([served.slice(0, at), served.slice(at + 2)]).toEqual([bundle, tool]);
      }),
      { numRuns: 300 },
    );
  });

  it('say what is wrong', () => {
    const msg = (r: ReturnType<typeof parseSlug>): string => (r._tag === 'Left' ? `${r.left[0]?.code} ${r.left[0]?.message}` : 'ok');
    expect(parseSlug('word_count')._tag).toBe('Right');
    expect(msg(parseBundleSlug('a_b'))).toBe(
      `${CatalogCodes.INVALID_SLUG} the bundle slug "a_b" contains an underscore (a bundle slug holds none: "__" separates it from a tool slug in served names)`,
    );
    expect(msg(parseSlug('a__b'))).toContain('two underscores in a row');
    expect(msg(parseSlug('_a'))).toContain('begins or ends with an underscore');
    expect(msg(parseSlug('v1.2'))).toContain('a dot (allowed in versions only)');
    expect(msg(parseSlug('caf\u0065\u0301'))).toContain('combining mark');
    expect(msg(parseSlug('x'.repeat(65)))).toContain('65 runes');
    expect(parseSlug('東京-2')._tag).toBe('Right');
    expect(parseVersion('v1.2.3-rc.1')._tag).toBe('Right');
  });
});

// -------------------------------------------------------------------------------------------------
// the map form
// -------------------------------------------------------------------------------------------------

const typeName: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('string', 'int', 'float', 'bool', 'object', 'array', 'any'),
  fc.constantFrom('string[]', 'int[]', 'string[][]'),
);
const fieldName = fc.stringMatching(/^[a-z][a-z0-9]{0,8}$/).filter((k) => k !== 'type' && k !== 'required' && k !== 'properties' && k !== 'items');

describe('the map form of schemas', () => {
  it('reads {"url": "string", "n?": "int"} as an object schema and writes it back the same', () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.tuple(fieldName, fc.boolean()).map(([k, opt]) => (opt ? `${k}?` : k)),
          typeName,
          { maxKeys: 6 },
        ),
        (raw) => {
          // one spelling per field name
          const map: Record<string, string> = {};
          for (const [k, v] of Object.entries(raw)) if (map[k.replace(/\?$/, '')] === undefined && map[`${k.replace(/\?$/, '')}?`] === undefined) map[k] = v;
          fc.pre(Object.keys(map).length > 0);
          expect(isMapForm(map)).toBe(true);
          const schema = mapToSchema(map);
          expect(schema._tag).toBe('Right');
          if (schema._tag === 'Right') expect(schemaToMap(schema.right)).toEqual(map);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('tells JSON Schema from the map form, and refuses unknown type names', () => {
    expect(isMapForm({ type: 'object', properties: {} })).toBe(false);
    expect(isMapForm({ type: 'string' })).toBe(false);
    expect(isMapForm({ url: 'string', status: 'int' })).toBe(true);
    expect(isMapForm({ pattern: 'string', format: 'string' })).toBe(true);
    expect(isMapForm({})).toBe(false);
    const r = mapToSchema({ when: 'datetime' });
    expect(r._tag === 'Left' && r.left[0]?.code).toBe(CatalogCodes.INVALID_SCHEMA);
    expect(schemaToMap({ type: 'object', properties: { a: { type: 'string', minLength: 1 } } })).toBeUndefined();
  });
});

// -------------------------------------------------------------------------------------------------
// records
// -------------------------------------------------------------------------------------------------

const slug = fc.stringMatching(/^[a-zé東][a-z0-9é東-]{0,10}$/);
const version = fc.stringMatching(/^[a-z0-9][a-z0-9.-]{0,6}$/);
const words = fc.array(fc.stringMatching(/^[a-z]{1,8}$/), { minLength: 1, maxLength: 6 }).map((w) => w.join(' '));
const impl = fc.oneof(
  fc.constant({ type: 'builtin', impl: { builtin: 'json_parse' } }),
  fc.constant({ type: 'function', impl: { function: 'lib.fn' } }),
  fc.record({
    type: fc.constant('http'),
    impl: fc.record({
      urlTemplate: fc.constant('https://api.example.com/x'),
      method: fc.constantFrom('GET', 'POST'),
      timeoutMs: fc.integer({ min: 1, max: 60_000 }),
    }),
  }),
  fc.record({ type: fc.constant('command'), impl: fc.record({ argv: fc.constant(['wc', '-w']), output: fc.constantFrom('auto', 'text') }) }),
);
const argSchema = fc
  .dictionary(fieldName, fc.constantFrom('string', 'int', 'float', 'bool', 'string[]'), { maxKeys: 4 })
  .map((m) => (mapToSchema(m) as { right: object }).right);

const content: fc.Arbitrary<ToolContent> = fc
  .record({
    slug,
    version,
    displayName: fc.option(words, { nil: undefined }),
    description: words,
    impl,
    argSchema,
    tags: fc.array(fc.stringMatching(/^[a-z]{1,6}$/), { maxLength: 3 }),
    permissions: fc.option(fc.array(fc.constantFrom('fs:read', 'net:read', 'proc:exec'), { maxLength: 2 }), { nil: undefined }),
    safetyLevel: fc.option(fc.constantFrom('low', 'medium', 'high'), { nil: undefined }),
  })
  .map((r) => {
    const built = buildContent(
      {
        slug: r.slug,
        version: r.version,
        ...(r.displayName !== undefined ? { displayName: r.displayName } : {}),
        description: r.description,
        type: r.impl.type,
        impl: r.impl.impl,
        argSchema: r.argSchema,
        tags: r.tags,
        ...(r.permissions !== undefined ? { permissions: r.permissions } : {}),
        ...(r.safetyLevel !== undefined ? { safetyLevel: r.safetyLevel } : {}),
      },
      env,
    );
    if (built._tag === 'Left') throw new Error(JSON.stringify(built.left));
    return built.right.content;
  });

const record = (c: ToolContent, extra: Partial<ToolRecord> = {}): ToolRecord => ({
  schemaVersion: '1',
  bundleID: '018faf50-b7b6-7a01-9a05-a22a6e0af101',
  toolID: '018faf50-b7b6-7a01-9a05-a22a6e0af102',
  ...c,
  isEnabled: true,
  isBuiltIn: false,
  createdBy: 'system',
  createdAt: '2024-05-14T13:44:00.000Z',
  modifiedAt: '2024-06-01T09:17:10.000Z',
  ...extra,
});

const contentOf = (r: ToolContent): ToolContent => ({
  slug: r.slug,
  version: r.version,
  displayName: r.displayName,
  description: r.description,
  type: r.type,
  signature: r.signature,
  argSchema: r.argSchema,
  outputSchema: r.outputSchema,
  impl: r.impl,
  tags: r.tags,
  permissions: r.permissions,
  safetyLevel: r.safetyLevel,
});

describe('a tool record round-trips', () => {
  it('through its stored JSON', () => {
    fc.assert(
      fc.property(content, fc.boolean(), (c, agent) => {
        const r = record(c, agent ? { createdBy: 'agent', registryId: 'tool_x' } : {});
        const back = decodeStoredTool(JSON.parse(JSON.stringify(encodeTool(r))));
        expect(back._tag === 'Right' && back.right).toEqual(r);
      }),
      { numRuns: 100 },
    );
  });

  it("through a tool.json (a GET's record written back)", () => {
    fc.assert(
      fc.property(content, (c) => {
        const w = decodeToolJson(JSON.parse(JSON.stringify(encodeTool(record(c)))), env);
        expect(w._tag === 'Right' && contentOf(w.right.built.content)).toEqual(contentOf(c));
        expect(w._tag === 'Right' && w.right.toolID).toBe('018faf50-b7b6-7a01-9a05-a22a6e0af102');
      }),
      { numRuns: 100 },
    );
  });

  it('through gram', () => {
    fc.assert(
      fc.property(content, (c) => {
        const text = contentToGram(c);
        const input = gramToInput(text);
        expect(input._tag).toBe('Right');
        if (input._tag === 'Left') return;
        const again = buildContent(input.right, env);
        expect(again._tag === 'Right' && contentOf(again.right.content)).toEqual(contentOf(c));
        expect(again._tag === 'Right' && contentToGram(again.right.content)).toBe(text);
      }),
      { numRuns: 100 },
    );
  });

  it("through the registry's Tool JSON", () => {
    fc.assert(
      fc.property(content, (c) => {
        const r = record({ ...c, slug: 'tool-x', version: '1' }, { registryId: 'tool_x' });
        const json = JSON.parse(JSON.stringify(encodeRegistryTool(r, { enabled: true, available: true, usage: { callCount: 0, lastCalledAt: null } })));
        const back = decodeRegistryTool(json, env);
        expect(back._tag === 'Right' && contentOf(back.right.built.content)).toEqual(contentOf(r));
        expect(back._tag === 'Right' && back.right.registryId).toBe('tool_x');
      }),
      { numRuns: 100 },
    );
  });
});

describe('tool.json and Tool JSON as gram (gramkit import)', () => {
  it('a tool.json and a registry Tool JSON import to the gram of the content they hold', () => {
    fc.assert(
      fc.property(content, (c) => {
        const r = record(c);
        const toolJson = JSON.parse(JSON.stringify(encodeTool(r)));
        expect(catalogToolFormat(toolJson)).toBe('tool-json');
        const fromToolJson = catalogToolToGram(toolJson, env);
        expect(fromToolJson._tag === 'Right' && fromToolJson.right.gram).toBe(contentToGram(c));
        const registry = record({ ...c, slug: 'tool-x', version: '1' }, { registryId: 'tool_x' });
        const registryJson = JSON.parse(
          JSON.stringify(encodeRegistryTool(registry, { enabled: true, available: true, usage: { callCount: 0, lastCalledAt: null } })),
        );
        expect(catalogToolFormat(registryJson)).toBe('registry');
        const fromRegistry = catalogToolToGram(registryJson, env);
        expect(fromRegistry._tag === 'Right' && fromRegistry.right.gram).toBe(contentToGram(registry));
      }),
      { numRuns: 100 },
    );
  });

  it("other import formats are not taken for the catalog's documents", () => {
    expect(catalogToolFormat({ name: 'x', description: 'd', inputSchema: { type: 'object' } })).toBeUndefined();
    expect(catalogToolFormat({ type: 'function', function: { name: 'x', parameters: {} } })).toBeUndefined();
    expect(catalogToolFormat({ name: 'x', description: 'd', input_schema: { type: 'object' } })).toBeUndefined();
    expect(catalogToolFormat({ type: 'object', properties: {} })).toBeUndefined();
  });
});

describe('example documents', () => {
  it('reads a tool.json of type go (goFunc) as a function tool, and refuses unknown fields by name', () => {
    const doc = {
      schemaVersion: 'xyz',
      bundleID: '018faf50-b7b6-7a01-9a05-a22a6e0af101',
      slug: 'weather',
      version: 'v2',
      displayName: 'Weather report',
      description: 'Fetch current weather for a city',
      type: 'go',
      isEnabled: true,
      isBuiltIn: false,
      argSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      outputSchema: { type: 'string' },
      impl: { goFunc: 'github.com/acme/agent/tools.Weather' },
      createdAt: '2024-05-14T13:44:00Z',
      modifiedAt: '2024-06-01T09:17:10Z',
    };
    const r = decodeToolJson(doc, env);
    expect(r._tag === 'Right' && r.right.built.content.impl).toEqual({ function: 'github.com/acme/agent/tools.Weather' });
    expect(r._tag === 'Right' && r.right.createdAt).toBe('2024-05-14T13:44:00.000Z');
    const typo = decodeToolJson({ ...doc, descripton: 'x' }, env);
    expect(typo._tag === 'Left' && typo.left[0]?.hint).toContain('description');
  });

  it('reads a registry Tool JSON in the map form, and its exec block; image is not supported here', () => {
    const r = decodeRegistryTool(
      {
        id: 'tool_http_get',
        name: 'HTTP GET',
        description: 'Fetch URL',
        input_schema: { url: 'string' },
        output_schema: { status: 'int', body: 'string' },
        permissions: ['net:read'],
        safety_level: 'low',
        created_by: 'system',
        created_at: '2025-09-23T12:00:00Z',
      },
      env,
    );
    expect(r._tag === 'Right' && r.right.built.content.impl).toEqual({ builtin: 'web_fetch' });
    const cmd = decodeRegistryTool(
      {
        id: 'tool_grep',
        description: 'Grep',
        input_schema: { pattern: 'string', stdin: 'string' },
        exec: { type: 'cmd', cmd: 'grep', args: ['-e', '{pattern}'] },
      },
      env,
    );
    expect(cmd._tag === 'Right' && cmd.right.built.content.impl).toEqual({ argv: ['grep', '-e', '{pattern}'], env: ['PATH'], stdin: 'stdin' });
    const image = decodeRegistryTool({ id: 'tool_img', description: 'x', exec: { type: 'image', image: 'alpine' } }, env);
    expect(image._tag === 'Left' && image.left[0]?.code).toBe(CatalogCodes.EXEC_IMAGE_UNSUPPORTED);
    const bad = decodeRegistryTool({ id: 'has space', description: 'x' }, env);
    expect(bad._tag === 'Left' && bad.left[0]?.code).toBe(CatalogCodes.INVALID_REGISTRY_ID);
  });
});
