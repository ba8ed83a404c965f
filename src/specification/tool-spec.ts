/**
 * ToolSpecification: what a tool is (name, description, type signature), as plain serializable
 * data. The type signature (gram text) is the source of truth; the JSON Schemas are derived.
 *
 * Specifications are immutable (frozen) and pure data: creating one parses and checks the
 * signature and builds the schemas, but compiles no validator (that happens lazily, on the first
 * call of the tool; see `validate.ts`).
 */
import { type Checked, checked, checkedDiagnostics, type Either, right, unwarned, checkedValue } from '../core/either.js';
import { type Diagnostic, error, hasErrors } from '../core/diagnostic.js';
import { SpecCodes } from '../types/codes.js';
import { deepFreeze, isJsonValue } from '../core/json.js';
import type { JsonObject, JsonSchema } from '../core/json-schema.js';
import { type SignatureOptions, checkTypeSignature } from './signature.js';
import { signatureSchemas } from '../schema/to-json-schema.js';
import type { TypeSignature } from '../types/types.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface ToolSpecification {
  /** Unique tool name (the pattern identifier in gram form). */
  readonly name: string;
  readonly description: string;
  /** The signature in gram path notation, e.g. `(::Text {paramName:"name"})==>(::String)`. */
  readonly typeSignature: string;
  /** JSON Schema of the arguments; always `"type":"object"` at the root. */
  readonly schema: JsonObject;
  /** JSON Schema of the result, from the signature's return type. */
  readonly outputSchema: JsonSchema;
  /** The parsed signature (present on every specification gramkit builds). */
  readonly signature?: TypeSignature;
  /**
   * The tool pattern's record properties other than `description`, as JSON (e.g. the `http` or
   * `command` description of a declarative tool). Absent when there are none.
   */
  readonly metadata?: JsonObject;
}

export interface ToolSpecificationOptions extends SignatureOptions {
  readonly metadata?: JsonObject;
}

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

/**
 * A specification from its parts, the signature already compiled (no checks; the loaders use it).
 * The result is frozen.
 */
export const makeToolSpecification = (
  name: string,
  description: string,
  typeSignature: string,
  signature: TypeSignature,
  metadata?: JsonObject,
): ToolSpecification => {
  const { schema, outputSchema } = signatureSchemas(signature);
  const spec: ToolSpecification = {
    name,
    description,
    typeSignature,
    schema,
    outputSchema,
    signature,
    ...(metadata !== undefined && Object.keys(metadata).length > 0 ? { metadata: structuredClone(metadata) } : {}),
  };
  return deepFreeze(spec);
};

/** Checks the name and description of a specification (non-empty). */
export const checkNameAndDescription = (name: string, description: string, what = 'tool'): Diagnostic[] => {
  const out: Diagnostic[] = [];
  if (typeof name !== 'string' || name.trim() === '') out.push(error(SpecCodes.EMPTY_NAME, `a ${what} needs a non-empty name`));
  if (typeof description !== 'string' || description.trim() === '') {
    out.push(
      error(SpecCodes.MISSING_DESCRIPTION, `${what} ${JSON.stringify(name)} needs a non-empty description`, {
        hint: 'the description is what a model reads to decide when to call the tool',
      }),
    );
  }
  return out;
};

/** Like `createToolSpecification`, returning warnings too. */
export const checkToolSpecification = (
  name: string,
  description: string,
  typeSignature: string,
  options: ToolSpecificationOptions = {},
): Checked<ToolSpecification> => {
  const diagnostics: Diagnostic[] = checkNameAndDescription(name, description);
  const sig = checkTypeSignature(typeSignature, options);
  diagnostics.push(...checkedDiagnostics(sig));
  if (options.metadata !== undefined && !isJsonValue(options.metadata)) {
    diagnostics.push(error(SpecCodes.INVALID_METADATA, `the metadata of tool ${JSON.stringify(name)} is not JSON`));
  }
  const signature = checkedValue(sig);
  return checked(
    signature === undefined || hasErrors(diagnostics) ? undefined : makeToolSpecification(name, description, typeSignature, signature, options.metadata),
    diagnostics,
  );
};

/**
 * Creates a tool specification: a non-empty name and description and a valid signature, e.g.
 * `createToolSpecification("sayHello", "Greets", '(::Text {paramName:"name"})==>(::String)')`.
 * Left: every error found (spans point into `typeSignature`).
 */
export const createToolSpecification = (
  name: string,
  description: string,
  typeSignature: string,
  options: ToolSpecificationOptions = {},
): Either<ReadonlyArray<Diagnostic>, ToolSpecification> => unwarned(checkToolSpecification(name, description, typeSignature, options));

// -------------------------------------------------------------------------------------------------
// accessors
// -------------------------------------------------------------------------------------------------

export const toolSpecName = (s: ToolSpecification): string => s.name;
export const toolSpecDescription = (s: ToolSpecification): string => s.description;
export const toolSpecTypeSignature = (s: ToolSpecification): string => s.typeSignature;
export const toolSpecSchema = (s: ToolSpecification): JsonObject => s.schema;
export const toolSpecOutputSchema = (s: ToolSpecification): JsonSchema => s.outputSchema;
export const toolSpecMetadata = (s: ToolSpecification): JsonObject | undefined => s.metadata;

/** The parsed signature (parsed from the text when the specification was built by hand). */
export const toolSpecSignature = (s: ToolSpecification): Either<ReadonlyArray<Diagnostic>, TypeSignature> => {
  if (s.signature !== undefined) return right(s.signature);
  return unwarned(checkTypeSignature(s.typeSignature));
};

/** A copy with other metadata (absent when `metadata` is undefined or empty). */
export const withMetadata = (s: ToolSpecification, metadata: JsonObject | undefined): ToolSpecification => {
  const { metadata: _old, ...rest } = s;
  return deepFreeze({ ...rest, ...(metadata !== undefined && Object.keys(metadata).length > 0 ? { metadata: structuredClone(metadata) } : {}) });
};
