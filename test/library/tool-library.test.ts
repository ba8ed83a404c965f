import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { adoptLibrary, checkLibrary, libraryEntries, librariesEqual } from '../../src/library/tool-library.js';
import {
  createTool,
  emptyToolLibrary,
  hasTool,
  isToolLibrary,
  librarySize,
  listTools,
  lookupTool,
  registerTool,
  removeTool,
  type Tool,
  type ToolLibrary,
  toolLibrary,
  toolNames,
  unionLibraries,
} from '../../src/index.js';

// names, and a pool of distinct tool objects; libraries are built from (name, tool) registrations.
// The colliding names share their whole 32-bit hash, which the library's hash trie reads 5 bits a
// level: t7pd6, tovl8, xakiehjva and xe1yemfya; t7pd7 and tovl9.
const colliding = ['t7pd6', 'tovl8', 'xakiehjva', 'xe1yemfya', 't7pd7', 'tovl9'];
const names = ['a', 'b', 'c', 'sayHello', 'math.factorial', 'get_weather', 'x-y', '', 'ünïcode', '__proto__', 'constructor', ...colliding];
const pool: ReadonlyArray<Tool> = Array.from({ length: 12 }, (_, i) => createTool(`t${i}`, `tool ${i}`, { type: 'object' }, () => i));

const nameArb = fc.oneof(fc.constantFrom(...names), fc.string({ maxLength: 6 }));
const toolArb = fc.constantFrom(...pool);
const registrationsArb = fc.array(fc.tuple(nameArb, toolArb), { maxLength: 30 });
const build = (regs: ReadonlyArray<readonly [string, Tool]>): ToolLibrary => regs.reduce((lib, [n, t]) => registerTool(n, t, lib), emptyToolLibrary);
const libraryArb = registrationsArb.map(build);

/** What a library holds, as plain data, to compare before and after. */
const contents = (lib: ToolLibrary) => libraryEntries(lib).map(([n, t]) => [n, t] as const);

describe('ToolLibrary laws', () => {
  it('answers as a native Map of the same registrations and removals, every version of it', () => {
    const opArb = fc.oneof(fc.tuple(fc.constant('register' as const), nameArb, toolArb), fc.tuple(fc.constant('remove' as const), nameArb));
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 80 }), fc.array(nameArb, { maxLength: 10 }), (ops, probes) => {
        const versions: Array<readonly [ToolLibrary, ReadonlyMap<string, Tool>]> = [[emptyToolLibrary, new Map()]];
        for (const op of ops) {
          const [lib, model] = versions[versions.length - 1] as readonly [ToolLibrary, ReadonlyMap<string, Tool>];
          const next = new Map(model);
          if (op[0] === 'register') next.set(op[1], op[2]);
          else next.delete(op[1]);
          versions.push([op[0] === 'register' ? registerTool(op[1], op[2], lib) : removeTool(op[1], lib), next]);
          // a lookup between updates sees the latest version
          expect(lookupTool(op[1], versions[versions.length - 1]?.[0] as ToolLibrary)).toBe(next.get(op[1]));
        }
        for (const [lib, model] of versions) {
          expect(librarySize(lib)).toBe(model.size);
          expect(contents(lib)).toEqual([...model].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
          for (const n of [...probes, ...ops.map((op) => op[1])]) {
            expect(lookupTool(n, lib)).toBe(model.get(n));
            expect(hasTool(n, lib)).toBe(model.has(n));
          }
        }
      }),
      { numRuns: 200 },
    );
  });

  it('large libraries: every registered name is found, every removed one is gone', () => {
    const many = Array.from({ length: 3000 }, (_, i) => `tool_${i}`);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: many.length }), fc.array(fc.nat({ max: many.length - 1 }), { maxLength: 300 }), (n, removed) => {
        const tools = many.slice(0, n).map((name, i) => [name, pool[i % pool.length] as Tool] as const);
        const lib = build(tools);
        const after = removed.reduce((l, i) => removeTool(many[i] as string, l), lib);
        const gone = new Set(removed.map((i) => many[i]));
        expect(librarySize(lib)).toBe(n);
        expect(librariesEqual(lib, toolLibrary([]))).toBe(n === 0);
        for (const [name, tool] of tools) {
          expect(lookupTool(name, lib)).toBe(tool);
          expect(lookupTool(name, after)).toBe(gone.has(name) ? undefined : tool);
        }
        expect(librarySize(after)).toBe(tools.filter(([name]) => !gone.has(name)).length);
        expect(librariesEqual(after, build(tools.filter(([name]) => !gone.has(name))))).toBe(true);
      }),
      { numRuns: 15 },
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

