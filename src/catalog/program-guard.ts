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
 * HTTP tools are bounded by `--allow-host`, and may name only secrets bound to hosts (`--secret
 * NAME@host`, sent to those hosts only): a secret bound to none serves the operator's tools alone.
 * Built-ins by their own confinement, functions by the
 * libraries the operator loaded: none of them runs a program a request names. Which check a
 * write takes is its kind's `requestCheck` (src/tools/kinds/).
 */
import { type Either, left, right } from '../core/either.js';
import type { JsonObject } from '../core/json-schema.js';
import { CatalogCodes } from './codes.js';
import { type CatalogError, catalogCodes } from './result.js';
import type { ToolWrite } from './records/tool-json.js';
import type { SecretProvider } from '../core/redact.js';
import type { SecretHosts } from '../tools/http/http-tool.js';
import { toolKind } from '../tools/kinds.js';

/** The server's secrets, as a request's HTTP tool may see them. */
export interface RequestSecrets {
  readonly secrets?: SecretProvider;
  readonly secretHosts?: SecretHosts;
}

/** Every `${NAME}` of a JSON value's strings. */
const placeholdersIn = (v: unknown, out: Set<string>): Set<string> => {
  if (typeof v === 'string') for (const m of v.matchAll(/\$\{\s*([^}\s]+)\s*\}/g)) out.add(m[1] as string);
  else if (Array.isArray(v)) for (const x of v) placeholdersIn(x, out);
  else if (typeof v === 'object' && v !== null) for (const x of Object.values(v)) placeholdersIn(x, out);
  return out;
};

/** An HTTP tool of a request may name only secrets bound to hosts. */
const guardSecrets = <W extends ToolWrite>(write: W, s: RequestSecrets): Either<CatalogError, W> => {
  const c = write.built.content;
  const unbound = [...placeholdersIn(c.impl, new Set())].filter((n) => s.secrets?.(n) !== undefined && s.secretHosts?.(n) === undefined);
  if (unbound.length === 0) return right(write);
  const names = `secret${unbound.length > 1 ? 's' : ''} ${unbound.join(', ')}`;
  return left({
    ...catalogCodes(CatalogCodes.SECRET_REFUSED),
    message: `tool ${c.slug} names the ${names}, bound to no host: only the operator's own tools may use it (bind it with --secret NAME@host, or add the tool with gramkit catalog add)`,
    details: { slug: c.slug, secrets: unbound },
  });
};

/** What tools that run programs a request may register: none, or sandboxed ones. */
export type RequestPrograms = 'refuse' | 'sandboxed';

/** The write as a request may make it, or why it may not. */
export const guardRequestWrite = <W extends ToolWrite>(write: W, programs: RequestPrograms, secrets: RequestSecrets = {}): Either<CatalogError, W> => {
  const c = write.built.content;
  const check = toolKind(c.type).requestCheck;
  if (check === 'secrets') return guardSecrets(write, secrets);
  if (check === 'none') return right(write);
  const sandbox = c.impl['sandbox'];
  if (programs === 'refuse') {
    return left({
      ...catalogCodes(CatalogCodes.PROGRAM_REFUSED),
      message: `tool ${c.slug} runs a program (a command tool): this server does not let requests register programs (start it with --allow-command-tools to allow sandboxed ones, or add the tool with gramkit catalog add)`,
      details: { slug: c.slug, type: c.type },
    });
  }
  if (sandbox === 'none') {
    return left({
      ...catalogCodes(CatalogCodes.PROGRAM_REFUSED),
      message: `tool ${c.slug} asks for sandbox "none" (its program would run on the host): only the operator's own files may declare that (the bootstrap file, gramkit catalog add)`,
      details: { slug: c.slug, sandbox },
    });
  }
  if (sandbox === 'bwrap') return right(write);
  const impl: JsonObject = { ...c.impl, sandbox: 'bwrap' };
  return right({ ...write, built: { ...write.built, content: { ...c, impl } } });
};
