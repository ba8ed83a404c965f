/**
 * Where an MCP server is, written where a specification file or a library could be:
 *
 * - `mcp:<url>`: a Streamable HTTP endpoint, e.g. `mcp:http://127.0.0.1:3000/mcp`;
 * - `mcp+stdio:<command line>`: a program started with its stdin and stdout as the connection,
 *   e.g. `mcp+stdio:node dist/cli.js mcp builtin`. The line is split into words as a shell would
 *   (quotes, backslashes) but no shell runs it: one command, no pipes, no redirections; leading
 *   `NAME=value` words set environment variables of the program.
 */
import { type Either, left, right } from '../core/either.js';
import { type Diagnostic, error } from '../core/diagnostic.js';
import { parseShell } from '../policy/shell-words.js';
import { McpCodes } from './codes.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export type McpAddress =
  | { readonly kind: 'http'; readonly url: string; readonly text: string }
  | {
      readonly kind: 'stdio';
      readonly command: string;
      readonly args: ReadonlyArray<string>;
      /** Variables set by `NAME=value` words before the command. */
      readonly env: Readonly<Record<string, string>>;
      readonly text: string;
    };

const HTTP = 'mcp:';
const STDIO = 'mcp+stdio:';

// -------------------------------------------------------------------------------------------------
// parsing
// -------------------------------------------------------------------------------------------------

/** Whether a command-line argument names an MCP server rather than a file. */
export const isMcpAddress = (text: string): boolean => text.startsWith(HTTP) || text.startsWith(STDIO);

const invalid = (text: string, message: string, hint: string): Either<Diagnostic, never> =>
  left(error(McpCodes.INVALID_ADDRESS, `${JSON.stringify(text)} is not an MCP address: ${message}`, { hint }));

const HINT = 'write mcp:<http(s) URL> (Streamable HTTP) or mcp+stdio:<command line> (a program speaking MCP on stdio)';

export const parseMcpAddress = (text: string): Either<Diagnostic, McpAddress> => {
  if (text.startsWith(STDIO)) {
    const line = text.slice(STDIO.length).trim();
    if (line === '') return invalid(text, 'no command after mcp+stdio:', 'e.g. mcp+stdio:node dist/cli.js mcp builtin');
    const parsed = parseShell(line).commands;
    const first = parsed[0];
    if (parsed.length !== 1 || first === undefined || first.redirects.length > 0) {
      return invalid(text, 'the command line must be one command, without pipes, redirections, substitutions or ;', 'no shell runs it: write the program and its arguments');
    }
    const [command, ...args] = first.words;
    if (command === undefined) return invalid(text, 'no program to run', 'e.g. mcp+stdio:node dist/cli.js mcp builtin');
    const env: Record<string, string> = {};
    for (const a of first.assignments) {
      const eq = a.indexOf('=');
      env[a.slice(0, eq)] = a.slice(eq + 1);
    }
    return right({ kind: 'stdio', command, args, env, text });
  }
  if (text.startsWith(HTTP)) {
    const rest = text.slice(HTTP.length).trim();
    let url: URL;
    try {
      url = new URL(rest);
    } catch {
      return invalid(text, `${JSON.stringify(rest)} is not a URL`, HINT);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return invalid(text, `the URL must be http or https, not ${url.protocol.replace(/:$/, '')}`, HINT);
    return right({ kind: 'http', url: url.href, text });
  }
  return invalid(text, 'it does not start with mcp: or mcp+stdio:', HINT);
};
