/**
 * The one rule that chooses the library of a file's tools (src/project/library.ts), as a table:
 * for each arrangement of `--library`, the header's library, the file argument as a library, a
 * catalog, declared and built-in tools, which part implements the tool (or why none does).
 */
import { describe, expect, it } from 'vitest';
import { isLeft, right } from '../../src/core/either.js';
import { ok } from '../../src/core/result.js';
import { createTool, lookupTool, parseSpecifications, toolLibrary, type ToolLibrary, type ToolSpecification } from '../../src/index.js';
import { builtinSpecification } from '../../src/entries/builtins.js';
import { type LibraryRequest, resolveLibrary } from '../../src/project/library.js';

const specOf = (gram: string): ToolSpecification => {
  const r = parseSpecifications(gram);
  if (isLeft(r)) throw new Error(r.left.map((d) => d.message).join('\n'));
  return r.right.tools[0] as ToolSpecification;
};

/** The file's own tool, one it declares (`http: {...}`), and a built-in it names. */
const OWN = specOf('[own:Tool {description: "A tool of the file"} | (x::String)==>(::String)]');
const DECLARED = specOf('[declared:Tool {description: "Declared", http: {method: "GET", url: "https://example.com/x"}} | (x::String)==>(::String)]');
const BUILTIN = builtinSpecification('read_file') as ToolSpecification;

/** A library of `names`, each tool's description saying which part (`from`) implements it. */
const made = (from: string, names: ReadonlyArray<string>): ToolLibrary =>
  toolLibrary(names.map((n) => createTool(n, `${n} from ${from}`, { type: 'object' }, () => from)));

/** The modules a `--library` or a header may name, and the tools each has. */
const MODULES: Readonly<Record<string, ReadonlyArray<string>>> = {
  'a.ts': ['own', 'declared', 'read_file'],
  'b.ts': ['own'],
  'header.ts': ['own'],
  'empty.ts': [],
  builtin: ['read_file'],
};

const loaders = {
  module: async (ref: string) => ok(made(ref, MODULES[ref] ?? [])),
  declared: (tools: ReadonlyArray<ToolSpecification>) =>
    right(
      made(
        'declared',
        tools.map((t) => t.name),
      ),
    ),
  builtin: async () => ok(made('built-in', ['read_file'])),
};

/** Which part implements `tool`, or the failure's kind and tools. */
const implementer = async (request: LibraryRequest, tool: string): Promise<unknown> => {
  const r = await resolveLibrary(request, loaders);
  if (!r.ok) return r.error.kind === 'unimplemented' ? `unimplemented: ${r.error.tools.join(', ')}` : r.error.kind;
  const found = lookupTool(tool, r.value.library);
  return found === undefined ? 'none' : found.description.replace(`${tool} from `, '');
};

type Row = readonly [what: string, request: Omit<LibraryRequest, 'catalog'> & { readonly catalog?: ReadonlyArray<string> }, tool: string, expected: string];

const TABLE: ReadonlyArray<Row> = [
  ['--library implements the file’s tool', { tools: [OWN], given: ['b.ts'] }, 'own', 'b.ts'],
  ['--library replaces the header’s library', { tools: [OWN], given: ['b.ts'], header: 'header.ts' }, 'own', 'b.ts'],
  ['without --library, the header’s library', { tools: [OWN], given: [], header: 'header.ts' }, 'own', 'header.ts'],
  ['of two --library, the later wins', { tools: [OWN], given: ['a.ts', 'b.ts'] }, 'own', 'b.ts'],
  ['a --library after the file argument’s library wins', { tools: [BUILTIN], given: ['a.ts'], source: 'builtin' }, 'read_file', 'a.ts'],
  ['the file argument as a library, with no --library', { tools: [BUILTIN], given: [], source: 'builtin', header: 'header.ts' }, 'read_file', 'builtin'],
  ['a declared tool, no module', { tools: [DECLARED], given: [] }, 'declared', 'declared'],
  ['a module over a declaration', { tools: [DECLARED], given: ['a.ts'] }, 'declared', 'a.ts'],
  ['a catalog over a declaration', { tools: [DECLARED], given: [], catalog: ['declared'] }, 'declared', 'catalog'],
  ['a built-in tool the file names', { tools: [BUILTIN], given: [] }, 'read_file', 'built-in'],
  ['a built-in tool, with a module that does not have it', { tools: [BUILTIN], given: ['b.ts'] }, 'read_file', 'built-in'],
  ['a catalog over a built-in tool', { tools: [BUILTIN], given: [], catalog: ['read_file'] }, 'read_file', 'catalog'],
  ['a module over a built-in tool', { tools: [BUILTIN], given: ['a.ts'] }, 'read_file', 'a.ts'],
  ['a module over a catalog', { tools: [OWN], given: ['b.ts'], catalog: ['own'] }, 'own', 'b.ts'],
  ['a catalog implements a tool no module does', { tools: [OWN], given: [], catalog: ['own'] }, 'own', 'catalog'],
  ['nothing implements the file’s own tool', { tools: [OWN, DECLARED, BUILTIN], given: [] }, 'own', 'unimplemented: own'],
  ['a module that lacks the tool is no failure here (binding reports it)', { tools: [OWN], given: ['empty.ts'] }, 'own', 'none'],
];

describe('the library precedence rule', () => {
  it.each(TABLE)('%s', async (_what, { catalog, ...request }, tool, expected) => {
    expect(await implementer({ ...request, ...(catalog !== undefined ? { catalog: made('catalog', catalog) } : {}) }, tool)).toBe(expected);
  });

  it('names every module it chose, in order', async () => {
    const r = await resolveLibrary({ tools: [OWN], given: ['a.ts', 'b.ts'], source: 'builtin', header: 'header.ts' }, loaders);
    expect(r.ok && r.value.modules).toEqual(['builtin', 'a.ts', 'b.ts']);
  });

  it('does not load the built-in tools again when builtin is a module', async () => {
    let loaded = 0;
    const r = await resolveLibrary(
      { tools: [BUILTIN], given: ['builtin'] },
      {
        ...loaders,
        builtin: async () => {
          loaded++;
          return ok(made('built-in', ['read_file']));
        },
      },
    );
    expect([r.ok, loaded]).toEqual([true, 0]);
  });
});
