/**
 * A tool specification from the JSON Schemas of another schema library (Zod, a Standard Schema),
 * through the specification importer: the schemas become a gram type signature (printed and read
 * back), so the specification is the one `gramkit import` would write, and its gram can be saved
 * to adopt gram one tool at a time.
 */
import { type Either, left, right } from '../core/either.js';
import { type Diagnostic, error } from '../core/diagnostic.js';
import { isJsonObject } from '../core/json.js';
import type { JsonObject, JsonValue } from '../core/json-schema.js';
import { importDefinitions } from '../specification/import.js';
import type { ToolSpecification } from '../specification/tool-spec.js';
import { AdapterCodes } from './codes.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface SchemaToolOptions {
  /** The tool's name. */
  readonly name: string;
  /** What the model reads to choose the tool; default: the schema's own `description`. */
  readonly description?: string;
}

// -------------------------------------------------------------------------------------------------
// conversion
// -------------------------------------------------------------------------------------------------

/** The specification of a tool whose arguments (and result) the JSON Schemas describe. */
export const specFromJsonSchemas = (
  input: unknown,
  output: unknown,
  options: SchemaToolOptions,
  what: string,
): Either<ReadonlyArray<Diagnostic>, ToolSpecification> => {
  if (!isJsonObject(input)) {
    return left([error(AdapterCodes.NOT_IMPORTED, `tool "${options.name}": ${what} gave no JSON Schema object for the arguments`)]);
  }
  const description = options.description ?? (typeof input['description'] === 'string' ? input['description'] : undefined);
  const definition: Record<string, JsonValue> = { name: options.name, schema: input };
  if (description !== undefined) definition['description'] = description;
  if (output !== undefined) definition['outputSchema'] = output as JsonValue;
  const report = importDefinitions([{ value: definition as JsonObject, at: '' }], { from: 'jsonschema' });
  const [tool] = report.tools;
  if (tool?.spec !== undefined) return right(tool.spec);
  const problems = [...report.diagnostics, ...(tool?.diagnostics ?? [])].filter((d) => d.severity === 'error');
  return left([
    error(AdapterCodes.NOT_IMPORTED, `tool "${options.name}": the JSON Schema of ${what} cannot be a gram specification`, {
      hint: problems.map((d) => d.message).join('; '),
    }),
    ...problems,
  ]);
};

/** A diagnostic for a schema the library could not express as JSON Schema. */
export const unrepresentable = (name: string, what: string, e: unknown): Either<ReadonlyArray<Diagnostic>, never> =>
  left([
    error(AdapterCodes.UNREPRESENTABLE, `tool "${name}": ${what} cannot be expressed as JSON Schema: ${e instanceof Error ? e.message : String(e)}`, {
      hint: 'tool arguments travel as JSON: use JSON types (a date as a string with format "date-time", no transforms)',
    }),
  ]);
