/**
 * The project layer's codes (`PROJECT_`): a file that does not give a command what it runs (the
 * agent to run, an implementation for each tool), and a library module that cannot be loaded
 * (`loadLibrary`: `--library`, a header's `library`, a program's own call).
 */
import { type CodeOf, defineCodes } from '../core/codes.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export const ProjectCodes = defineCodes('project', 'PROJECT', {
  NO_AGENT: {
    canonical: 'NOT_FOUND',
    summary: 'the file given to run an agent (`gramkit run`, `gramkit ab`) defines no agent',
    hint: 'an agent is [name:Agent {description: "..", instruction: ".."} | tool, ...]',
  },
  UNKNOWN_AGENT: { canonical: 'NOT_FOUND', summary: '`--agent` names no agent of the file', hint: 'name one of the agents the message lists' },
  AMBIGUOUS_AGENT: {
    canonical: 'INVALID_ARGUMENTS',
    summary: 'the file defines several agents and no `--agent` chooses one',
    hint: 'choose one with --agent NAME',
  },
  NO_TOOLS: {
    canonical: 'NOT_FOUND',
    summary: 'the file given to serve its tools (`gramkit mcp`) defines no tool',
    hint: 'a tool is [name:Tool {description: ".."} | (param::Type)==>(::Type)]',
  },
  UNIMPLEMENTED_TOOLS: {
    canonical: 'INVALID_CONFIGURATION',
    summary: 'no library implements some tools of the file: no `--library`, no header library, no catalog, and no declaration (`http`, `command`)',
    hint: 'pass --library <module.ts> or --catalog <dir|redis://…>, or name it in the file\'s header: {library: "./tools.ts"}',
  },
  LIBRARY_NOT_FOUND: {
    canonical: 'NOT_FOUND',
    summary: "a library (`--library`, a header's `library`, `loadLibrary`) that is neither a file nor a known library name",
    hint: 'give the path of a .ts/.js module, or one of the named libraries',
  },
  LIBRARY_UNSUPPORTED_FILE: {
    canonical: 'INVALID_ARGUMENTS',
    summary: 'a library file that is not a module (.ts, .mts, .cts, .tsx, .js, .mjs, .cjs)',
    hint: 'give a TypeScript or JavaScript module',
  },
  LIBRARY_LOAD_FAILED: {
    canonical: 'INVALID_CONFIGURATION',
    summary: 'a library module that throws (or fails to compile) when loaded',
    hint: 'run the module on its own to see the error',
  },
  LIBRARY_EMPTY: {
    canonical: 'INVALID_CONFIGURATION',
    summary: 'a library module that exports no tool',
    hint: 'export default toolLibrary([...tools]), or export each tool made with createTool/defineTool',
  },
  LIBRARY_DUPLICATE_TOOL: {
    canonical: 'INVALID_CONFIGURATION',
    summary: 'a library module that exports two tools of one name',
    hint: 'export each tool once, or give them different names',
  },
  LIBRARY_NEEDS_TSX: {
    canonical: 'FAILED_PRECONDITION',
    summary:
      'a library written in TypeScript that cannot be imported here: the CLI without tsx (an optional peer dependency), ' +
      'or a program calling `loadLibrary` without `importTs` under a node that does not import .ts',
    hint: 'the CLI: npm install --save-dev tsx; a program: run it under tsx, or pass importTs; or give the compiled .js module',
  },
});

export type ProjectCode = CodeOf<typeof ProjectCodes>;
