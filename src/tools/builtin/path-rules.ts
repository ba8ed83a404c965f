/**
 * The safety rules of the built-in tools (`options.rules`) and the rules the call was judged by
 * (`ctx.rules`, which the invoker's gate step passes on: a run's `policies.rules`, a server's),
 * applied to what a call really reads or writes: the path relative to the workspace root after
 * every symbolic link is resolved, and what a file holds once read (credentials are recognised by
 * their content). A call either refuses fails with `POLICY_DENIED`, naming the rule.
 */
import { ToolFailure } from '../../library/result.js';
import { PolicyCodes } from '../../policy/codes.js';
import { checkPaths } from '../../policy/path-rules.js';
import { describeViolations, ruleInput, type PathAccess, type RuleEngine, type RuleViolation } from '../../policy/rules.js';
import { isRecord } from '../../core/json.js';
import type { InvocationContext } from '../../library/tool.js';
import { resolveIn } from '../../policy/command-view.js';
import { isWithin } from './workspace.js';
import { constants } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import * as path from 'node:path';
import type { ResolvedBuiltinOptions } from './options.js';

const isRuleEngine = (v: unknown): v is RuleEngine => isRecord(v) && Array.isArray(v['rules']) && isRecord(v['pathArguments']);

/** The violations of the library's rules and of the call's, on one path (holding `content` when it was read). */
const violationsOf = (
  options: ResolvedBuiltinOptions,
  ctx: InvocationContext,
  tool: string,
  argument: string,
  relative: string,
  access: PathAccess,
  content?: Uint8Array | string,
): ReadonlyArray<RuleViolation> => {
  const path = [{ argument, path: relative, access, ...contentOf(content) }];
  const own = checkPaths(options.rules, tool, path);
  const call = ctx.rules;
  return call === undefined || call === options.rules || !isRuleEngine(call) ? own : [...own, ...checkPaths(call, tool, path)];
};

/** `real` (absolute, inside `root`) relative to `root`; `.` for the root itself. */
export const relativeToRoot = (root: string, real: string): string => (real === root ? '.' : real.slice(root.length + 1));

/**
 * Whether the rules allow `tool` to touch `relative` (a real path relative to the workspace root),
 * holding `content` when it was read (rules recognise credentials by what they hold).
 */
export const pathAllowed = (
  options: ResolvedBuiltinOptions,
  ctx: InvocationContext,
  tool: string,
  argument: string,
  relative: string,
  access: PathAccess,
  content?: Uint8Array | string,
): boolean => violationsOf(options, ctx, tool, argument, relative, access, content).length === 0;

/** Bytes as rules read them: Latin-1, so that every byte is one character and nothing fails to decode. */
const contentOf = (content: Uint8Array | string | undefined): { content?: string } =>
  content === undefined
    ? {}
    : { content: typeof content === 'string' ? content : Buffer.from(content.buffer, content.byteOffset, content.byteLength).toString('latin1') };

/**
 * Fails with `POLICY_DENIED` when the rules refuse `tool` touching `real` (its real path), or a
 * file holding `content` once read, saying which rule and through what.
 */
export const assertPathAllowed = (
  options: ResolvedBuiltinOptions,
  ctx: InvocationContext,
  tool: string,
  argument: string,
  input: string,
  root: string,
  real: string,
  access: PathAccess,
  content?: Uint8Array | string,
): void => {
  const relative = relativeToRoot(root, real);
  const violations = violationsOf(options, ctx, tool, argument, relative, access, content);
  if (violations.length === 0) return;
  const through = relative === input ? '' : ` (${JSON.stringify(input)} leads to ${JSON.stringify(relative)})`;
  throw new ToolFailure(PolicyCodes.DENIED, `${describeViolations(tool, violations)}${through}`, {
    details: { rules: violations.map((v) => v.rule), path: relative },
  });
};

/** Most words of a shell command whose files are read for `assertCommandFilesAllowed`. */
const MAX_COMMAND_FILES = 256;
/** Bytes of each such file the rules read (credentials are small; their signatures are at the start). */
const COMMAND_FILE_HEAD = 65_536;

/**
 * Fails with `POLICY_DENIED` when a word of shell command `command` (run in `cwdReal`) names a
 * regular file of the workspace that the rules refuse by its real path or by what it holds: a
 * hard link to `~/.aws/credentials` has another name, not other content. The files are read
 * (their first 64 KiB, the first 256 words) without following a link in their last component.
 */
export const assertCommandFilesAllowed = async (
  options: ResolvedBuiltinOptions,
  ctx: InvocationContext,
  tool: string,
  argument: string,
  command: string,
  root: string,
  cwdReal: string,
): Promise<void> => {
  const input = ruleInput(options.rules, tool, { [argument]: command, ...(tool === 'run_code' ? { language: 'bash' } : {}) });
  const seen = new Set<string>();
  for (const c of input.commands)
    for (const v of c.views)
      for (const w of [...v.args, ...v.redirects.map((r) => r.target)]) {
        if (seen.size >= MAX_COMMAND_FILES) return;
        const word = w.startsWith('-') && w.includes('=') ? w.slice(w.indexOf('=') + 1) : w;
        if (word === '' || word.startsWith('-') || word.startsWith('~') || word.startsWith('$')) continue;
        const full = path.posix.resolve(cwdReal, resolveIn(v, word));
        if (seen.has(full)) continue;
        seen.add(full);
        const real = await realpath(full).catch(() => undefined);
        if (real === undefined || !isWithin(root, real)) continue;
        const head = await readHead(real);
        if (head === undefined) continue;
        assertPathAllowed(options, ctx, tool, argument, word, root, real, 'read', head);
      }
};

const readHead = async (real: string): Promise<Uint8Array | undefined> => {
  const fh = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(() => undefined);
  if (fh === undefined) return undefined;
  try {
    const st = await fh.stat();
    if (!st.isFile()) return undefined;
    const buf = Buffer.alloc(Math.min(st.size, COMMAND_FILE_HEAD));
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close().catch(() => undefined);
  }
};
