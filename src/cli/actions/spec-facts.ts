/**
 * What a specification file says about how it runs, read without loading what runs it: the library
 * its header names (`{library: "./tools.ts"}`) and which of its tools are the built-in ones. `check`
 * reads these; `run`, `invoke` and `mcp` then load what they name.
 */
import { dirname, isAbsolute, resolve } from 'node:path';
import { recordToJson } from '../../gram/lower.js';
import { parseGram } from '../../gram/parse.js';
import type { ToolSpecification } from '../../spec/tool-spec.js';
import { builtinSpecification, isBuiltinToolName } from '../../tools/builtin/specifications.js';
import type { CommandContext } from '../context.js';
import { BUILTIN, type SpecSource } from './spec-source.js';

/** Text whose first token (past blank space and `//` comments) opens a record: it may have a header. */
export const STARTS_WITH_RECORD = /^\uFEFF?(?:\s|\/\/[^\n]*(?:\n|$))*\{/;

/** The header's `library` property, resolved against the file's folder (or the working directory for stdin). */
export const headerLibraryOf = (ctx: CommandContext, source: SpecSource): { readonly library?: string; readonly problem?: string } => {
  // a header is the document's first record: without one, nothing to parse (a second parse of a large file is not free)
  if (source.format !== 'gram' || source.builtin || !STARTS_WITH_RECORD.test(source.text)) return {};
  const doc = parseGram(source.text);
  if (doc._tag === 'Left' || doc.right.header === undefined) return {};
  const value = recordToJson(doc.right.header)['library'];
  if (value === undefined) return {};
  if (typeof value !== 'string' || value.trim() === '') return { problem: `the header's library must be a module path as a string, e.g. {library: "./tools.ts"}` };
  if (value === BUILTIN) return { library: BUILTIN };
  const base = source.path !== undefined ? dirname(source.path) : ctx.io.cwd;
  return { library: isAbsolute(value) ? value : resolve(base, value) };
};

/**
 * The tools among `tools` that are built-in tools (the built-in specifications, referenced by
 * name), by name. The built-in specifications are parsed (once) only when a tool has a built-in name.
 */
export const builtinToolsOf = async (tools: ReadonlyArray<ToolSpecification>): Promise<ReadonlySet<string>> => {
  if (!tools.some((t) => isBuiltinToolName(t.name))) return new Set();
  return new Set(tools.filter((t) => builtinSpecification(t.name) === t).map((t) => t.name));
};
