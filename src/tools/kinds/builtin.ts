/**
 * The `builtin` kind: a built-in tool of this version of gramkit (src/tools/builtin) under the
 * record's name, `builtin: "read_file"` (stored `{"builtin": "read_file"}`). Its schemas, default
 * permissions and safety level are the built-in's; the record's schema may be looser (the default
 * nucleus's are), so the built-in's own is checked too. Policies judge a call under the built-in's
 * own name, so its path and command rules apply; the quick in-process ones need no cancellation.
 */
import { isLeft, left, right } from '../../core/either.js';
import { error } from '../../core/diagnostic.js';
import type { JsonValue } from '../../core/json-schema.js';
import { didYouMean } from '../../core/suggest.js';
import { BUILTIN_TOOL_NAMES } from '../builtin/specifications.js';
import { ImplCodes } from '../codes.js';
import { kindFailure, type ToolKind } from './kind.js';
import { asSpecified, implName, storedName } from './named-impl.js';

/** Built-ins that run in process without waiting on the network or a program: a call takes invoke's plain path (no cancellation signal). */
const QUICK: ReadonlySet<string> = new Set(['json_parse', 'list_directory', 'read_file', 'write_file', 'delete_file', 'move_file']);

const missing = (name: string | undefined, builtins: ReadonlyMap<string, unknown> | undefined): string | undefined =>
  name !== undefined && builtins?.has(name) === true ? undefined : `the built-in tool ${JSON.stringify(name)} does not exist in this version of gramkit`;

/** The built-in a stored block names (`{"builtin": "read_file"}`). */
export const builtinName = (impl: JsonValue): string | undefined => storedName('builtin', impl);

export const builtinKind: ToolKind<'builtin'> = {
  name: 'builtin',
  example: 'builtin: "read_file"',
  decode: (impl, env) => {
    const n = implName('builtin', impl);
    if (isLeft(n)) return left([n.left]);
    if (env.builtinSpecification(n.right) === undefined) {
      const hint = didYouMean(n.right, BUILTIN_TOOL_NAMES);
      return left([{ issue: 'unknown', message: `there is no built-in tool "${n.right}"`, ...(hint !== undefined ? { hint } : {}) }]);
    }
    return right({ builtin: n.right });
  },
  metadataValue: (impl) => impl['builtin'] as string,
  defaults: (impl, env) => {
    const name = impl['builtin'] as string;
    const a = env.builtinAnnotations(name);
    const s = env.builtinSpecification(name);
    return { permissions: a?.permissions ?? [], safetyLevel: a?.safetyLevel ?? 'low', ...(s !== undefined ? { input: s.schema, output: s.outputSchema } : {}) };
  },
  missing: (impl, ctx) => missing(builtinName(impl), ctx.builtins),
  build: (spec, impl, ctx) => {
    const name = builtinName(impl);
    const tool = name === undefined ? undefined : ctx.builtins?.get(name);
    if (tool === undefined) return left(kindFailure('missing', [error(ImplCodes.UNAVAILABLE, missing(name, ctx.builtins) as string)]));
    return right(asSpecified(spec, tool));
  },
  requestCheck: 'none',
  policyName: builtinName,
  quick: (impl) => QUICK.has(impl['builtin'] as string),
};
