/**
 * The loaders of a library (src/project/library.ts's `LibraryLoaders`) as the CLI makes them, for
 * any program: `resolveLibrary(request, defaultLoaders({ cwd }))`.
 *
 * - a module: `builtin` (the built-in tools, confined to the workspace), a library named in
 *   `named` (the CLI adds its MCP servers), else a `.ts`/`.js` module file relative to `cwd`
 *   (`loadLibrary`, with `importTs` for TypeScript);
 * - the tools a file declares (`http: {...}`, `command: {...}`): secrets and the command tools'
 *   variables come from `env`, command tools run in the workspace;
 * - the built-in tools a file names: confined to the workspace, with the `web_search` backend
 *   `env` configures (`GRAMKIT_WEB_SEARCH`, docs/builtins.md).
 *
 * `env` is empty unless given: a program passes `process.env` to let the tools read it, as the CLI does.
 */
import { isAbsolute, resolve } from 'node:path';
import { right } from '../core/either.js';
import { emptyToolLibrary } from '../library/tool-library.js';
import { declaredLibrary } from './declared-library.js';
import type { LibraryLoaders } from './library.js';
import { type ImportTs, loadLibrary, type NamedLibrary } from './load-library.js';
import { builtinsOf, namedLibraries, type ProjectEnv } from './named-libraries.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface DefaultLoadersOptions {
  /** Module paths are relative to it. */
  readonly cwd: string;
  /** The directory the built-in tools and command tools are confined to (relative to `cwd`; default `cwd`). */
  readonly workspace?: string;
  /** How a TypeScript module is imported (`loadLibrary`'s; without it, as node would). */
  readonly importTs?: ImportTs;
  /** What the tools may read: secrets, command tools' variables, the `web_search` backend (default: nothing). */
  readonly env?: ProjectEnv;
  /** More libraries known by name, besides `builtin` (which they replace on a shared name). */
  readonly named?: Readonly<Record<string, NamedLibrary>>;
}

// -------------------------------------------------------------------------------------------------
// the loaders
// -------------------------------------------------------------------------------------------------

/** How the parts of a library are made (see the module comment). */
export const defaultLoaders = (options: DefaultLoadersOptions): LibraryLoaders => {
  const { cwd } = options;
  const env = options.env ?? {};
  const workspace = options.workspace === undefined ? cwd : isAbsolute(options.workspace) ? options.workspace : resolve(cwd, options.workspace);
  const named = { ...namedLibraries(workspace, env), ...options.named };
  return {
    module: (ref) => loadLibrary(ref, { cwd, named, ...(options.importTs !== undefined ? { importTs: options.importTs } : {}) }),
    declared: (tools) => declaredLibrary(tools, workspace, env) ?? right(emptyToolLibrary),
    builtin: () => builtinsOf(workspace, env),
  };
};
