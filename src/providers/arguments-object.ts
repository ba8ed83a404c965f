/**
 * Tool arguments as an object, for the providers whose wire takes one (Anthropic `tool_use.input`,
 * Gemini `functionCall.args`) rather than JSON text.
 */
import type { JsonObject, JsonValue } from '../core/json-schema.js';

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

/**
 * The arguments text as an object. Arguments that are not a JSON object (a model's broken output,
 * possibly from another provider) are kept under a key rather than lost: `{value}` for another
 * JSON value, `{invalid_json}` for text that is not JSON.
 */
export const argumentsObject = (args: string): JsonObject => {
  try {
    const v = JSON.parse(args) as JsonValue;
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) return v as JsonObject;
    return { value: v };
  } catch {
    return { invalid_json: args };
  }
};
