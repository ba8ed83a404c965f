/**
 * JSON values and JSON Schema documents as plain readonly data.
 */

export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | ReadonlyArray<JsonValue> | { readonly [key: string]: JsonValue };
export type JsonObject = { readonly [key: string]: JsonValue };

/**
 * A JSON Schema (draft 2020-12 as gramkit emits it; draft-07 accepted on import). Kept open:
 * any keyword may appear. `true`/`false` schemas are allowed where JSON Schema allows them.
 */
export type JsonSchema = JsonObject | boolean;
