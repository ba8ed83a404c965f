/**
 * ToolSpecification: what a tool is (name, description, type signature), as plain serializable
 * data. The type signature (gram text) is the source of truth; the JSON Schemas are derived.
 */
import type { JsonObject, JsonSchema } from './json-schema.js';

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
}
