/**
 * From a stored record to something `invoke` can run: the record's specification (slug,
 * description, signature) bound to the tool its implementation declares, through the library's
 * `bindTool`, so invocation is the library's pipeline (arguments validated with every issue,
 * defaults applied, timeout, result validated).
 *
 * - `http`: an HTTP tool (src/tools/http); its hosts must all be in the server's `--allow-host`
 *   list when the server has one, besides its own list;
 * - `command`: a command tool (src/tools/command), confined to the workspace;
 * - `builtin`: the built-in tool of that name, under the record's name (its own schema also
 *   checked, since the record's may be looser, as the default nucleus's are);
 * - `function`: the tool of that name in the libraries the server loaded (`--library`); the
 *   record's schemas must be the function's.
 *
 * A missing built-in or function makes the tool unavailable (`CATALOG_TOOL_UNAVAILABLE`), with
 * the reason; the record is never changed because of it.
 */
import type { RuleEngine } from '../policy/rules.js';
import { type Either, isRight, left, right } from '../core/either.js';
import { formatDiagnostics } from '../core/format-diagnostic.js';
import type { SecretProvider } from '../core/redact.js';
import { bindTool, type BoundTool, formatBindError } from '../library/bind.js';
import { ToolCodes } from '../library/codes.js';
import { ToolFailure } from '../library/result.js';
import { createTool, type Tool, type ToolLimits } from '../library/tool.js';
import { lookupTool, registerTool, emptyToolLibrary, type ToolLibrary } from '../library/tool-library.js';
import type { HttpDispatcher } from '../net/dispatcher.js';
import { type HostAllowlist, type HostPattern, isPrivateAddress, parseAllowedHosts } from '../net/host-allowlist.js';
import { compileSchema, formatIssues } from '../spec/validate.js';
import { commandTool } from '../tools/command/command-tool.js';
import type { CommandToolConfigInput } from '../tools/command/command-config.js';
import { decodeHttpToolConfig, type HttpToolConfigInput } from '../tools/http/http-config.js';
import { httpTool, type SecretHosts } from '../tools/http/http-tool.js';
import { isIP } from 'node:net';
import { type CatalogCode, CatalogCodes } from './codes.js';
import { contentSpecification } from './content.js';
import type { ToolRecord } from './records.js';
import { type CatalogError, catalogCodes } from './result.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** What the implementations of records resolve against: fixed when the catalog opens. */
export interface Implementations {
  /** The directory built-in and command tools are confined to. */
  readonly workspace: string;
  /** The built-in tools, by name. */
  readonly builtins: ReadonlyMap<string, Tool>;
  /** The tools of the libraries loaded at start (`--library`): what `function` tools name. */
  readonly functions: ToolLibrary;
  /** Secrets of `${NAME}` placeholders in HTTP tools. */
  readonly secrets?: SecretProvider;
  /** The hosts each secret is for (`--secret NAME@host`); a secret bound to none only serves the operator's tools. */
  readonly secretHosts?: SecretHosts;
  /** An undici dispatcher for HTTP tools (tests: a mock). */
  readonly dispatcher?: HttpDispatcher;
  /** The environment command tools pass listed variables from. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The hosts HTTP tools may reach (the server's `--allow-host`); absent: each tool's own list only. */
  readonly allowHosts?: ReadonlyArray<string>;
  /** The safety rules command tools judge their argv by (default: the default rules, as `shell`). */
  readonly rules?: RuleEngine;
}

export interface Availability {
  readonly available: boolean;
  readonly reason?: string;
  /** Why not, as the code an invoke would fail with (`CATALOG_TOOL_UNAVAILABLE`, `CATALOG_HOST_NOT_ALLOWED`). */
  readonly code?: CatalogCode;
}

// -------------------------------------------------------------------------------------------------
// hosts
// -------------------------------------------------------------------------------------------------

const portCovered = (inner: number | undefined, outer: number | undefined): boolean => outer === undefined || inner === outer;

/** Whether every host `p` allows is allowed by `s`. */
const covers = (s: HostPattern, p: HostPattern): boolean => {
  switch (s.kind) {
    case 'any':
      return p.kind === 'subdomain' || (p.kind === 'exact' && (isIP(p.host.replace(/^\[|\]$/g, '')) === 0 || !isPrivateAddress(p.host.replace(/^\[|\]$/g, ''))));
    case 'exact':
      return p.kind === 'exact' && p.host === s.host && portCovered(p.port, s.port);
    case 'subdomain':
      return (
        (p.kind === 'exact' && p.host.endsWith(`.${s.suffix}`) && portCovered(p.port, s.port)) ||
        (p.kind === 'subdomain' && (p.suffix === s.suffix || p.suffix.endsWith(`.${s.suffix}`)) && portCovered(p.port, s.port))
      );
  }
};

