/**
 * The codes of the adapters to other libraries' schemas and tools (`ADAPTER_`: the AI SDK, Zod,
 * Standard Schema). Tools and tests match on these, never on messages.
 */
import { type CodeOf, defineCodes } from '../core/codes.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export const AdapterCodes = defineCodes('adapters', 'ADAPTER', {
  NO_JSON_SCHEMA: {
    canonical: 'INVALID_CONFIGURATION',
    summary: 'a Standard Schema that does not expose JSON Schema (`~standard.jsonSchema`, Standard JSON Schema v1)',
    hint: 'use a schema library that implements Standard JSON Schema, or give the JSON Schema yourself',
  },
  UNREPRESENTABLE: {
    canonical: 'INVALID_CONFIGURATION',
    summary: 'the schema library could not express the schema as JSON Schema (a transform, a date, a custom check...)',
    hint: 'describe the arguments with plain JSON types; keep the other checks in the implementation',
  },
  NOT_IMPORTED: {
    canonical: 'INVALID_CONFIGURATION',
    summary: "the JSON Schema could not become a specification (the importer's diagnostics follow)",
    hint: 'the diagnostics that follow say why',
  },
});

export type AdapterCode = CodeOf<typeof AdapterCodes>;
