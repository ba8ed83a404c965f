/**
 * The policies of every command that calls tools (`run`, `ab`, `invoke`, `mcp`, and any server the
 * CLI starts), decided in one place so that no command is more permissive than another:
 *
 * - the default safety rules;
 * - the permissions of `ALLOWED_TOOL_PERMS` when it is set: a comma list such as `fs:read,net:read`
 *   (`fs:*` a family, `*` everything); a tool that needs a permission outside it is `DENIED`;
 * - approval by a person for the calls that need it: asked on a terminal, `--yes` approves them
 *   all, `--deny` refuses them all, and without a terminal or either flag they are refused with a
 *   message that says how to approve.
 */
import type { Approver } from '../../policy/approvals.js';
import { approveAll, approverFrom, denyAll, terminalApprover } from '../../policy/approvers.js';
import { defaultRuleEngine } from '../../policy/default-rules.js';
import type { Policies } from '../../policy/evaluate.js';
import { parsePermissionList } from '../../policy/permissions.js';
import type { CliIO } from '../io.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** The environment variable that lists the permissions a command allows its tools. */
export const ALLOWED_TOOL_PERMS = 'ALLOWED_TOOL_PERMS';

export interface ApprovalChoice {
  /** `--yes`: approve every call that needs approval. */
  readonly yes?: boolean;
  /** `--deny`: refuse every call that needs approval. */
  readonly deny?: boolean;
}

/** An approver and what ends it (a terminal approver stops reading its input). */
export interface CommandApprover {
  readonly approver: Approver;
  readonly close: () => void;
}

// -------------------------------------------------------------------------------------------------
// policies
// -------------------------------------------------------------------------------------------------

/** The policies of a command: the default rules, and the permissions of `ALLOWED_TOOL_PERMS` when it is set (blank is unset). */
export const commandPolicies = (env: Readonly<Record<string, string | undefined>>): Policies => {
  const allowed = env[ALLOWED_TOOL_PERMS];
  return { rules: defaultRuleEngine, ...(allowed !== undefined && allowed.trim() !== '' ? { permissions: { allowed: parsePermissionList(allowed) } } : {}) };
};

// -------------------------------------------------------------------------------------------------
// approval
// -------------------------------------------------------------------------------------------------

/**
 * Who approves the calls of a command: `--yes` everyone, `--deny` no one, else a person on a
 * terminal; without a terminal, a refusal that names the flags (`command` names the command in it).
 */
export const commandApprover = (io: CliIO, choice: ApprovalChoice, command: string): CommandApprover => {
  if (choice.yes === true) return { approver: approveAll, close: () => undefined };
  if (choice.deny === true) return { approver: denyAll, close: () => undefined };
  if (io.isTTY) {
    const terminal = terminalApprover({ input: io.stdin, output: io.stderr });
    return { approver: terminal, close: () => terminal.close() };
  }
  return {
    approver: approverFrom((request) => ({
      approved: false,
      message: `${request.reason}, and ${command} is not on a terminal to ask: pass --yes to approve such calls (or --deny to refuse them without this message)`,
    })),
    close: () => undefined,
  };
};
