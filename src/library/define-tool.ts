/**
 * `defineTool(spec, impl)`: the ergonomic way to implement a specification. The tool takes its
 * name, description and schemas from the specification, so it always binds to it; the
 * implementation is a typed function of the arguments.
 */
import type { ToolSpecification } from '../spec/tool-spec.js';
import { createTool, type Tool, type ToolAnnotations, type ToolImplementation, type ToolLimits } from './tool.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface DefineToolOptions {
  readonly limits?: ToolLimits;
  readonly annotations?: ToolAnnotations;
}

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

/**
 * A tool implementing `spec`: same name, description, argument and output schemas. `A` is the
 * type of the (validated, defaults applied) arguments, `R` the type of the result.
 */
export const defineTool = <A = Record<string, unknown>, R = unknown>(
  spec: ToolSpecification,
  impl: ToolImplementation<A, R>,
  options: DefineToolOptions = {},
): Tool =>
  createTool<A, R>(spec.name, spec.description, spec.schema, impl, {
    outputSchema: spec.outputSchema,
    ...(options.limits !== undefined ? { limits: options.limits } : {}),
    ...(options.annotations !== undefined ? { annotations: options.annotations } : {}),
  });
