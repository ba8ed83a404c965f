/**
 * What a request may register: the rule that keeps a REST client from running programs on the
 * server's host. A write from the operator (the bootstrap file, `gramkit catalog add`, a catalog
 * directory the operator seeded) may hold any tool; a write from a request:
 *
 * - `refuse` (the default of `gramkit serve`): no command tool at all;
 * - `sandboxed` (`gramkit serve --allow-command-tools`): command tools that run in the sandbox or
 *   not at all: `sandbox: "none"` is refused, an unset or `auto` sandbox is stored as `bwrap` (so
 *   a machine without a working sandbox refuses to run it instead of running it on the host).
 *   `network: true` is allowed there: the operator's option says so.
 *
 * HTTP tools are bounded by `--allow-host`, built-ins by their own confinement, functions by the
 * libraries the operator loaded: none of them runs a program a request names.
 */
import { type Either, left, right } from '../core/either.js';
import type { JsonObject } from '../core/json-schema.js';
import { CatalogCodes } from './codes.js';
import type { CatalogError } from './result.js';
import type { ToolWrite } from './tool-json.js';

/** What tools that run programs a request may register: none, or sandboxed ones. */
export type RequestPrograms = 'refuse' | 'sandboxed';

/** The write as a request may make it, or why it may not. */
export const guardRequestWrite = <W extends ToolWrite>(write: W, programs: RequestPrograms): Either<CatalogError, W> => {
  const c = write.built.content;
  if (c.type !== 'command') return right(write);
  const sandbox = c.impl['sandbox'];
  if (programs === 'refuse') {
    return left({
      code: CatalogCodes.PROGRAM_REFUSED,
      message: `tool ${c.slug} runs a program (a command tool): this server does not let requests register programs (start it with --allow-command-tools to allow sandboxed ones, or add the tool with gramkit catalog add)`,
      details: { slug: c.slug, type: c.type },
    });
  }
  if (sandbox === 'none') {
    return left({
      code: CatalogCodes.PROGRAM_REFUSED,
      message: `tool ${c.slug} asks for sandbox "none" (its program would run on the host): only the operator's own files may declare that (the bootstrap file, gramkit catalog add)`,
      details: { slug: c.slug, sandbox },
    });
  }
  if (sandbox === 'bwrap') return right(write);
  const impl: JsonObject = { ...c.impl, sandbox: 'bwrap' };
  return right({ ...write, built: { ...write.built, content: { ...c, impl } } });
};
