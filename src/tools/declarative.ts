/**
 * Declarative tools from specifications: a tool pattern whose record holds `http: {...}` or
 * `command: {...}` (kept by the spec layer in `ToolSpecification.metadata`) is implemented by an
 * HTTP tool or a command tool, with nothing else to write:
 *
 * ```gram
 * [weather:Tool {description: "Current weather of a city",
 *   http: {urlTemplate: "https://api.example.com/current?q=${city}&key=${WEATHER_KEY}",
 *          extractExpr: "$.current.condition.text"}} |
 *   (city::Text)==>(::String)
 * ]
 * ```
 *
 * Each kind is looked up in the registry of kinds (kinds.ts). `declarativeLibrary` turns every such specification of a file into one `ToolLibrary`, reporting
 * every problem of every tool at once; specifications without `http` or `command` are left for
 * other libraries to implement.
 */
import type { RuleEngine } from '../policy/rules.js';
import { ImplCodes } from './codes.js';
import { declaredKinds } from './declared-kind.js';
import { isLeft, left, right, type Either } from '../core/either.js';
import type { HttpDispatcher } from '../net/dispatcher.js';
import { error, type Diagnostic } from '../core/diagnostic.js';
import type { Tool } from '../library/tool.js';
import { toolLibrary, type ToolLibrary } from '../library/tool-library.js';
import { type KnownTools, type Specifications } from '../specification/load.js';
import { loadSpecificationFiles } from '../specification/load-files.js';
import type { ToolSpecification } from '../specification/tool-spec.js';
import type { JsonValue } from '../core/json-schema.js';
import { toolKind } from './kinds.js';
import type { SecretProvider } from '../core/redact.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface DeclarativeToolOptions {
  /** Secrets for `${NAME}` placeholders of HTTP tools. */
  readonly secrets?: SecretProvider;
  /** An undici dispatcher for HTTP tools. */
  readonly dispatcher?: HttpDispatcher;
  /** The workspace command tools are confined to (required when a command tool is declared). */
  readonly workspace?: string;
  /** The environment command tools pass listed variables from. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Jitter source for HTTP retries. */
  readonly random?: () => number;
  /** The safety rules command tools judge their argv by (default: the default rules, as `shell`). */
  readonly rules?: RuleEngine;
}

export type { ImplementationKind } from './declared-kind.js';
export { declaredKind } from './declared-kind.js';

/** What `loadDeclarativeLibrary` gives: the library, and every specification the files hold. */
export interface DeclarativeLoad {
  readonly library: ToolLibrary;
  readonly specifications: Specifications;
}

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

/**
 * The tool a specification declares with `http` or `command` metadata; `undefined` when it declares
 * neither (it is implemented elsewhere).
 */
export const declaredTool = (spec: ToolSpecification, options: DeclarativeToolOptions = {}): Either<ReadonlyArray<Diagnostic>, Tool> | undefined => {
  const kinds = declaredKinds(spec);
  const kind = kinds[0];
  if (kind === undefined) return undefined;
  if (kinds.length > 1) {
    return left([
      error(ImplCodes.CONFLICT, `tool "${spec.name}" declares ${kinds.length === 2 ? 'both ' : ''}${kinds.join(' and ')} implementations`, {
        hint: 'keep one of them',
      }),
    ]);
  }
  const built = toolKind(kind).build(spec, spec.metadata?.[kind] as JsonValue, { ...options, workspace: options.workspace ?? '' });
  return isLeft(built) ? left(built.left.diagnostics) : built;
};

/**
 * One library with the tool of every specification that declares `http` or `command`, or every
 * problem of every one of them.
 */
export const declarativeLibrary = (
  specs: Iterable<ToolSpecification>,
  options: DeclarativeToolOptions = {},
): Either<ReadonlyArray<Diagnostic>, ToolLibrary> => {
  const tools: Tool[] = [];
  const problems: Diagnostic[] = [];
  for (const spec of specs) {
    const t = declaredTool(spec, options);
    if (t === undefined) continue;
    if (isLeft(t)) problems.push(...t.left);
    else tools.push(t.right);
  }
  return problems.length > 0 ? left(problems) : right(toolLibrary(tools));
};

/**
 * Reads specification files (`.gram` or `.json`) and builds the library of their declarative
 * tools; the specifications come along (to bind against this library and others). Never rejects:
 * unreadable files, specification errors and configuration errors are all diagnostics.
 */
export const loadDeclarativeLibrary = async (
  paths: ReadonlyArray<string>,
  options: DeclarativeToolOptions & { readonly strict?: boolean; readonly knownTools?: KnownTools } = {},
): Promise<Either<ReadonlyArray<Diagnostic>, DeclarativeLoad>> => {
  const loaded = await loadSpecificationFiles(paths, {
    ...(options.strict !== undefined ? { strict: options.strict } : {}),
    ...(options.knownTools !== undefined ? { knownTools: options.knownTools } : {}),
  });
  if (isLeft(loaded)) return loaded;
  const library = declarativeLibrary(loaded.right.tools, options);
  return isLeft(library) ? library : right({ library: library.right, specifications: loaded.right });
};
