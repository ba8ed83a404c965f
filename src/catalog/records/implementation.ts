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
import { type Either, isLeft, isRight, left, right } from '../../core/either.js';
import { formatDiagnostics } from '../../core/format-diagnostic.js';
import { bindTool, type BoundTool, formatBindError } from '../../library/bind.js';
import { createTool, type Tool, type ToolLimits } from '../../library/tool.js';
import { registerTool, emptyToolLibrary, type ToolLibrary } from '../../library/tool-library.js';
import { type KindContext, toolKind } from '../../tools/kinds.js';
import { type CatalogCode, CatalogCodes } from '../codes.js';
import { contentSpecification } from './content.js';
import type { ToolRecord } from './records.js';
import { type CatalogError, catalogCodes } from '../result.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** What the implementations of records resolve against: fixed when the catalog opens (the built-ins and the functions always given). */
export interface Implementations extends KindContext {
  /** The built-in tools, by name. */
  readonly builtins: ReadonlyMap<string, Tool>;
  /** The tools of the libraries loaded at start (`--library`): what `function` tools name. */
  readonly functions: ToolLibrary;
}

export interface Availability {
  readonly available: boolean;
  readonly reason?: string;
  /** Why not, as the code an invoke would fail with (`CATALOG_TOOL_UNAVAILABLE`, `CATALOG_HOST_NOT_ALLOWED`). */
  readonly code?: CatalogCode;
}

// -------------------------------------------------------------------------------------------------
// availability
// -------------------------------------------------------------------------------------------------

/**
 * Whether a record can run here, and why not: a built-in or function that is missing (its kind
 * tells from the block); an HTTP or command tool whose configuration cannot be built against this
 * server (a host outside its `--allow-host`, a placeholder that names neither a parameter nor a
 * known secret, …), which is built to tell (no request, no program): the catalog keeps the answer
 * per record, so it is decided once per write and per start (the server's configuration is fixed
 * then).
 */
export const availability = (r: ToolRecord, impls: Implementations): Availability => {
  const missing = toolKind(r.type).missing;
  if (missing !== undefined) {
    const reason = missing(r.impl, impls);
    return reason === undefined ? { available: true } : { available: false, code: CatalogCodes.TOOL_UNAVAILABLE, reason };
  }
  const built = materialize(r, impls);
  if (isRight(built)) return { available: true };
  const reason = built.left.details?.['reason'];
  return { available: false, code: built.left.reason, reason: typeof reason === 'string' ? reason : built.left.message };
};

// -------------------------------------------------------------------------------------------------
// building
// -------------------------------------------------------------------------------------------------

const unavailable = (r: ToolRecord, reason: string): Either<CatalogError, never> =>
  left({
    ...catalogCodes(CatalogCodes.TOOL_UNAVAILABLE),
    message: `tool ${r.slug} ${r.version} (${r.toolID}) cannot be invoked: ${reason}`,
    details: { toolID: r.toolID, reason },
  });

/** The record bound to its implementation, ready for `invoke`; or why it cannot be. */
export const materialize = (r: ToolRecord, impls: Implementations): Either<CatalogError, BoundTool> => {
  const spec = contentSpecification(r);
  if (isLeft(spec)) return unavailable(r, `its stored signature does not compile: ${formatDiagnostics(spec.left)}`);
  // the record's schemas (what the signature compiles to) are the tool's
  const built = toolKind(r.type).build({ ...spec.right, schema: r.argSchema, outputSchema: r.outputSchema }, r.impl, impls);
  if (isLeft(built)) {
    const reason = built.left.diagnostics.map((d) => d.message).join('; ');
    if (built.left.cause !== 'host') return unavailable(r, reason);
    return left({
      ...catalogCodes(CatalogCodes.HOST_NOT_ALLOWED),
      message: `tool ${r.slug} ${r.version} cannot be invoked: ${reason}`,
      details: { toolID: r.toolID, reason },
    });
  }
  const withAnnotations = annotate(r, built.right);
  const bound = bindTool(spec.right, registerTool(r.slug, withAnnotations, emptyToolLibrary));
  return isLeft(bound) ? unavailable(r, bound.left.map(formatBindError).join('; ')) : right(bound.right);
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
