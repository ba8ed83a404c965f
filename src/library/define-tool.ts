/**
 * `defineTool(spec, impl)`: the ergonomic way to implement a specification. The tool takes its
 * name, description and schemas from the specification, so it always binds to it; the
 * implementation is a typed function of the arguments. The specification may also be given as
 * gram text (`[sayHello:Tool {description: ".."} | (name::String)==>(::String)]`), which is
 * compiled on the spot; bad text gives its diagnostics, never an exception.
 */
import { ToolCodes } from './codes.js';
import { type Either, leftOne, right, isLeft } from '../core/either.js';
import { type Diagnostic, error } from '../core/diagnostic.js';
import { parseSpecifications } from '../specification/load.js';
import type { ToolSpecification } from '../specification/tool-spec.js';
import { createTool, type Tool, type ToolAnnotations, type ToolImplementation, type ToolLimits } from './tool.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface DefineToolOptions {
  readonly limits?: ToolLimits;
  readonly annotations?: ToolAnnotations;
}

export interface DefineToolFromGramOptions extends DefineToolOptions {
  /** Which tool of the text, when it defines several. */
  readonly name?: string;
  /** For diagnostics. */
  readonly filename?: string;
}

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

/**
 * A tool implementing `spec`: same name, description, argument and output schemas. `A` is the
 * type of the (validated, defaults applied) arguments, `R` the type of the result.
 *
 * Given gram text instead of a specification, the text is compiled first: `Right(tool)`, or
 * `Left(diagnostics)` when the text has errors, defines no tool, or several without `name`.
 */
export function defineTool<A = Record<string, unknown>, R = unknown>(
  spec: ToolSpecification,
  impl: ToolImplementation<A, R>,
  options?: DefineToolOptions,
): Tool;
export function defineTool<A = Record<string, unknown>, R = unknown>(
  gram: string,
  impl: ToolImplementation<A, R>,
  options?: DefineToolFromGramOptions,
): Either<ReadonlyArray<Diagnostic>, Tool>;
export function defineTool<A, R>(
  spec: ToolSpecification | string,
  impl: ToolImplementation<A, R>,
  options: DefineToolFromGramOptions = {},
): Tool | Either<ReadonlyArray<Diagnostic>, Tool> {
  if (typeof spec !== 'string') return fromSpec(spec, impl, options);
  const parsed = parseSpecifications(spec, options.filename !== undefined ? { filename: options.filename } : {});
  if (isLeft(parsed)) return parsed;
  const tools = parsed.right.tools;
  const where = options.filename !== undefined ? { file: options.filename } : {};
  if (options.name !== undefined) {
    const found = tools.find((t) => t.name === options.name);
    if (found === undefined) {
      return leftOne(
        error(ToolCodes.DEFINE_NOT_FOUND, `the gram text defines no tool "${options.name}"`, {
          ...where,
          hint:
            tools.length > 0
              ? `it defines ${tools.map((t) => `"${t.name}"`).join(', ')}`
              : 'a tool is written [name:Tool {description: "..."} | (param::Type)==>(::Result)]',
        }),
      );
    }
    return right(fromSpec(found, impl, options));
  }
  if (tools.length !== 1) {
    return leftOne(
      tools.length === 0
        ? error(ToolCodes.DEFINE_NO_TOOL, 'the gram text defines no tool', {
            ...where,
            hint: 'a tool is written [name:Tool {description: "..."} | (param::Type)==>(::Result)]',
          })
        : error(
            ToolCodes.DEFINE_AMBIGUOUS,
            `the gram text defines ${tools.length} tools (${tools.map((t) => t.name).join(', ')}); say which one with the name option`,
            where,
          ),
    );
  }
  return right(fromSpec(tools[0] as ToolSpecification, impl, options));
}

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

const fromSpec = <A, R>(spec: ToolSpecification, impl: ToolImplementation<A, R>, options: DefineToolOptions): Tool =>
  createTool<A, R>(spec.name, spec.description, spec.schema, impl, {
    outputSchema: spec.outputSchema,
    ...(options.limits !== undefined ? { limits: options.limits } : {}),
    ...(options.annotations !== undefined ? { annotations: options.annotations } : {}),
  });
