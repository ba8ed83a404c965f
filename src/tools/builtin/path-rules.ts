/**
 * The safety rules of the built-in tools (`options.rules`) and the rules the call was judged by
 * (`ctx.rules`, which the invoker's gate step passes on: a run's `policies.rules`, a server's),
 * applied to what a call really reads or writes: the path relative to the workspace root after
 * every symbolic link is resolved. A call either refuses on that path fails with `POLICY_DENIED`,
 * naming the rule.
 */
import { ToolFailure } from '../../library/result.js';
import { PolicyCodes } from '../../policy/codes.js';
import { checkPaths } from '../../policy/path-rules.js';
import { describeViolations, type PathAccess, type RuleEngine, type RuleViolation } from '../../policy/rules.js';
import { isRecord } from '../../core/json.js';
import type { InvocationContext } from '../../library/tool.js';
import type { ResolvedBuiltinOptions } from './options.js';

const isRuleEngine = (v: unknown): v is RuleEngine => isRecord(v) && Array.isArray(v['rules']) && isRecord(v['pathArguments']);

/** The violations of the library's rules and of the call's, on one path. */
const violationsOf = (options: ResolvedBuiltinOptions, ctx: InvocationContext, tool: string, argument: string, relative: string, access: PathAccess): ReadonlyArray<RuleViolation> => {
  const path = [{ argument, path: relative, access }];
  const own = checkPaths(options.rules, tool, path);
  const call = ctx.rules;
  return call === undefined || call === options.rules || !isRuleEngine(call) ? own : [...own, ...checkPaths(call, tool, path)];
};

/** `real` (absolute, inside `root`) relative to `root`; `.` for the root itself. */
export const relativeToRoot = (root: string, real: string): string => (real === root ? '.' : real.slice(root.length + 1));

/** Whether the rules allow `tool` to touch `relative` (a real path relative to the workspace root). */
export const pathAllowed = (options: ResolvedBuiltinOptions, ctx: InvocationContext, tool: string, argument: string, relative: string, access: PathAccess): boolean =>
  violationsOf(options, ctx, tool, argument, relative, access).length === 0;

/** Fails with `POLICY_DENIED` when the rules refuse `tool` touching `real` (its real path), saying which rule and through what. */
export const assertPathAllowed = (options: ResolvedBuiltinOptions, ctx: InvocationContext, tool: string, argument: string, input: string, root: string, real: string, access: PathAccess): void => {
  const relative = relativeToRoot(root, real);
  const violations = violationsOf(options, ctx, tool, argument, relative, access);
  if (violations.length === 0) return;
  const through = relative === input ? '' : ` (${JSON.stringify(input)} leads to ${JSON.stringify(relative)})`;
  throw new ToolFailure(PolicyCodes.DENIED, `${describeViolations(tool, violations)}${through}`, { details: { rules: violations.map((v) => v.rule), path: relative } });
};
