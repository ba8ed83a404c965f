/**
 * ToolLibrary: an immutable map from names to tools (seed 004). Every update returns a new
 * library and leaves the old one as it was; updates share structure (a HAMT from immutable.js),
 * so registering one tool costs O(log n), not a copy of the library.
 *
 * Libraries are the unit of late binding: the same specifications bound against two libraries
 * run the same agent on two sets of implementations (an A/B experiment).
 */
import { ToolCodes } from './codes.js';
import { Map as HamtMap } from 'immutable';
import { type Diagnostic, error } from '../core/diagnostic.js';
import { isTool, type Tool, validateTool } from './tool.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** Marks libraries across copies of gramkit (a library module loaded by the CLI has its own copy). */
export const TOOL_LIBRARY: unique symbol = Symbol.for('gramkit.ToolLibrary') as never;

export interface ToolLibrary {
  readonly [TOOL_LIBRARY]: true;
  /** The entries, by the name each tool was registered under. */
  readonly entries: HamtMap<string, Tool>;
  /** A library holds functions: `JSON.stringify` gives a `TOOL_LIBRARY_NOT_SERIALIZABLE` diagnostic. */
  readonly toJSON: () => Diagnostic;
}

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

function toJSON(this: ToolLibrary): Diagnostic {
  const names = toolNames(this);
  const shown = names.length > 20 ? `${names.slice(0, 20).join(', ')}, … (${names.length} in all)` : names.join(', ');
  return error(ToolCodes.LIBRARY_NOT_SERIALIZABLE, `a ToolLibrary holds functions and is not serializable (tools: ${shown || 'none'})`, {
    hint: 'serialize the tool specifications; bind them to a library at run time',
  });
}

/**
 * A read index of one library value: a native `Map` of its entries, built once enough lookups on
 * that value have paid for it. A library is usually built once and read many times. A HAMT lookup
 * walks 4 levels of nodes at 100k entries (≈ 1 µs on cold caches), a `Map` lookup one hash table
 * (0.2–0.4 µs). The index belongs to one immutable value, so it never goes stale. Registering or
 * removing makes a new value with no index, so building a library one tool at a time never pays
 * for it.
 */
interface ReadIndex {
  reads: number;
  map: Map<string, Tool> | undefined;
}

const READ_INDEX = Symbol('gramkit.ToolLibrary.readIndex');

/** Lookups on a value before its index is built: the index costs about as much as `size / 4` HAMT lookups. */
const indexAfter = (size: number): number => 32 + (size >>> 2);

const make = (entries: HamtMap<string, Tool>): ToolLibrary =>
  Object.freeze({ [TOOL_LIBRARY]: true as const, entries, toJSON, [READ_INDEX]: { reads: 0, map: undefined } as ReadIndex });

/** The entries of a library as a native map when its index is built, else the HAMT itself. */
const readable = (library: ToolLibrary): { get(name: string): Tool | undefined; has(name: string): boolean } => {
  const index = (library as { [READ_INDEX]?: ReadIndex })[READ_INDEX];
  if (index === undefined) return library.entries; // a library made by another copy of gramkit
  if (index.map !== undefined) return index.map;
  if (++index.reads >= indexAfter(library.entries.size)) index.map = new Map(library.entries);
  return library.entries;
};

/** The library with no tools. */
export const emptyToolLibrary: ToolLibrary = make(HamtMap<string, Tool>());

const HAMT_PROTOTYPE: unknown = Object.getPrototypeOf(emptyToolLibrary.entries);

/**
 * A library of the given tools, each under its own name. Equivalent to registering them one after
 * another: when two tools share a name, the later one is kept (as `registerTool` replaces).
 */
export const toolLibrary = (tools: Iterable<Tool>): ToolLibrary =>
  make(
    HamtMap<string, Tool>().withMutations((m) => {
      for (const t of tools) m.set(t.name, t);
    }),
  );

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
  const next = library.entries.set(name, tool);
  return next === library.entries ? library : make(next);
};

/** The library without the entry `name` (the same library when there is none). */
export const removeTool = (name: string, library: ToolLibrary): ToolLibrary => {
  const next = library.entries.delete(name);
  return next === library.entries ? library : make(next);
};

/**
 * All entries of all the libraries. **The right wins**: when several libraries hold a name, the
 * entry of the last one is kept, as with object spread (`unionLibraries(defaults, overrides)`).
 * Associative, with `emptyToolLibrary` as identity.
 */
export const unionLibraries = (...libraries: ReadonlyArray<ToolLibrary>): ToolLibrary => {
  const nonEmpty = libraries.filter((l) => l.entries.size > 0);
  if (nonEmpty.length === 0) return emptyToolLibrary;
  const [first, ...rest] = nonEmpty as [ToolLibrary, ...ToolLibrary[]];
  if (rest.length === 0) return first;
  let entries = first.entries;
  for (const l of rest) entries = entries.merge(l.entries);
  return make(entries);
};

// -------------------------------------------------------------------------------------------------
// queries
// -------------------------------------------------------------------------------------------------

/** The tool registered under `name`, or `undefined`. O(log₃₂ n). */
export const lookupTool = (name: string, library: ToolLibrary): Tool | undefined => readable(library).get(name);

export const hasTool = (name: string, library: ToolLibrary): boolean => readable(library).has(name);

export const librarySize = (library: ToolLibrary): number => library.entries.size;

/** The names of the entries, sorted. */
export const toolNames = (library: ToolLibrary): ReadonlyArray<string> => [...library.entries.keys()].sort(byCodePoint);

/** The tools, sorted by the name they are registered under. */
export const listTools = (library: ToolLibrary): ReadonlyArray<Tool> => toolNames(library).map((n) => library.entries.get(n) as Tool);

/** `[name, tool]` pairs, sorted by name. */
export const libraryEntries = (library: ToolLibrary): ReadonlyArray<readonly [string, Tool]> =>
  toolNames(library).map((n) => [n, library.entries.get(n) as Tool] as const);

/** Whether two libraries hold the same tool objects under the same names. */
export const librariesEqual = (a: ToolLibrary, b: ToolLibrary): boolean => a === b || a.entries.equals(b.entries);

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

const byCodePoint = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Whether a value is a ToolLibrary, from this copy of gramkit or another one. */
export const isToolLibrary = (v: unknown): v is ToolLibrary =>
  typeof v === 'object' && v !== null && (v as Record<symbol, unknown>)[TOOL_LIBRARY] === true && typeof (v as { entries?: unknown }).entries === 'object';

/**
 * A library from another copy of gramkit (or of immutable.js) rebuilt with this one's structures;
 * a library of this copy is returned as it is. Entries that are not tools are reported.
 */
export const adoptLibrary = (v: ToolLibrary): { readonly library: ToolLibrary; readonly problems: ReadonlyArray<Diagnostic> } => {
  if (Object.getPrototypeOf(v.entries) === HAMT_PROTOTYPE && v.toJSON === toJSON) return { library: v, problems: [] };
  const problems: Diagnostic[] = [];
  const entries = HamtMap<string, Tool>().withMutations((m) => {
    for (const [name, tool] of v.entries as Iterable<[unknown, unknown]>) {
      if (typeof name === 'string' && isTool(tool)) m.set(name, tool);
      else problems.push(error(ToolCodes.LIBRARY_INVALID_ENTRY, `library entry ${JSON.stringify(String(name))} is not a tool`));
    }
  });
  return { library: make(entries), problems };
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
