/**
 * A specification file, loaded once: its text parsed one time, and from that one parse its header
 * (the `library` it names) and its specifications. Every command that runs a file (`run`,
 * `invoke`, `mcp`, `ab`, and `check`) loads it here, and hands the loaded file on.
 *
 * Agents may name built-in tools without defining them: the built-in specifications are loaded only
 * when the file names a tool it does not define, and the file is then linked again against them
 * (not parsed or compiled again). `onParse` hears each parse (`GRAMKIT_TRACE=parse` prints them).
 */
import { dirname, isAbsolute, resolve } from 'node:path';
import { type Checked, type Either, isLeft, left, right } from '../core/either.js';
import type { Diagnostic } from '../core/diagnostic.js';
import type { GramDocument } from '../gram/ast.js';
import { recordToJson } from '../gram/lower.js';
import { analyzeGram } from '../gram/parse.js';
import { SpecCodes } from '../types/codes.js';
import type { CompileCache } from '../specification/compile-cache.js';
import { gramOptionsOf } from '../specification/collect.js';
import { compileParsed, loadSpecificationsWith, type Specifications } from '../specification/load.js';
import type { ToolSpecification } from '../specification/tool-spec.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** The name that stands for the built-in tools, as a specification source and as a library. */
export const BUILTIN = 'builtin';

/** The text of a specification file and where it came from. */
export interface ProjectSource {
  /** As shown in messages: the argument as given, `<stdin>` for standard input, `builtin`. */
  readonly name: string;
  /** Absolute path, absent for standard input and `builtin`. */
  readonly path?: string;
  readonly text: string;
  /** `builtin`: the built-in specifications. */
  readonly builtin: boolean;
  readonly format: 'gram' | 'json';
}

/** What the file's header (its first record) says: the library, or what is wrong with it. */
export interface FileHeader {
  /** The header's `library`: `builtin`, or a module path made absolute against the file's folder. */
  readonly library?: string;
  readonly problem?: string;
}

/** A loaded file: its source, its specifications and its header, from one parse. */
export interface ProjectFile {
  readonly source: ProjectSource;
  readonly specs: Specifications;
  readonly header: FileHeader;
}

export interface FileLoadFailure {
  /** The source, when it could be read (diagnostics then point into its text). */
  readonly source?: ProjectSource;
  /** A message when the source could not be read. */
  readonly message?: string;
  readonly diagnostics: ReadonlyArray<Diagnostic>;
}

/** One parse of a file's text. */
export interface ParseEvent {
  readonly file: string;
  readonly format: 'gram' | 'json';
  readonly bytes: number;
}

export interface LoadFileOptions {
  /** Header libraries of standard input are relative to it. */
  readonly cwd: string;
  readonly strict?: boolean;
  /** More specifications agents may name without defining them (a catalog's), besides the built-in ones. */
  readonly knownTools?: ReadonlyArray<ToolSpecification>;
  /** A memo of compiled tools for a file compiled at each edit (the language server). */
  readonly cache?: CompileCache;
  readonly onParse?: (event: ParseEvent) => void;
}

// -------------------------------------------------------------------------------------------------
// loading
// -------------------------------------------------------------------------------------------------

const builtinSpecifications = async (): Promise<ReadonlyArray<ToolSpecification>> =>
  (await import('../tools/builtin/specifications.js')).builtinSpecifications();

const namesUnknownTool = (r: Either<ReadonlyArray<Diagnostic>, Specifications>): boolean => isLeft(r) && r.left.some((d) => d.code === SpecCodes.UNKNOWN_TOOL);

/** A loaded file, or every diagnostic of why it does not load. */
export const loadProjectFile = async (source: ProjectSource, options: LoadFileOptions): Promise<Either<FileLoadFailure, ProjectFile>> => {
  const { knownTools = [], cache, strict } = options;
  const loadOptions = { filename: source.name, ...(strict !== undefined ? { strict } : {}) };
  options.onParse?.({ file: source.name, format: source.format, bytes: source.text.length });
  if (source.format === 'json') {
    // the JSON form: one JSON.parse per load (again only when it names a built-in tool)
    const sources = [{ text: source.text, filename: source.name, format: 'json' as const }];
    let r = loadSpecificationsWith(sources, { ...loadOptions, knownTools }, cache);
    if (!source.builtin && namesUnknownTool(r)) {
      options.onParse?.({ file: source.name, format: source.format, bytes: source.text.length });
      r = loadSpecificationsWith(sources, { ...loadOptions, knownTools: [...(await builtinSpecifications()), ...knownTools] }, cache);
    }
    return isLeft(r) ? left({ source, diagnostics: r.left }) : right({ source, specs: r.right, header: {} });
  }
  const parsed = analyzeGram(source.text, gramOptionsOf(loadOptions));
  const linked = compileParsed(source.text, parsed, loadOptions, cache);
  let r = linked(knownTools);
  if (!source.builtin && namesUnknownTool(r)) r = linked([...(await builtinSpecifications()), ...knownTools]);
  if (isLeft(r)) return left({ source, diagnostics: r.left });
  return right({ source, specs: r.right, header: source.builtin ? {} : headerOf(parsed, source, options.cwd) });
};

// -------------------------------------------------------------------------------------------------
// the header
// -------------------------------------------------------------------------------------------------

/** The header's `library`, resolved against the file's folder (or `cwd` for standard input). */
const headerOf = (parsed: Checked<GramDocument>, source: ProjectSource, cwd: string): FileHeader => {
  if (isLeft(parsed) || parsed.right.value.header === undefined) return {};
  const value = recordToJson(parsed.right.value.header)['library'];
  if (value === undefined) return {};
  if (typeof value !== 'string' || value.trim() === '')
    return { problem: `the header's library must be a module path as a string, e.g. {library: "./tools.ts"}` };
  if (value === BUILTIN) return { library: BUILTIN };
  const base = source.path !== undefined ? dirname(source.path) : cwd;
  return { library: isAbsolute(value) ? value : resolve(base, value) };
};
