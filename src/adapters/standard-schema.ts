/**
 * A tool specification from any Standard Schema that exposes JSON Schema (Standard JSON Schema v1:
 * `schema["~standard"].jsonSchema`, which zod 4.2+ implements among others). No schema library is
 * imported: the schema converts itself.
 */
import { type Either, left } from '../core/either.js';
import { type Diagnostic, error } from '../core/diagnostic.js';
import type { ToolSpecification } from '../specification/tool-spec.js';
import { AdapterCodes } from './codes.js';
import { type SchemaToolOptions, specFromJsonSchemas, unrepresentable } from './schema-spec.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** What gramkit reads of a Standard Schema: its vendor and, when it has one, its JSON Schema converter. */
export interface StandardJsonSchemaLike {
  readonly '~standard': {
    readonly version: number;
    readonly vendor: string;
    readonly jsonSchema?: {
      readonly input: (options: { readonly target: string }) => unknown;
      readonly output: (options: { readonly target: string }) => unknown;
    };
  };
}

export interface FromStandardSchemaOptions extends SchemaToolOptions {
  /** The result's schema; without one the result may be any JSON value. */
  readonly output?: StandardJsonSchemaLike;
}

// -------------------------------------------------------------------------------------------------
// conversion
// -------------------------------------------------------------------------------------------------

const TARGET = { target: 'draft-2020-12' } as const;

const noJsonSchema = (name: string, s: StandardJsonSchemaLike): Either<ReadonlyArray<Diagnostic>, never> =>
  left([
    error(
      AdapterCodes.NO_JSON_SCHEMA,
      `tool "${name}": the ${String(s['~standard']?.vendor ?? 'given')} schema does not expose JSON Schema (no ~standard.jsonSchema)`,
      {
        hint: 'use a version of the schema library that implements Standard JSON Schema (zod 4.2 or later does), or give its JSON Schema to importTools',
      },
    ),
  ]);

/** The specification of a tool whose arguments `schema` describes (an object schema). */
export const fromStandardSchema = (
  schema: StandardJsonSchemaLike,
  options: FromStandardSchemaOptions,
): Either<ReadonlyArray<Diagnostic>, ToolSpecification> => {
  const convert = schema['~standard']?.jsonSchema;
  if (convert === undefined) return noJsonSchema(options.name, schema);
  let input: unknown;
  let output: unknown;
  try {
    input = convert.input(TARGET);
  } catch (e) {
    return unrepresentable(options.name, 'the arguments schema', e);
  }
  if (options.output !== undefined) {
    const out = options.output['~standard']?.jsonSchema;
    if (out === undefined) return noJsonSchema(options.name, options.output);
    try {
      output = out.output(TARGET);
    } catch (e) {
      return unrepresentable(options.name, 'the result schema', e);
    }
  }
  return specFromJsonSchemas(input, output, options, `the ${schema['~standard'].vendor} schema`);
};
