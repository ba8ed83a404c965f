/**
 * The project layer's codes (`PROJECT_`): a file that does not give a command what it runs (the
 * agent to run, an implementation for each tool).
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
});

export type ProjectCode = CodeOf<typeof ProjectCodes>;