/** The entries of a tool's host list that the server's list does not allow. */
export const hostsOutside = (tool: HostAllowlist, server: HostAllowlist): ReadonlyArray<string> =>
  tool.patterns.flatMap((p, i) => (server.patterns.some((s) => covers(s, p)) ? [] : [tool.entries[i] ?? '?']));

const httpHostProblem = (r: ToolRecord, impls: Implementations): string | undefined => {
  if (impls.allowHosts === undefined) return undefined;
  const config = decodeHttpToolConfig(r.impl);
  if (config._tag === 'Left') return `its HTTP configuration is invalid: ${config.left.map((d) => d.message).join('; ')}`;
  const own = parseAllowedHosts(config.right.allowedHosts);
  const server = parseAllowedHosts(impls.allowHosts);
  if (own._tag === 'Left' || server._tag === 'Left') return 'a host list is invalid';
  const outside = hostsOutside(own.right, server.right);
  if (outside.length === 0) return undefined;
  return `it may reach ${outside.join(', ')}, which the server does not allow (--allow-host ${impls.allowHosts.length > 0 ? impls.allowHosts.join(', ') : 'is empty'})`;
};

// -------------------------------------------------------------------------------------------------
// availability
// -------------------------------------------------------------------------------------------------

/**
 * Whether a record can run here, and why not: a built-in or function that is missing; an HTTP or
 * command tool whose configuration cannot be built against this server (a host outside its
 * `--allow-host`, a placeholder that names neither a parameter nor a known secret, …). HTTP and
 * command tools are built to tell (no request, no program): the catalog keeps the answer per
 * record, so it is decided once per write and per start (the server's configuration is fixed then).
 */
export const availability = (r: ToolRecord, impls: Implementations): Availability => {
  switch (r.type) {
    case 'builtin': {
      const name = r.impl['builtin'];
      if (typeof name === 'string' && impls.builtins.has(name)) return { available: true };
      return { available: false, code: CatalogCodes.TOOL_UNAVAILABLE, reason: `the built-in tool ${JSON.stringify(name)} does not exist in this version of gramkit` };
    }
    case 'function': {
      const name = r.impl['function'];
      if (typeof name === 'string' && lookupTool(name, impls.functions) !== undefined) return { available: true };
      const reason = `no library loaded implements the function ${JSON.stringify(name)} (give the module that exports it with --library <module>: serve, run --catalog, catalog ls)`;
      return { available: false, code: CatalogCodes.TOOL_UNAVAILABLE, reason };
    }
    default: {
      const built = materialize(r, impls);
      if (isRight(built)) return { available: true };
      const reason = built.left.details?.['reason'];
      return { available: false, code: built.left.reason, reason: typeof reason === 'string' ? reason : built.left.message };
    }
  }
};

// -------------------------------------------------------------------------------------------------
// building
// -------------------------------------------------------------------------------------------------

const unavailable = (r: ToolRecord, reason: string): Either<CatalogError, never> =>
  left({ ...catalogCodes(CatalogCodes.TOOL_UNAVAILABLE), message: `tool ${r.slug} ${r.version} (${r.toolID}) cannot be invoked: ${reason}`, details: { toolID: r.toolID, reason } });

/** The tool under the record's name and description, running `impl` (its own schema checked first when it differs). */
const renamed = (r: ToolRecord, impl: Tool): Tool => {
  const own = compileSchema(impl.schema);
  const run =
    own._tag === 'Right' && JSON.stringify(impl.schema) !== JSON.stringify(r.argSchema)
      ? (args: unknown, ctx: Parameters<Tool['invoke']>[1]) => {
          const withDefaults = own.right.applyDefaults(args);
          if (!own.right.check(withDefaults)) throw new ToolFailure(ToolCodes.INVALID_ARGUMENTS, `invalid arguments for the ${impl.name} implementation: ${formatIssues(own.right.issues(withDefaults))}`);
          return impl.invoke(withDefaults, ctx);
        }
      : impl.invoke;
  return createTool(r.slug, r.description, r.argSchema, run, {
    outputSchema: r.outputSchema,
    ...(impl.limits !== undefined ? { limits: impl.limits } : {}),
    ...(impl.annotations !== undefined ? { annotations: impl.annotations } : {}),
  });
};

