/**
 * The libraries known by name rather than by file (`builtin`), and the `web_search` backend an
 * environment configures, for `defaultLoaders` (default-loaders.ts) and the CLI's `gramkit invoke
 * builtin` (whose specifications are the named library's own). The built-in tools are loaded only
 * when used.
 */
import { stat } from 'node:fs/promises';
import { isLeft } from '../core/either.js';
import { type CodedError, failWith, ok, type Result } from '../core/result.js';
import type { ToolLibrary } from '../library/tool-library.js';
import type { WebSearchBackend } from '../tools/builtin/web-search-backend.js';
import { webSearchFromEnv } from '../tools/builtin/web-search-env.js';
import type { NamedLibrary } from './load-library.js';
import { BUILTIN } from './project-file.js';

/** The environment a project's tools may read (the CLI passes its own). */
export type ProjectEnv = Readonly<Record<string, string | undefined>>;

/**
 * The `web_search` backend `env` configures (`GRAMKIT_WEB_SEARCH`, web-search-env.ts): none when
 * unset; what is wrong with it as the error's message.
 */
export const webSearchOf = (env: ProjectEnv): Result<WebSearchBackend | undefined, CodedError> => {
  const w = webSearchFromEnv(env);
  return isLeft(w) ? failWith(w.left.code, `${w.left.message}${w.left.hint !== undefined ? ` (${w.left.hint})` : ''}`) : ok(w.right);
};

/** The built-in tools, confined to `workspace`, with `env`'s `web_search` backend; or what is wrong with that backend. */
export const builtinsOf = async (workspace: string, env: ProjectEnv): Promise<Result<ToolLibrary, CodedError>> => {
  const webSearch = webSearchOf(env);
  if (!webSearch.ok) return webSearch;
  const { builtinLibrary } = await import('../tools/builtin/builtin-tools.js');
  return ok(builtinLibrary({ workspace, ...(webSearch.value !== undefined ? { webSearch: webSearch.value } : {}) }));
};

/** The libraries known by name: `builtin`, confined to `workspace` (which must be a directory), with `env`'s `web_search` backend. */
export const namedLibraries = (workspace: string, env: ProjectEnv = {}): Readonly<Record<string, NamedLibrary>> => ({
  [BUILTIN]: {
    library: async () => {
      const s = await stat(workspace).catch(() => undefined);
      if (s === undefined || !s.isDirectory())
        throw new Error(`the workspace ${workspace} ${s === undefined ? 'does not exist' : 'is not a directory'} (set it with --workspace <dir>)`);
      const builtins = await builtinsOf(workspace, env);
      if (!builtins.ok) throw new Error(builtins.error.message);
      return builtins.value;
    },
    specifications: async () => (await import('../tools/builtin/specifications.js')).builtinSpecifications(),
  },
});
