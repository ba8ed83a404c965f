/**
 * The catalog's two JSON forms of a tool as gram, without a catalog (`gramkit import`): the
 * `tool.json` record of a tool bundle and the registry's Tool JSON (`input_schema` in the map form
 * `{"url": "string"}`, `exec` blocks as command tools) go through the catalog's own codecs
 * (`decodeToolJson`, `decodeRegistryTool`) to a tool's content, then to its gram form
 * (`contentToGram`): what `gramkit catalog add` would store, and what `GET …/gram` would print.
 *
 * Pure: the environment (built-in tools, loaded functions) is given (`contentEnvironment`).
 */
import { type Either, left, right, isLeft } from '../../core/either.js';
import { type Diagnostic, error } from '../../core/diagnostic.js';
import { isJsonObject } from '../../core/json.js';
import { emptyToolLibrary, listTools, type ToolLibrary } from '../../library/tool-library.js';
import type { Tool } from '../../library/tool.js';
import { builtinSpecification } from '../../tools/builtin/specifications.js';
import { CatalogCodes } from '../codes.js';
import { type ContentEnvironment, contentToGram } from './content.js';
import { decodeRegistryTool } from './registry-json.js';
import { decodeToolJson } from './tool-json.js';

/** What writes know of implementations: the built-in tools there are, and the loaded libraries' functions. */
export const contentEnvironment = (builtins: ReadonlyMap<string, Tool>, functions: ToolLibrary = emptyToolLibrary): ContentEnvironment => ({
  builtinSpecification: (name) => (builtins.has(name) ? builtinSpecification(name) : undefined),
  builtinAnnotations: (name) => builtins.get(name)?.annotations,
  functionTool: (name) => listTools(functions).find((t) => t.name === name),
});

/** Which of the catalog's JSON forms of a tool a value is: a `tool.json` record or the registry's Tool JSON. */
export type CatalogToolFormat = 'tool-json' | 'registry';

const TOOL_JSON_MARKS = ['argSchema', 'impl', 'schemaVersion', 'toolID', 'bundleID', 'displayName', 'goFunc', 'gram'];
/** Keys of the other import formats (MCP, OpenAI, BFCL, Anthropic, JSON Schema) a catalog tool document never has. */
const FOREIGN_MARKS = ['inputSchema', 'parameters', 'function', 'properties', '$schema'];

/**
 * The catalog form of a value, when it is one: a registry Tool JSON has a string `id` (a
 * `tool.json` has no `id`: its ids are `bundleID` and `toolID`); a `tool.json` has one of
 * `argSchema`, `impl`, `schemaVersion`, `toolID`, `bundleID`, `displayName`, or a `slug`. A value
 * with a key of another import format is neither.
 */
export const catalogToolFormat = (u: unknown): CatalogToolFormat | undefined => {
  if (!isJsonObject(u) || FOREIGN_MARKS.some((k) => u[k] !== undefined)) return undefined;
  if (typeof u['id'] === 'string') return 'registry';
  if (typeof u['slug'] === 'string' || TOOL_JSON_MARKS.some((k) => u[k] !== undefined)) return 'tool-json';
  return undefined;
};

export interface CatalogToolGram {
  /** The tool's slug (its name in the gram text). */
  readonly slug: string;
  /** `[slug:Tool {description, version, …, http: {…}} | signature]` */
  readonly gram: string;
  /** What changed on the way (dropped schema keywords, inferred types). */
  readonly warnings: ReadonlyArray<Diagnostic>;
}

/**
 * A `tool.json` or a registry Tool JSON as gram. `defaults` names a `tool.json` that leaves out
 * its slug (the file's name) or version (`"1"`).
 */
export const catalogToolToGram = (
  u: unknown,
  env: ContentEnvironment,
  defaults: { readonly slug?: string; readonly version?: string } = {},
): Either<ReadonlyArray<Diagnostic>, CatalogToolGram> => {
  const format = catalogToolFormat(u);
  if (format === undefined) {
    return left([error(CatalogCodes.INVALID_RECORD, 'neither a tool.json (slug, argSchema, impl, …) nor a registry Tool JSON (id, input_schema, exec, …)')]);
  }
  if (format === 'registry') {
    const w = decodeRegistryTool(u, env);
    return isLeft(w) ? w : right({ slug: w.right.built.content.slug, gram: contentToGram(w.right.built.content), warnings: w.right.built.warnings });
  }
  const o = u as Readonly<Record<string, unknown>>;
  const ctx = {
    ...(o['slug'] === undefined && o['gram'] === undefined && defaults.slug !== undefined ? { slug: defaults.slug } : {}),
    ...(o['version'] === undefined && o['gram'] === undefined ? { version: defaults.version ?? '1' } : {}),
  };
  const w = decodeToolJson(u, env, ctx);
  return isLeft(w) ? w : right({ slug: w.right.built.content.slug, gram: contentToGram(w.right.built.content), warnings: w.right.built.warnings });
};
