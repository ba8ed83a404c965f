/**
 * What the kinds that name a tool of the host share (`builtin: "read_file"`, `function:
 * "word_count"`): the name read from either form (`"name"` or `{"<kind>": "name"}`), and the host's
 * tool run under the specification's name, description and schemas.
 */
import { type Either, isRight, left, right } from '../../core/either.js';
import { isJsonObject } from '../../core/json.js';
import type { JsonValue } from '../../core/json-schema.js';
import { ToolCodes } from '../../library/codes.js';
import { ToolFailure } from '../../library/result.js';
import { createTool, type Tool } from '../../library/tool.js';
import { compileSchema, formatIssues } from '../../schema/validate.js';
import type { ToolSpecification } from '../../specification/tool-spec.js';
import type { ImplIssue } from './kind.js';

/** The name a block gives, in either form. */
export const implName = (kind: string, impl: unknown): Either<ImplIssue, string> => {
  const name = typeof impl === 'string' ? impl : isJsonObject(impl) ? impl[kind] : undefined;
  if (typeof name === 'string' && name.trim() !== '' && (!isJsonObject(impl) || Object.keys(impl).length === 1)) return right(name);
  return left({ issue: 'form', message: `a ${kind} tool's impl is {"${kind}": "<name>"}, got ${JSON.stringify(impl)?.slice(0, 120)}` });
};

/** The name of a stored block (`{"<kind>": "name"}`) or of a property's value (`"name"`). */
export const storedName = (kind: string, impl: JsonValue): string | undefined => {
  const n = implName(kind, impl);
  return isRight(n) ? n.right : undefined;
};

/** The tool under the specification's name and description, running `impl` (its own schema checked first when it differs). */
export const asSpecified = (spec: ToolSpecification, impl: Tool): Tool => {
  const own = compileSchema(impl.schema);
  const run =
    isRight(own) && JSON.stringify(impl.schema) !== JSON.stringify(spec.schema)
      ? (args: unknown, ctx: Parameters<Tool['invoke']>[1]) => {
          const withDefaults = own.right.applyDefaults(args);
          if (!own.right.check(withDefaults)) {
            throw new ToolFailure(
              ToolCodes.INVALID_ARGUMENTS,
              `invalid arguments for the ${impl.name} implementation: ${formatIssues(own.right.issues(withDefaults))}`,
            );
          }
          return impl.invoke(withDefaults, ctx);
        }
      : impl.invoke;
  return createTool(spec.name, spec.description, spec.schema, run, {
    outputSchema: spec.outputSchema,
    ...(impl.limits !== undefined ? { limits: impl.limits } : {}),
    ...(impl.annotations !== undefined ? { annotations: impl.annotations } : {}),
  });
};
