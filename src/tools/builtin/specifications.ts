/**
 * The specifications of the built-in tools: builtins.gram, bundled as text (builtins-gram.ts),
 * parsed by the same loader as any specification file, once, on first use.
 */
import { parseSpecifications } from '../../specification/load.js';
import type { ToolSpecification } from '../../specification/tool-spec.js';
import { BUILTINS_GRAM } from './builtins-gram.js';
import { isLeft } from '../../core/either.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** The names of the built-in tools, in the order of builtins.gram. */
export const BUILTIN_TOOL_NAMES = [
  'list_directory',
  'read_file',
  'write_file',
  'delete_file',
  'move_file',
  'run_code',
  'shell',
  'web_fetch',
  'web_search',
  'json_parse',
  'text_search',
] as const;

export type BuiltinToolName = (typeof BUILTIN_TOOL_NAMES)[number];

// -------------------------------------------------------------------------------------------------
// accessors
// -------------------------------------------------------------------------------------------------

let cached: ReadonlyArray<ToolSpecification> | undefined;

/**
 * Every built-in tool's specification (parsed from builtins.gram on the first call, then shared).
 * The text ships with gramkit and a test parses it, so a failure here is a bug in gramkit: it is
 * thrown, with the diagnostics.
 */
export const builtinSpecifications = (): ReadonlyArray<ToolSpecification> => {
  if (cached === undefined) {
    const r = parseSpecifications(BUILTINS_GRAM, { filename: 'builtins.gram' });
    if (isLeft(r)) throw new Error(`gramkit's builtins.gram does not load: ${r.left.map((d) => `${d.code} ${d.message}`).join('; ')}`);
    cached = Object.freeze([...r.right.tools]);
  }
  return cached;
};

/** The specification of one built-in tool, or undefined for another name. */
export const builtinSpecification = (name: string): ToolSpecification | undefined => builtinSpecifications().find((s) => s.name === name);

/** Whether `name` is a built-in tool. */
export const isBuiltinToolName = (name: string): name is BuiltinToolName => (BUILTIN_TOOL_NAMES as ReadonlyArray<string>).includes(name);
