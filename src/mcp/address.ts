/**
 * Where an MCP server is, written where a specification file or a library could be:
 *
 * - `mcp:<url>`: a Streamable HTTP endpoint, e.g. `mcp:http://127.0.0.1:3000/mcp`;
 * - `mcp+stdio:<command line>`: a program started with its stdin and stdout as the connection,
 *   e.g. `mcp+stdio:node dist/cli.js mcp builtin`. The line is split into words as a shell would
 *   (quotes, backslashes) but no shell runs it: one command, no pipes, no redirections; leading
 *   `NAME=value` words set environment variables of the program.
 *
 * Either may end with `#grant=fs:read,net:read,level=low`: the permissions and the safety level the
 * user grants the server's tools (a URL's fragment is never sent). A remote tool's permissions and
 * safety level are what the user grants, never what the server claims; without a grant they are
 * `*` (it may do anything), which a run restricted by `ALLOWED_TOOL_PERMS` refuses, and `high`.
 */
import { type Either, isRight, left, right } from '../core/either.js';
import { type Diagnostic, error } from '../core/diagnostic.js';
import { parseShell } from '../policy/shell-words.js';
import { McpCodes } from './codes.js';
import { parsePermissionList, parseSafetyLevel } from '../policy/permissions.js';
import type { SafetyLevel } from '../library/tool.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export type McpAddress = (
  | { readonly kind: 'http'; readonly url: string; readonly text: string }
  | {
      readonly kind: 'stdio';
      readonly command: string;
      readonly args: ReadonlyArray<string>;
      /** Variables set by `NAME=value` words before the command. */
      readonly env: Readonly<Record<string, string>>;
      readonly text: string;
    }
) & {
  /** The permissions the user grants the server's tools (`#grant=…`), when the address gives them. */
  readonly grant?: ReadonlyArray<string>;
  /** The safety level the user grants the server's tools (`level=…` in the grant). */
  readonly level?: SafetyLevel;
};

const GRANT = '#grant=';

const LEVEL = 'level=';

/** The address without its `#grant=…` suffix, and the grant: permissions, and a `level=…` item. */
const splitGrant = (
  text: string,
): { readonly rest: string; readonly grant?: ReadonlyArray<string>; readonly level?: SafetyLevel; readonly badLevel?: string } => {
  const at = text.lastIndexOf(GRANT);
  if (at < 0) return { rest: text };
  const items = parsePermissionList(text.slice(at + GRANT.length));
  const levels = items.filter((i) => i.startsWith(LEVEL)).map((i) => i.slice(LEVEL.length));
  const level = levels.length === 1 ? parseSafetyLevel(levels[0] as string) : undefined;
  return {
    rest: text.slice(0, at).trimEnd(),
    grant: items.filter((i) => !i.startsWith(LEVEL)),
    ...(level !== undefined ? { level } : {}),
    ...(levels.length > 0 && level === undefined ? { badLevel: levels.join(',') } : {}),
  };
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
  const { rest: written, grant, level, badLevel } = splitGrant(text);
  if (badLevel !== undefined)
    return invalid(
      text,
      `the granted level ${JSON.stringify(badLevel)} is not one safety level`,
      'write level=low, level=medium or level=high once in #grant=…',
    );
  const parsed = parseAddress(written, text);
  return isRight(parsed) && grant !== undefined ? right({ ...parsed.right, grant, ...(level !== undefined ? { level } : {}) }) : parsed;
};

const parseAddress = (written: string, text: string): Either<Diagnostic, McpAddress> => {
  if (written.startsWith(STDIO)) {
    const line = written.slice(STDIO.length).trim();
    if (line === '') return invalid(text, 'no command after mcp+stdio:', 'e.g. mcp+stdio:node dist/cli.js mcp builtin');
    const parsed = parseShell(line).commands;
    const first = parsed[0];
    if (parsed.length !== 1 || first === undefined || first.redirects.length > 0) {
      return invalid(
        text,
        'the command line must be one command, without pipes, redirections, substitutions or ;',
        'no shell runs it: write the program and its arguments',
      );
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
  if (written.startsWith(HTTP)) {
    const rest = written.slice(HTTP.length).trim();
    let url: URL;
    try {
      url = new URL(rest);
    } catch {
      return invalid(text, `${JSON.stringify(rest)} is not a URL`, HINT);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      return invalid(text, `the URL must be http or https, not ${url.protocol.replace(/:$/, '')}`, HINT);
    return right({ kind: 'http', url: url.href, text });
  }
  return invalid(text, 'it does not start with mcp: or mcp+stdio:', HINT);
};
