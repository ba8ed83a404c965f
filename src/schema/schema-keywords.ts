/**
 * Every JSON Schema keyword gramkit meets, in one table: whether it is an annotation (it changes no
 * validation outcome, as ajv reads draft 2020-12 and draft-07 here), what the importer does with
 * it, and what the lowering dialects (OpenAI strict, Gemini) do with it. The lists that used to be
 * kept apart (bind's "accepts anything", the importer's dropped and unsupported keywords) are read
 * from here, so they cannot disagree; the lowerings read each keyword's action here (they keep,
 * describe or drop it as the table says, and hold only how a keyword the table lowers is lowered).
 *
 * Decisions worth knowing:
 * - `$defs` and `definitions` are annotations: they hold subschemas for `$ref`, and validate nothing
 *   themselves (a schema of only `$defs` accepts every value).
 * - `nullable` is OpenAPI, not JSON Schema: ajv ignores it, so it is an annotation here; the
 *   importer drops it with a warning, the OpenAI strict lowering reads it as OpenAPI does (it adds
 *   `null` to the type), Gemini keeps it (it is Gemini's way of saying null).
 * - `deprecated` is an annotation the model should see: OpenAI strict and Gemini both write it into
 *   the description (Gemini used to drop it).
 */
import type { JsonSchema } from '../core/json-schema.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/**
 * What the importer does: `structure` (read as the shape of the type), `keyword` (kept as a keyword
 * of the type language), `drop` (dropped with a warning: it validates nothing and has no place in a
 * gram type), `unsupported` (an error: it changes validation and gram types cannot say it).
 */
export type ImportAction = 'structure' | 'keyword' | 'drop' | 'unsupported';

/**
 * What a lowering dialect does: `keep` (sent as is), `lower` (rewritten into a form the provider
 * takes that accepts the same values, or, for OpenAI strict, the tool is sent non-strict when there
 * is none), `describe` (written into the description; gramkit still validates it), `drop` (left
 * out, with a note; with a warning when it validates something, which gramkit still checks).
 */
export type DialectAction = 'keep' | 'lower' | 'describe' | 'drop';

export interface SchemaKeyword {
  readonly name: string;
  /** Whether it changes no validation outcome. */
  readonly annotation: boolean;
  readonly import: ImportAction;
  readonly openaiStrict: DialectAction;
  readonly gemini: DialectAction;
}

const k = (name: string, annotation: boolean, imported: ImportAction, openaiStrict: DialectAction, gemini: DialectAction): SchemaKeyword => ({
  name,
  annotation,
  import: imported,
  openaiStrict,
  gemini,
});

