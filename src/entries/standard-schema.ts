/**
 * `gramkit/standard-schema`: a tool specification from any Standard Schema that exposes JSON Schema
 * (Standard JSON Schema v1), and the adapters' diagnostic codes. Needs no schema library of its own.
 */
export type { FromStandardSchemaOptions, StandardJsonSchemaLike } from '../adapters/standard-schema.js';
export { fromStandardSchema } from '../adapters/standard-schema.js';
export type { SchemaToolOptions } from '../adapters/schema-spec.js';
export type { AdapterCode } from '../adapters/codes.js';
export { AdapterCodes } from '../adapters/codes.js';
