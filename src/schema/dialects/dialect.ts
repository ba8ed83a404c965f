/**
 * Provider schema dialects: the shapes in which LLM providers accept tool definitions, and the
 * diagnostics the exporters report when a canonical schema has to be rewritten for one of them.
 *
 * gramkit compiles gram to one canonical JSON Schema (a 2020-12 subset); each dialect is a pure
 * lowering of it plus a matching argument normaliser (`normalizeArguments`) that undoes the
 * lowering on the way back. Arguments are always validated locally against the canonical schema,
 * so a constraint a provider cannot express is moved into the description, not lost.
 */
import { type DialectCode, DialectCodes } from '../../types/codes.js';
import { type Diagnosed, leftOne, right } from '../../core/either.js';
import { error, info, warning, type Diagnostic } from '../../core/diagnostic.js';
import type { JsonObject, JsonSchema } from '../../core/json-schema.js';
import { showPath } from './schema-walk.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export type Dialect = 'jsonschema' | 'openai' | 'openai-strict' | 'anthropic' | 'gemini' | 'mcp';

export const DIALECTS: ReadonlyArray<Dialect> = ['jsonschema', 'openai', 'openai-strict', 'anthropic', 'gemini', 'mcp'];

/** What an exporter needs of a tool (a `ToolSpecification` fits). */
export interface ExportableTool {
  readonly name: string;
  readonly description: string;
  /** The canonical JSON Schema of the arguments (`"type":"object"` at the root). */
  readonly schema: JsonObject;
  readonly outputSchema?: JsonSchema;
}

/** One tool in a provider's dialect. */
export interface ExportedTool {
  /** The tool definition exactly as the provider takes it (for `jsonschema`: the schema itself). */
  readonly tool: JsonObject;
  /** The name the provider sees (sanitized to its rules). */
  readonly name: string;
  /** The name gramkit knows the tool by. */
  readonly gramkitName: string;
  /** What was lowered, moved or dropped, and anything that stops the export. */
  readonly diagnostics: ReadonlyArray<Diagnostic>;
}

export interface ExportedTools {
  readonly tools: ReadonlyArray<JsonObject>;
  /**
   * Provider name → gramkit name, for every exported tool (also the names that did not change),
   * in the order of `tools`.
   */
  readonly names: ReadonlyMap<string, string>;
  /** What was lowered, moved or dropped, per tool (each message names its tool). */
  readonly diagnostics: ReadonlyArray<Diagnostic>;
}

export { DialectCodes, type DialectCode } from '../../types/codes.js';

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

export const isDialect = (s: string): s is Dialect => (DIALECTS as ReadonlyArray<string>).includes(s);

/** A dialect from user input (a CLI flag), with the list of known ones when it is unknown. */
export const parseDialect = (s: string): Diagnosed<Dialect> =>
  isDialect(s) ? right(s) : leftOne(error(DialectCodes.UNKNOWN, `unknown schema dialect "${s}"`, { hint: `use one of: ${DIALECTS.join(', ')}` }));

// -------------------------------------------------------------------------------------------------
// utilities (diagnostics about one tool, at a place in its schema)
// -------------------------------------------------------------------------------------------------

export interface Notes {
  readonly tool: string;
  readonly dialect: Dialect;
  readonly out: Diagnostic[];
}

export const newNotes = (tool: string, dialect: Dialect): Notes => ({ tool, dialect, out: [] });

const where = (n: Notes, path: ReadonlyArray<string>): string => `tool "${n.tool}" (${n.dialect}), at ${showPath(path)}`;

export const noteInfo = (n: Notes, code: DialectCode, path: ReadonlyArray<string>, message: string, hint?: string): void => {
  n.out.push(info(code, `${where(n, path)}: ${message}`, hint !== undefined ? { hint } : {}));
};

export const noteWarning = (n: Notes, code: DialectCode, path: ReadonlyArray<string>, message: string, hint?: string): void => {
  n.out.push(warning(code, `${where(n, path)}: ${message}`, hint !== undefined ? { hint } : {}));
};

export const noteError = (n: Notes, code: DialectCode, path: ReadonlyArray<string>, message: string, hint?: string): void => {
  n.out.push(error(code, `${where(n, path)}: ${message}`, hint !== undefined ? { hint } : {}));
};
