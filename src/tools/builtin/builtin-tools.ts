/**
 * The built-in tools as `Tool`s and as a `ToolLibrary`: each implementation joined to its
 * specification from builtins.gram (so binding a built-in specification to the built-in library
 * always succeeds), with its annotations (permissions, safety level, approval) and limits.
 */
import { toolLibrary, type ToolLibrary } from '../../library/tool-library.js';
import { createTool, type Tool } from '../../library/tool.js';
import type { BuiltinFactory } from './builtin.js';
import { deleteFile } from './delete-file.js';
import { jsonParse } from './json-parse.js';
import { listDirectory } from './list-directory.js';
import { moveFile } from './move-file.js';
import { resolveBuiltinOptions, type BuiltinOptions } from './options.js';
import { readFile } from './read-file.js';
import { runCode } from './run-code.js';
import { shell } from './shell.js';
import { builtinSpecification, type BuiltinToolName } from './specifications.js';
import { textSearch } from './text-search.js';
import { webFetch } from './web-fetch.js';
import { webSearch } from './web-search.js';
import { writeFile } from './write-file.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

const FACTORIES: Readonly<Record<BuiltinToolName, BuiltinFactory>> = {
  list_directory: listDirectory,
  read_file: readFile,
  write_file: writeFile,
  delete_file: deleteFile,
  move_file: moveFile,
  run_code: runCode,
  shell,
  web_fetch: webFetch,
  web_search: webSearch,
  json_parse: jsonParse,
  text_search: textSearch,
};

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

/** Every built-in tool, configured by `options` (the workspace first of all). */
export const builtinTools = (options: BuiltinOptions): ReadonlyArray<Tool> => {
  const resolved = resolveBuiltinOptions(options);
  return Object.entries(FACTORIES).map(([name, factory]) => {
    const spec = builtinSpecification(name);
    if (spec === undefined) throw new Error(`gramkit's builtins.gram has no specification for ${name}`);
    const def = factory(resolved);
    return createTool(spec.name, spec.description, spec.schema, def.implementation, {
      outputSchema: spec.outputSchema,
      annotations: def.annotations,
      ...(def.limits !== undefined ? { limits: def.limits } : {}),
    });
  });
};

/** The built-in tools as an immutable tool library (bind specifications to it by name). */
export const builtinLibrary = (options: BuiltinOptions): ToolLibrary => toolLibrary(builtinTools(options));
