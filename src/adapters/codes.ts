/**
 * Stable codes of the adapters to other libraries' schemas and tools (the AI SDK, Zod, Standard
 * Schema). Tools and tests match on these, never on messages.
 */
export const AdapterCodes = {
  /** A Standard Schema that does not expose JSON Schema (`~standard.jsonSchema`, Standard JSON Schema v1). */
  NO_JSON_SCHEMA: 'ADAPTER_NO_JSON_SCHEMA',
  /** The schema library could not express the schema as JSON Schema (a transform, a date, a custom check...). */
  UNREPRESENTABLE: 'ADAPTER_UNREPRESENTABLE',
  /** The JSON Schema could not become a specification (the importer's diagnostics say why). */
  NOT_IMPORTED: 'ADAPTER_NOT_IMPORTED',
} as const;

export type AdapterCode = (typeof AdapterCodes)[keyof typeof AdapterCodes];
