/**
 * ToolLibrary: an immutable map from names to tools. Every update returns a new
 * library and leaves the old one as it was; updates share structure (a hash trie, `HashTrie`),
 * so registering one tool costs O(log n), not a copy of the library.
 *
 * Libraries are the unit of late binding: the same specifications bound against two libraries
 * run the same agent on two sets of implementations (an A/B experiment).
 *
 * The type is opaque: what a library holds is read through the functions of this module, and no
 * type of its implementation appears in the public declarations.
 */
import { ToolCodes } from './codes.js';
import { type Diagnostic, error } from '../core/diagnostic.js';
import { HashTrie } from './hash-trie.js';
import { isTool, type Tool, validateTool } from './tool.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** Marks libraries across copies of gramkit (a library module loaded by the CLI has its own copy). */
export const TOOL_LIBRARY: unique symbol = Symbol.for('gramkit.ToolLibrary') as never;

export interface ToolLibrary {
  readonly [TOOL_LIBRARY]: true;
  /** A library holds functions: `JSON.stringify` gives a `TOOL_LIBRARY_NOT_SERIALIZABLE` diagnostic. */
  readonly toJSON: () => Diagnostic;
}

/**
 * How a library of any copy of gramkit hands out its entries: a method under this registered
 * symbol returns them as `[name, tool]` pairs. Not part of the public types.
 */
const ENTRIES = Symbol.for('gramkit.ToolLibrary.entries');

/** A library of this copy of gramkit: its entries are a private field, out of reach of other code. */
class Library implements ToolLibrary {
  readonly [TOOL_LIBRARY] = true as const;
  readonly #entries: HashTrie<Tool>;

  constructor(entries: HashTrie<Tool>) {
    this.#entries = entries;
    Object.freeze(this);
  }

  /** The entries of a library of this copy of gramkit; those of another copy, once adopted. */
  static entriesOf(library: ToolLibrary): HashTrie<Tool> {
    return #entries in library ? library.#entries : adopted(library).#entries;
  }

  static isOwn(v: object): v is Library {
    return #entries in v;
  }

  toJSON(): Diagnostic {
    const names = toolNames(this);
    const shown = names.length > 20 ? `${names.slice(0, 20).join(', ')}, … (${names.length} in all)` : names.join(', ');
    return error(ToolCodes.LIBRARY_NOT_SERIALIZABLE, `a ToolLibrary holds functions and is not serializable (tools: ${shown || 'none'})`, {
      hint: 'serialize the tool specifications; bind them to a library at run time',
    });
  }

  [ENTRIES](): Iterable<readonly [string, Tool]> {
    return this.#entries.entries();
  }
}
Object.freeze(Library.prototype);

const entriesOf = Library.entriesOf;

const make = (entries: HashTrie<Tool>): ToolLibrary => (entries.size === 0 ? emptyToolLibrary : new Library(entries));

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

/** The library with no tools. */
export const emptyToolLibrary: ToolLibrary = new Library(HashTrie.empty());

/**
 * A library of the given tools, each under its own name. Equivalent to registering them one after
 * another: when two tools share a name, the later one is kept (as `registerTool` replaces).
 */
export const toolLibrary = (tools: Iterable<Tool>): ToolLibrary => make(HashTrie.from(Array.from(tools, (t) => [t.name, t] as const)));

// -------------------------------------------------------------------------------------------------
// combinators
// -------------------------------------------------------------------------------------------------

/**
 * The library with `tool` registered under `name`; an existing entry of that name is replaced.
 * `library` itself is unchanged. `name` should be the tool's own name: an entry whose name differs
 * is kept (nothing is dropped) but `bindTool` reports it as `NAME_MISMATCH`, and `checkLibrary`
 * lists it.
 */
export const registerTool = (name: string, tool: Tool, library: ToolLibrary): ToolLibrary => {
  const entries = entriesOf(library);
  const next = entries.set(name, tool);
  return next === entries ? library : make(next);
};

/** The library without the entry `name` (the same library when there is none). */
export const removeTool = (name: string, library: ToolLibrary): ToolLibrary => {
  const entries = entriesOf(library);
  const next = entries.delete(name);
  return next === entries ? library : make(next);
};

/**
 * All entries of all the libraries. **The right wins**: when several libraries hold a name, the
 * entry of the last one is kept, as with object spread (`unionLibraries(defaults, overrides)`).
 * Associative, with `emptyToolLibrary` as identity. Costs O(m log n) for m entries in the smaller
 * side of each union.
 */
export const unionLibraries = (...libraries: ReadonlyArray<ToolLibrary>): ToolLibrary => {
  const nonEmpty = libraries.filter((l) => librarySize(l) > 0);
  if (nonEmpty.length === 0) return emptyToolLibrary;
  const [first, ...rest] = nonEmpty as [ToolLibrary, ...ToolLibrary[]];
  if (rest.length === 0) return first;
  let entries = entriesOf(first);
  for (const l of rest) entries = union(entries, entriesOf(l));
  return make(entries);
};

