import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkLibrary, libraryEntries, librariesEqual } from '../../src/library/tool-library.js';
import { createTool, emptyToolLibrary, hasTool, isToolLibrary, librarySize, listTools, lookupTool, registerTool, removeTool, type Tool, type ToolLibrary, toolLibrary, toolNames, unionLibraries } from '../../src/index.js';

// a pool of distinct tool objects; libraries are built from (name, tool) registrations
const names = ['a', 'b', 'c', 'sayHello', 'math.factorial', 'get_weather', 'x-y', '', 'ünïcode', '__proto__', 'constructor'];
const pool: ReadonlyArray<Tool> = Array.from({ length: 12 }, (_, i) => createTool(`t${i}`, `tool ${i}`, { type: 'object' }, () => i));

const nameArb = fc.oneof(fc.constantFrom(...names), fc.string({ maxLength: 6 }));
const toolArb = fc.constantFrom(...pool);
const registrationsArb = fc.array(fc.tuple(nameArb, toolArb), { maxLength: 30 });
const build = (regs: ReadonlyArray<readonly [string, Tool]>): ToolLibrary => regs.reduce((lib, [n, t]) => registerTool(n, t, lib), emptyToolLibrary);
const libraryArb = registrationsArb.map(build);

/** What a library holds, as plain data, to compare before and after. */
const contents = (lib: ToolLibrary) => libraryEntries(lib).map(([n, t]) => [n, t] as const);

describe('ToolLibrary laws', () => {
  it('lookups answer the same before and after a library builds its read index, and updates after it are seen', () => {
    fc.assert(
      fc.property(libraryArb, fc.array(nameArb, { minLength: 1, maxLength: 10 }), nameArb, toolArb, (lib, probes, name, tool) => {
        const expected = probes.map((n) => lib.entries.get(n));
        // enough reads of one value to build its index (it is built after 32 + size / 4 lookups)
        for (let round = 0; round < 60; round++) {
          expect(probes.map((n) => lookupTool(n, lib))).toEqual(expected);
          expect(probes.map((n) => hasTool(n, lib))).toEqual(expected.map((t) => t !== undefined));
        }
        const next = registerTool(name, tool, lib);
        expect(lookupTool(name, next)).toBe(tool);
        expect(lookupTool(name, lib)).toBe(lib.entries.get(name));
        const removed = removeTool(name, next);
        expect(lookupTool(name, removed)).toBeUndefined();
        expect(hasTool(name, removed)).toBe(false);
      }),
      { numRuns: 60 },
    );
  });

  it('register then lookup gives the tool', () => {
    fc.assert(
      fc.property(libraryArb, nameArb, toolArb, (lib, name, tool) => {
        expect(lookupTool(name, registerTool(name, tool, lib))).toBe(tool);
      }),
    );
  });

  it('registering never changes the library it came from', () => {
    fc.assert(
      fc.property(libraryArb, nameArb, toolArb, (lib, name, tool) => {
        const before = contents(lib);
        const size = librarySize(lib);
        registerTool(name, tool, lib);
        expect(contents(lib)).toEqual(before);
        expect(librarySize(lib)).toBe(size);
      }),
    );
  });

  it('registering leaves the other names as they were, and replaces an existing entry', () => {
    fc.assert(
      fc.property(libraryArb, nameArb, nameArb, toolArb, (lib, name, other, tool) => {
        fc.pre(name !== other);
        const next = registerTool(name, tool, lib);
        expect(lookupTool(other, next)).toBe(lookupTool(other, lib));
        expect(librarySize(next)).toBe(librarySize(lib) + (hasTool(name, lib) ? 0 : 1));
      }),
    );
  });

  it('removal: the name is gone, the source is unchanged, other names stay', () => {
    fc.assert(
      fc.property(libraryArb, nameArb, nameArb, (lib, name, other) => {
        const before = contents(lib);
        const next = removeTool(name, lib);
        expect(lookupTool(name, next)).toBeUndefined();
        expect(hasTool(name, next)).toBe(false);
        expect(contents(lib)).toEqual(before);
        if (other !== name) expect(lookupTool(other, next)).toBe(lookupTool(other, lib));
        expect(librarySize(next)).toBe(librarySize(lib) - (hasTool(name, lib) ? 1 : 0));
      }),
    );
  });

  it('removing what was just registered gives the library without that name', () => {
    fc.assert(
      fc.property(libraryArb, nameArb, toolArb, (lib, name, tool) => {
        expect(librariesEqual(removeTool(name, registerTool(name, tool, lib)), removeTool(name, lib))).toBe(true);
      }),
    );
  });

  it('union is right-biased: a name comes from the last library that has it', () => {
    fc.assert(
      fc.property(libraryArb, libraryArb, nameArb, (a, b, name) => {
        expect(lookupTool(name, unionLibraries(a, b))).toBe(lookupTool(name, b) ?? lookupTool(name, a));
      }),
    );
  });

  it('union: empty is the identity, it is associative and idempotent, and leaves its operands unchanged', () => {
    fc.assert(
      fc.property(libraryArb, libraryArb, libraryArb, (a, b, c) => {
        const [ca, cb] = [contents(a), contents(b)];
        expect(librariesEqual(unionLibraries(emptyToolLibrary, a), a)).toBe(true);
        expect(librariesEqual(unionLibraries(a, emptyToolLibrary), a)).toBe(true);
        expect(librariesEqual(unionLibraries(unionLibraries(a, b), c), unionLibraries(a, unionLibraries(b, c)))).toBe(true);
        expect(librariesEqual(unionLibraries(a, b, c), unionLibraries(unionLibraries(a, b), c))).toBe(true);
        expect(librariesEqual(unionLibraries(a, a), a)).toBe(true);
        expect(toolNames(unionLibraries(a, b))).toEqual([...new Set([...toolNames(a), ...toolNames(b)])].sort());
        expect(contents(a)).toEqual(ca);
        expect(contents(b)).toEqual(cb);
      }),
    );
  });

  it('toolLibrary(tools) is registering each tool under its own name, in order', () => {
    fc.assert(
      fc.property(fc.array(toolArb, { maxLength: 20 }), (tools) => {
        const folded = tools.reduce((lib, t) => registerTool(t.name, t, lib), emptyToolLibrary);
        expect(librariesEqual(toolLibrary(tools), folded)).toBe(true);
      }),
    );
  });

  it('lists names and tools sorted by name, the same across equal libraries', () => {
    fc.assert(
      fc.property(registrationsArb, (regs) => {
        const lib = build(regs);
        const ns = toolNames(lib);
        expect([...ns].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0))).toEqual(ns);
        expect(listTools(lib)).toEqual(ns.map((n) => lookupTool(n, lib)));
        expect(librarySize(lib)).toBe(new Set(regs.map(([n]) => n)).size);
        // the same registrations in another order give the same names
        expect(toolNames(build([...regs].reverse()))).toEqual(ns);
      }),
    );
  });
});

