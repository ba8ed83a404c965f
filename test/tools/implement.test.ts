/**
 * `implement(source, handlers)`: a library from a specification file and plain functions by tool
 * name, through the root entry. Its tools carry the specification's names, descriptions and
 * schemas, so every tool binds; a missing or an extra handler is an error naming both lists.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { bindTool, ImplementError, implement, implementSync, invoke, librarySize, lookupTool, parseSpecifications, toolNames } from '../../src/index.js';

const GRAM = `[greet:Tool {description: "Greets a person by name"} |
  (name::String {description: "Who to greet"})==>(excited::Boolean {default: false})==>(::String)
]

[add:Tool {description: "Adds two numbers"} | (a::Number)==>(b::Number)==>(::Number)]

[weather:Tool {description: "Weather", http: {urlTemplate: "https://example.com/?q=\${city}"}} | (city::String)==>(::String)]

[greeter:Agent {description: "Greets", instruction: "Greet."} | greet, add]
`;

const dir = mkdtempSync(join(tmpdir(), 'gramkit-implement-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = join(dir, 'greeter.gram');
writeFileSync(file, GRAM);

const handlers = {
  greet: ({ name, excited }: { name: string; excited: boolean }) => `Hello, ${name}${excited ? '!' : '.'}`,
  add: ({ a, b }: { a: number; b: number }) => a + b,
};

const rejection = async (p: Promise<unknown>): Promise<ImplementError> => {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ImplementError);
    return e as ImplementError;
  }
  throw new Error('expected a rejection');
};

describe('implement', () => {
  it('reads a file given as a URL, and its tools bind to the specifications and run their handlers (defaults applied)', async () => {
    const library = await implement(pathToFileURL(file), handlers);
    expect([...toolNames(library)].sort()).toEqual(['add', 'greet']);
    const specs = parseSpecifications(GRAM);
    if (specs._tag === 'Left') throw new Error('specs');
    for (const spec of specs.right.tools.filter((t) => t.name !== 'weather')) expect(bindTool(spec, library)._tag).toBe('Right');
    expect(lookupTool('greet', library)?.description).toBe('Greets a person by name');
    const greet = bindTool(specs.right.tools[0]!, library);
    const add = bindTool(specs.right.tools[1]!, library);
    if (greet._tag === 'Left' || add._tag === 'Left') throw new Error('bind');
    expect(await invoke(greet.right, { name: 'Ada' })).toEqual({ ok: true, value: 'Hello, Ada.' });
    expect(await invoke(add.right, { a: 2, b: 3 })).toEqual({ ok: true, value: 5 });
  });

  it('resolves a relative path against base (a module URL or a folder)', async () => {
    const moduleUrl = pathToFileURL(join(dir, 'lib.ts')).href;
    expect(librarySize(await implement('./greeter.gram', handlers, { base: moduleUrl }))).toBe(2);
    expect(librarySize(await implement('greeter.gram', handlers, { base: dir }))).toBe(2);
  });

  it('takes gram text and loaded specifications, synchronously too', async () => {
    expect(librarySize(await implement(GRAM, handlers))).toBe(2);
    expect(librarySize(implementSync(GRAM, handlers))).toBe(2);
    const specs = parseSpecifications(GRAM);
    if (specs._tag === 'Left') throw new Error('specs');
    expect(librarySize(implementSync(specs.right, handlers))).toBe(2);
    expect(librarySize(implementSync(specs.right.tools, handlers))).toBe(2);
  });

  it('uses a handler given for a tool that declares its implementation', () => {
    const library = implementSync(GRAM, { ...handlers, weather: ({ city }: { city: string }) => `sunny in ${city}` });
    expect(librarySize(library)).toBe(3);
  });

  it('a missing handler and a handler for no tool: one error naming both lists, with a suggestion', async () => {
    const e = await rejection(implement(pathToFileURL(file), { greet: handlers.greet, ad: handlers.add } as never));
    expect(e.code).toBe('IMPL_HANDLERS_MISMATCH');
    expect(e.diagnostics).toHaveLength(1);
    expect(e.diagnostics[0]?.message).toBe(
      'the handlers do not match the tools: no handler for "add"; "ad" is no tool of the file. The tools: greet, add, weather. The handlers: greet, ad',
    );
    expect(e.diagnostics[0]?.hint).toBe('"ad": did you mean "add"?');
    expect(e.diagnostics[0]?.file).toBe(file);
    expect(e.message).toContain('error[IMPL_HANDLERS_MISMATCH]');
  });

  it('a handler that is not a function', () => {
    let caught: unknown;
    try {
      implementSync(GRAM, { ...handlers, add: 42 } as never);
    } catch (e) {
      caught = e;
    }
    expect((caught as ImplementError).diagnostics.map((d) => d.code)).toEqual(['IMPL_HANDLER_NOT_FUNCTION']);
  });

  it('a file that does not load: its diagnostics; a file that does not exist: SOURCE_UNREADABLE', async () => {
    const bad = join(dir, 'bad.gram');
    writeFileSync(bad, '[greet:Tool {description: "x"} | (name::Strin)==>(::String)]\n');
    const e = await rejection(implement(bad, handlers));
    expect(e.diagnostics.map((d) => d.code)).toContain('SPEC_UNKNOWN_TYPE');
    expect(e.message).toContain('bad.gram:1:');
    const missing = await rejection(implement(join(dir, 'nope.gram'), handlers));
    expect(missing.code).toBe('IMPL_SOURCE_UNREADABLE');
    expect(missing.message).toContain('ENOENT');
  });

  it('limits and annotations per tool', () => {
    const library = implementSync(GRAM, handlers, { tools: { add: { limits: { timeoutMs: 50 }, annotations: { safetyLevel: 'low' } } } });
    expect(lookupTool('add', library)?.limits).toEqual({ timeoutMs: 50 });
    expect(lookupTool('add', library)?.annotations).toEqual({ safetyLevel: 'low' });
  });
});