/** The record bound to its implementation, ready for `invoke`; or why it cannot be. */
export const materialize = (r: ToolRecord, impls: Implementations): Either<CatalogError, BoundTool> => {
  const spec = contentSpecification(r);
  if (spec._tag === 'Left') return unavailable(r, `its stored signature does not compile: ${formatDiagnostics(spec.left)}`);
  let tool: Either<string, Tool>;
  switch (r.type) {
    case 'http': {
      const hosts = httpHostProblem(r, impls);
      if (hosts !== undefined) {
        return left({ ...catalogCodes(CatalogCodes.HOST_NOT_ALLOWED), message: `tool ${r.slug} ${r.version} cannot be invoked: ${hosts}`, details: { toolID: r.toolID, reason: hosts } });
      }
      const t = httpTool(spec.right, r.impl as unknown as HttpToolConfigInput, {
        ...(impls.secrets !== undefined ? { secrets: impls.secrets } : {}),
        ...(impls.secretHosts !== undefined ? { secretHosts: impls.secretHosts } : {}),
        ...(impls.dispatcher !== undefined ? { dispatcher: impls.dispatcher } : {}),
      });
      tool = t._tag === 'Left' ? left(t.left.map((d) => d.message).join('; ')) : right(t.right);
      break;
    }
    case 'command': {
      const t = commandTool(spec.right, r.impl as unknown as CommandToolConfigInput, {
        workspace: impls.workspace,
        ...(impls.env !== undefined ? { env: impls.env } : {}),
        ...(impls.rules !== undefined ? { rules: impls.rules } : {}),
      });
      tool = t._tag === 'Left' ? left(t.left.map((d) => d.message).join('; ')) : right(t.right);
      break;
    }
    case 'builtin':
    case 'function': {
      const a = availability(r, impls);
      if (!a.available) return unavailable(r, a.reason ?? 'its implementation is missing');
      const name = r.impl[r.type] as string;
      const impl = r.type === 'builtin' ? (impls.builtins.get(name) as Tool) : (lookupTool(name, impls.functions) as Tool);
      if (r.type === 'function') {
        // the function must implement exactly this specification (what the model reads)
        const check = bindTool({ ...spec.right, description: impl.description, name: impl.name }, registerTool(impl.name, impl, emptyToolLibrary));
        if (check._tag === 'Left') return unavailable(r, `the function ${name} does not match the record: ${check.left.map(formatBindError).join('; ')}`);
      }
      tool = right(renamed(r, impl));
      break;
    }
  }
  if (tool._tag === 'Left') return unavailable(r, tool.left);
  const withAnnotations = annotate(r, tool.right);
  const bound = bindTool(spec.right, registerTool(r.slug, withAnnotations, emptyToolLibrary));
  return bound._tag === 'Left' ? unavailable(r, bound.left.map(formatBindError).join('; ')) : right(bound.right);
};

const LEVEL = { low: 0, medium: 1, high: 2 } as const;

/** Each limit of the record or the implementation, the smaller where both have it. */
const stricter = (own: ToolLimits | undefined, record: ToolLimits | undefined): ToolLimits | undefined => {
  if (record === undefined) return own;
  const out: Record<string, number> = { ...own };
  for (const [k, n] of Object.entries(record)) if (typeof n === 'number') out[k] = Math.min(n, out[k] ?? n);
  return out;
};

/** The tool with the record's permissions, safety level and limits added to its own (the stricter wins). */
const annotate = (r: ToolRecord, t: Tool): Tool => {
  const own = t.annotations;
  const permissions = [...new Set([...(own?.permissions ?? []), ...r.permissions])];
  const level = own?.safetyLevel !== undefined && LEVEL[own.safetyLevel] > LEVEL[r.safetyLevel] ? own.safetyLevel : r.safetyLevel;
  const limits = stricter(t.limits, r.limits);
  return createTool(t.name, t.description, t.schema, t.invoke, {
    ...(t.outputSchema !== undefined ? { outputSchema: t.outputSchema } : {}),
    ...(limits !== undefined ? { limits } : {}),
    annotations: { ...own, permissions, safetyLevel: level },
  });
};