describe('ToolLibrary', () => {
  const t0 = pool[0] as Tool;
  it('is immutable: updates return new libraries, no-op updates the same one', () => {
    const lib = toolLibrary([t0]);
    expect(Object.isFrozen(lib)).toBe(true);
    expect(removeTool('absent', lib)).toBe(lib);
    expect(registerTool(t0.name, t0, lib)).toBe(lib);
    expect(isToolLibrary(lib)).toBe(true);
    expect(isToolLibrary({ entries: {} })).toBe(false);
  });

  it('says it is not serializable, listing its tools', () => {
    const lib = toolLibrary(pool.slice(0, 3));
    const json = JSON.parse(JSON.stringify(lib)) as { code: string; message: string };
    expect(json.code).toBe('TOOL_LIBRARY_NOT_SERIALIZABLE');
    expect(json.message).toContain('t0, t1, t2');
  });

  it('keeps an entry registered under another name than its tool, and checkLibrary reports it', () => {
    const lib = registerTool('alias', t0, emptyToolLibrary);
    expect(lookupTool('alias', lib)).toBe(t0);
    const problems = checkLibrary(lib);
    expect(problems.map((d) => d.code)).toEqual(['TOOL_LIBRARY_NAME_MISMATCH']);
    expect(problems[0]?.message).toBe('library entry "alias" holds the tool "t0"');
    expect(checkLibrary(toolLibrary(pool))).toEqual([]);
  });

  it('holds names that are special in plain objects as ordinary names', () => {
    const lib = registerTool('__proto__', t0, registerTool('constructor', t0, emptyToolLibrary));
    expect(lookupTool('__proto__', lib)).toBe(t0);
    expect(lookupTool('toString', lib)).toBeUndefined();
    expect(toolNames(lib)).toEqual(['__proto__', 'constructor']);
  });
});
