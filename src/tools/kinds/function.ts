/**
 * The `function` kind: a tool of the libraries the host loaded (`--library`), `function:
 * "word_count"` (stored `{"function": "word_count"}`), under the record's name. Its schemas and
 * annotations default to the function's; the function must implement exactly the record's
 * specification (what the model reads), else the tool is unavailable, saying where they differ.
 */
import { isLeft, left, right } from '../../core/either.js';
import { error } from '../../core/diagnostic.js';
import { bindTool, formatBindError } from '../../library/bind.js';
import { emptyToolLibrary, lookupTool, registerTool, type ToolLibrary } from '../../library/tool-library.js';
import { ImplCodes } from '../codes.js';
import { kindFailure, type ToolKind } from './kind.js';
import { asSpecified, implName, storedName } from './named-impl.js';

const missing = (name: string | undefined, functions: ToolLibrary | undefined): string | undefined =>
  name !== undefined && functions !== undefined && lookupTool(name, functions) !== undefined
    ? undefined
    : `no library loaded implements the function ${JSON.stringify(name)} (give the module that exports it with --library <module>: serve, run --catalog, catalog ls)`;

export const functionKind: ToolKind<'function'> = {
  name: 'function',
  example: 'function: "name"',
  decode: (impl) => {
    const n = implName('function', impl);
    return isLeft(n) ? left([n.left]) : right({ function: n.right });
  },
  metadataValue: (impl) => impl['function'] as string,
  defaults: (impl, env) => {
    const t = env.functionTool(impl['function'] as string);
    const a = t?.annotations;
    return {
      permissions: a?.permissions ?? [],
      safetyLevel: a?.safetyLevel ?? 'low',
      ...(t !== undefined ? { input: t.schema, ...(t.outputSchema !== undefined ? { output: t.outputSchema } : {}) } : {}),
    };
  },
  missing: (impl, ctx) => missing(storedName('function', impl), ctx.functions),
  build: (spec, impl, ctx) => {
    const name = storedName('function', impl);
    const tool = name === undefined || ctx.functions === undefined ? undefined : lookupTool(name, ctx.functions);
    if (tool === undefined) return left(kindFailure('missing', [error(ImplCodes.UNAVAILABLE, missing(name, ctx.functions) as string)]));
    // the function must implement exactly this specification (what the model reads)
    const check = bindTool({ ...spec, description: tool.description, name: tool.name }, registerTool(tool.name, tool, emptyToolLibrary));
    if (isLeft(check))
      return left(
        kindFailure('missing', [error(ImplCodes.UNAVAILABLE, `the function ${name} does not match the record: ${check.left.map(formatBindError).join('; ')}`)]),
      );
    return right(asSpecified(spec, tool));
  },
  requestCheck: 'none',
};