/** The table, grouped as the JSON Schema vocabularies are, then OpenAPI's keywords. */
export const SCHEMA_KEYWORDS: ReadonlyArray<SchemaKeyword> = [
  // core
  k('$schema', true, 'structure', 'drop', 'drop'),
  k('$id', true, 'drop', 'drop', 'drop'),
  k('id', true, 'drop', 'drop', 'drop'),
  k('$ref', false, 'structure', 'keep', 'lower'),
  k('$anchor', true, 'drop', 'drop', 'drop'),
  k('$dynamicRef', false, 'unsupported', 'drop', 'drop'),
  k('$dynamicAnchor', true, 'drop', 'drop', 'drop'),
  k('$recursiveRef', false, 'unsupported', 'drop', 'drop'),
  k('$recursiveAnchor', true, 'drop', 'drop', 'drop'),
  k('$vocabulary', true, 'drop', 'drop', 'drop'),
  k('$comment', true, 'drop', 'drop', 'drop'),
  k('$defs', true, 'structure', 'lower', 'drop'),
  k('definitions', true, 'structure', 'lower', 'drop'),
  // applicators
  k('allOf', false, 'structure', 'lower', 'lower'),
  k('anyOf', false, 'structure', 'lower', 'lower'),
  k('oneOf', false, 'structure', 'lower', 'lower'),
  k('not', false, 'unsupported', 'describe', 'describe'),
  k('if', false, 'unsupported', 'describe', 'describe'),
  k('then', false, 'unsupported', 'describe', 'describe'),
  k('else', false, 'unsupported', 'describe', 'describe'),
  k('dependentSchemas', false, 'unsupported', 'describe', 'describe'),
  k('dependencies', false, 'unsupported', 'describe', 'describe'),
  k('prefixItems', false, 'structure', 'lower', 'lower'),
  k('items', false, 'structure', 'lower', 'lower'),
  k('additionalItems', false, 'structure', 'lower', 'lower'),
  k('contains', false, 'unsupported', 'describe', 'describe'),
  k('properties', false, 'structure', 'lower', 'lower'),
  // OpenAI strict: keys chosen by the model have no strict form; the tool is sent non-strict
  k('patternProperties', false, 'unsupported', 'lower', 'describe'),
  k('additionalProperties', false, 'structure', 'lower', 'lower'),
  k('propertyNames', false, 'unsupported', 'describe', 'describe'),
  k('unevaluatedItems', false, 'unsupported', 'describe', 'describe'),
  k('unevaluatedProperties', false, 'structure', 'lower', 'describe'),
  // validation
  k('type', false, 'structure', 'lower', 'lower'),
  k('enum', false, 'keyword', 'keep', 'lower'),
  k('const', false, 'keyword', 'keep', 'lower'),
  k('multipleOf', false, 'keyword', 'keep', 'describe'),
  k('maximum', false, 'keyword', 'keep', 'keep'),
  k('exclusiveMaximum', false, 'keyword', 'keep', 'lower'),
  k('minimum', false, 'keyword', 'keep', 'keep'),
  k('exclusiveMinimum', false, 'keyword', 'keep', 'lower'),
  k('maxLength', false, 'keyword', 'describe', 'keep'),
  k('minLength', false, 'keyword', 'describe', 'keep'),
  k('pattern', false, 'keyword', 'keep', 'keep'),
  k('maxItems', false, 'keyword', 'keep', 'keep'),
  k('minItems', false, 'keyword', 'keep', 'keep'),
  k('uniqueItems', false, 'keyword', 'describe', 'describe'),
  k('maxContains', false, 'unsupported', 'describe', 'describe'),
  k('minContains', false, 'unsupported', 'describe', 'describe'),
  k('maxProperties', false, 'keyword', 'describe', 'keep'),
  k('minProperties', false, 'keyword', 'describe', 'keep'),
  k('required', false, 'structure', 'lower', 'lower'),
  k('dependentRequired', false, 'unsupported', 'describe', 'describe'),
  // format (validated: gramkit turns ajv-formats on)
  k('format', false, 'keyword', 'lower', 'lower'),
  // content
  k('contentEncoding', true, 'keyword', 'drop', 'drop'),
  k('contentMediaType', true, 'keyword', 'drop', 'drop'),
  // meta-data
  k('title', true, 'keyword', 'keep', 'keep'),
  k('description', true, 'keyword', 'keep', 'keep'),
  k('default', true, 'keyword', 'describe', 'keep'),
  k('deprecated', true, 'keyword', 'describe', 'describe'),
  k('readOnly', true, 'keyword', 'drop', 'drop'),
  k('writeOnly', true, 'keyword', 'drop', 'drop'),
  k('examples', true, 'keyword', 'describe', 'lower'),
  // OpenAPI (and Gemini) keywords, which JSON Schema validators ignore
  k('nullable', true, 'drop', 'lower', 'keep'),
  k('example', true, 'structure', 'drop', 'drop'),
  k('discriminator', true, 'drop', 'drop', 'drop'),
  k('xml', true, 'drop', 'drop', 'drop'),
  k('externalDocs', true, 'drop', 'drop', 'drop'),
  k('propertyOrdering', true, 'drop', 'drop', 'drop'),
];

export const SCHEMA_KEYWORD_INFO: ReadonlyMap<string, SchemaKeyword> = new Map(SCHEMA_KEYWORDS.map((x) => [x.name, x]));

const namesWhere = (p: (x: SchemaKeyword) => boolean): ReadonlySet<string> => new Set(SCHEMA_KEYWORDS.filter(p).map((x) => x.name));

/** Keywords that change no validation outcome. */
export const ANNOTATION_KEYWORDS: ReadonlySet<string> = namesWhere((x) => x.annotation);

/** Keywords the importer drops with a warning (besides `x-*` extensions and unknown keywords). */
export const IMPORT_DROPPED: ReadonlySet<string> = namesWhere((x) => x.import === 'drop');

/** Keywords the importer cannot write as a type (an error). */
export const IMPORT_UNSUPPORTED: ReadonlySet<string> = namesWhere((x) => x.import === 'unsupported');

/** Keywords the importer reads as the structure of the type. */
export const IMPORT_STRUCTURE: ReadonlySet<string> = namesWhere((x) => x.import === 'structure');

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

/** Whether a schema accepts every value: absent, `true`, `{}`, or annotations only. */
export const acceptsAnything = (schema: JsonSchema | undefined): boolean => {
  if (schema === undefined || schema === true) return true;
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return false;
  return Object.keys(schema).every((key) => ANNOTATION_KEYWORDS.has(key));
};