describe('libraries of another copy of gramkit', () => {
  // this module loaded a second time has classes of its own, as a library module that bundles
  // its own copy of gramkit does
  const otherPath = '../../src/library/tool-library.ts?another-copy';
  const loadOther = () => import(/* @vite-ignore */ otherPath) as Promise<typeof import('../../src/library/tool-library.js')>;
  const brand = Symbol.for('gramkit.ToolLibrary');

  it('are libraries, and every function reads them as a library of this copy', async () => {
    const other = await loadOther();
    expect(other.emptyToolLibrary).not.toBe(emptyToolLibrary);
    fc.assert(
      fc.property(registrationsArb, nameArb, toolArb, (regs, name, tool) => {
        const theirs = regs.reduce((lib, [n, t]) => other.registerTool(n, t, lib), other.emptyToolLibrary);
        const ours = build(regs);
        expect(isToolLibrary(theirs)).toBe(true);
        expect(other.isToolLibrary(ours)).toBe(true);
        expect(contents(theirs)).toEqual(contents(ours));
        expect(toolNames(theirs)).toEqual(toolNames(ours));
        expect(librarySize(theirs)).toBe(librarySize(ours));
        expect(lookupTool(name, theirs)).toBe(lookupTool(name, ours));
        expect(hasTool(name, theirs)).toBe(hasTool(name, ours));
        expect(librariesEqual(theirs, ours)).toBe(true);
        expect(librariesEqual(registerTool(name, tool, theirs), registerTool(name, tool, ours))).toBe(true);
        expect(librariesEqual(removeTool(name, theirs), removeTool(name, ours))).toBe(true);
        expect(librariesEqual(unionLibraries(ours, theirs), ours)).toBe(true);
        expect(other.librariesEqual(theirs, ours)).toBe(true);
        // adopted: a library of this copy with the same entries, and nothing to report
        const adopted = adoptLibrary(theirs);
        expect(adopted.problems).toEqual([]);
        expect(librariesEqual(adopted.library, theirs)).toBe(true);
        expect(adoptLibrary(adopted.library).library).toBe(adopted.library);
        expect(adoptLibrary(ours).library).toBe(ours);
      }),
      { numRuns: 50 },
    );
  });

  it('updates of a library of another copy are libraries of this copy; the other library is unchanged', async () => {
    const other = await loadOther();
    const t0 = pool[0] as Tool;
    const theirs = other.toolLibrary(pool.slice(1, 4));
    const next = registerTool(t0.name, t0, theirs);
    expect(adoptLibrary(next).library).toBe(next);
    expect(toolNames(next)).toEqual(['t0', 't1', 't2', 't3']);
    expect(other.toolNames(theirs)).toEqual(['t1', 't2', 't3']);
  });

  it('a library of a copy that held an immutable.js map in `entries` is read through it', () => {
    const t0 = pool[0] as Tool;
    const legacy = {
      [brand]: true,
      entries: new Map<string, unknown>([
        ['t0', t0],
        ['bad', 3],
      ]),
    } as unknown as ToolLibrary;
    expect(isToolLibrary(legacy)).toBe(true);
    expect(lookupTool('t0', legacy)).toBe(t0);
    expect(toolNames(legacy)).toEqual(['t0']);
    const adopted = adoptLibrary(legacy);
    expect(adopted.problems.map((d) => d.code)).toEqual(['TOOL_LIBRARY_INVALID_ENTRY']);
    expect(toolNames(adopted.library)).toEqual(['t0']);
  });

  it('other values are not libraries', () => {
    for (const v of [
      null,
      undefined,
      3,
      'library',
      {},
      { entries: {} },
      { [brand]: true },
      { [brand]: true, entries: 3 },
      { [brand]: false, entries: new Map() },
      pool[0],
    ]) {
      expect(isToolLibrary(v)).toBe(false);
    }
  });
});
