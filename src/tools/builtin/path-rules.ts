/**
 * The safety rules of the built-in tools (`options.rules`), applied to what a call really reads or
 * writes: the path relative to the workspace root after every symbolic link is resolved. A call
 * the rules refuse on that path fails with `POLICY_DENIED`, naming the rule.
 */
import { ToolFailure } from '../../library/result.js';
import { PolicyCodes } from '../../policy/codes.js';
import { checkPaths } from '../../policy/path-rules.js';
import { describeViolations, type PathAccess } from '../../policy/rules.js';
import type { ResolvedBuiltinOptions } from './options.js';

/** `real` (absolute, inside `root`) relative to `root`; `.` for the root itself. */
export const relativeToRoot = (root: string, real: string): string => (real === root ? '.' : real.slice(root.length + 1));

/**
 * Whether the rules allow `tool` to touch `relative` (a real path relative to the workspace root),
 * holding `content` when it was read (rules recognise credentials by what they hold).
 */
export const pathAllowed = (options: ResolvedBuiltinOptions, tool: string, argument: string, relative: string, access: PathAccess, content?: Uint8Array | string): boolean =>
  checkPaths(options.rules, tool, [{ argument, path: relative, access, ...contentOf(content) }]).length === 0;

/** Bytes as rules read them: Latin-1, so that every byte is one character and nothing fails to decode. */
const contentOf = (content: Uint8Array | string | undefined): { content?: string } =>
  content === undefined ? {} : { content: typeof content === 'string' ? content : Buffer.from(content.buffer, content.byteOffset, content.byteLength).toString('latin1') };

/**
 * Fails with `POLICY_DENIED` when the rules refuse `tool` touching `real` (its real path), or a
 * file holding `content` once read, saying which rule and through what.
 */
export const assertPathAllowed = (options: ResolvedBuiltinOptions, tool: string, argument: string, input: string, root: string, real: string, access: PathAccess, content?: Uint8Array | string): void => {
  const relative = relativeToRoot(root, real);
  const violations = checkPaths(options.rules, tool, [{ argument, path: relative, access, ...contentOf(content) }]);
  if (violations.length === 0) return;
  const through = relative === input ? '' : ` (${JSON.stringify(input)} leads to ${JSON.stringify(relative)})`;
  throw new ToolFailure(PolicyCodes.DENIED, `${describeViolations(tool, violations)}${through}`, { details: { rules: violations.map((v) => v.rule), path: relative } });
};