/** `left`'s entries and `right`'s, `right` winning; the smaller side is added to the larger. */
const union = (left: HashTrie<Tool>, right: HashTrie<Tool>): HashTrie<Tool> => {
  let out = right;
  if (left.size <= right.size) {
    for (const [name, tool] of left.entries()) if (!right.has(name)) out = out.set(name, tool);
  } else {
    out = left;
    for (const [name, tool] of right.entries()) out = out.set(name, tool);
  }
  return out;
};

// -------------------------------------------------------------------------------------------------
// queries
// -------------------------------------------------------------------------------------------------

/** The tool registered under `name`, or `undefined`. O(log₃₂ n). */
export const lookupTool = (name: string, library: ToolLibrary): Tool | undefined => entriesOf(library).get(name);

export const hasTool = (name: string, library: ToolLibrary): boolean => entriesOf(library).has(name);

export const librarySize = (library: ToolLibrary): number => entriesOf(library).size;

/** The names of the entries, sorted. */
export const toolNames = (library: ToolLibrary): ReadonlyArray<string> => entriesOf(library).keys().sort(byCodePoint);

/** The tools, sorted by the name they are registered under. */
export const listTools = (library: ToolLibrary): ReadonlyArray<Tool> => libraryEntries(library).map(([, tool]) => tool);

/** `[name, tool]` pairs, sorted by name. */
export const libraryEntries = (library: ToolLibrary): ReadonlyArray<readonly [string, Tool]> =>
  entriesOf(library)
    .entries()
    .sort(([a], [b]) => byCodePoint(a, b));

/** Whether two libraries hold the same tool objects under the same names. */
export const librariesEqual = (a: ToolLibrary, b: ToolLibrary): boolean => {
  if (a === b) return true;
  const [x, y] = [entriesOf(a), entriesOf(b)];
  if (x.size !== y.size) return false;
  for (const [name, tool] of x.entries()) if (y.get(name) !== tool) return false;
  return true;
};

// -------------------------------------------------------------------------------------------------
// libraries of other copies of gramkit
// -------------------------------------------------------------------------------------------------

/**
 * Where a library of another copy of gramkit keeps its entries: the `ENTRIES` method, or, in a copy
 * older than the method, `entries` (an immutable.js map, iterable as pairs).
 */
const entrySource = (v: object): (() => unknown) | undefined => {
  const method = (v as { [ENTRIES]?: unknown })[ENTRIES];
  if (typeof method === 'function') return () => method.call(v);
  const legacy = (v as { entries?: unknown }).entries;
  return isIterable(legacy) ? () => legacy : undefined;
};

const isIterable = (v: unknown): v is Iterable<unknown> =>
  typeof v === 'object' && v !== null && typeof (v as { [Symbol.iterator]?: unknown })[Symbol.iterator] === 'function';

/** Whether a value is a ToolLibrary, from this copy of gramkit or another one. */
export const isToolLibrary = (v: unknown): v is ToolLibrary =>
  typeof v === 'object' && v !== null && (Library.isOwn(v) || ((v as Record<symbol, unknown>)[TOOL_LIBRARY] === true && entrySource(v) !== undefined));

/**
 * A library from another copy of gramkit rebuilt with this one's structures; a library of this
 * copy is returned as it is. Entries that are not tools are reported (and left out).
 */
export const adoptLibrary = (v: ToolLibrary): { readonly library: ToolLibrary; readonly problems: ReadonlyArray<Diagnostic> } => {
  if (Library.isOwn(v)) return { library: v, problems: [] };
  const problems: Diagnostic[] = [];
  const entries: Array<readonly [string, Tool]> = [];
  const given = entrySource(v)?.();
  for (const entry of isIterable(given) ? given : []) {
    const [name, tool] = Array.isArray(entry) ? (entry as [unknown, unknown]) : [entry, undefined];
    if (typeof name === 'string' && isTool(tool)) entries.push([name, tool]);
    else problems.push(error(ToolCodes.LIBRARY_INVALID_ENTRY, `library entry ${JSON.stringify(String(name))} is not a tool`));
  }
  return { library: make(HashTrie.from(entries)), problems };
};

/** Libraries of other copies given to the functions of this module, adopted once each. */
const adoptions = new WeakMap<object, Library>();

const adopted = (v: ToolLibrary): Library => {
  let library = adoptions.get(v);
  if (library === undefined) {
    library = adoptLibrary(v).library as Library;
    adoptions.set(v, library);
  }
  return library;
};

/**
 * What is wrong in a library, as diagnostics: entries whose name differs from their tool's name,
 * and tools that `validateTool` rejects. Empty for a sound library.
 */
export const checkLibrary = (library: ToolLibrary): ReadonlyArray<Diagnostic> => {
  const out: Diagnostic[] = [];
  for (const [name, tool] of libraryEntries(library)) {
    if (tool.name !== name) {
      out.push(
        error(ToolCodes.LIBRARY_NAME_MISMATCH, `library entry "${name}" holds the tool "${tool.name}"`, {
          hint: `register it as registerTool("${tool.name}", tool, library)`,
        }),
      );
    }
    out.push(...validateTool(tool));
  }
  return out;
};

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

const byCodePoint = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
