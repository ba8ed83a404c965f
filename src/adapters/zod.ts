/**
 * A tool specification from Zod schemas (zod 4, an optional peer dependency), through zod's own
 * `toJSONSchema`: the arguments as their input type (defaults make a field optional), the result as
 * its output type.
 *
 *     const spec = fromZod(z.object({ city: z.string(), days: z.number().int().default(1) }), { name: 'get_weather', description: 'Weather for a city' });
 *     // Right(ToolSpecification): (city::String) ==> (days::Integer {…, default: 1}) ==> (::Any)
 */
import type { Either } from '../core/either.js';
import { toJSONSchema } from 'zod';
import type { $ZodType } from 'zod/v4/core';
import type { Diagnostic } from '../core/diagnostic.js';
import type { ToolSpecification } from '../specification/tool-spec.js';
import { type SchemaToolOptions, specFromJsonSchemas, unrepresentable } from './schema-spec.js';

/** A Zod schema (classic or mini). */
export type ZodSchema = $ZodType;

export interface FromZodOptions extends SchemaToolOptions {
  /** The result's schema; without one the result may be any JSON value. */
  readonly output?: ZodSchema;
}

/** The specification of a tool whose arguments `schema` describes (an object schema). */
export const fromZod = (schema: ZodSchema, options: FromZodOptions): Either<ReadonlyArray<Diagnostic>, ToolSpecification> => {
  let input: unknown;
  let output: unknown;
  try {
    input = toJSONSchema(schema, { target: 'draft-2020-12', io: 'input' });
  } catch (e) {
    return unrepresentable(options.name, 'the arguments schema', e);
  }
  if (options.output !== undefined) {
    try {
      output = toJSONSchema(options.output, { target: 'draft-2020-12', io: 'output' });
    } catch (e) {
      return unrepresentable(options.name, 'the result schema', e);
    }
  }
  return specFromJsonSchemas(input, output, options, 'the Zod schema');
};
