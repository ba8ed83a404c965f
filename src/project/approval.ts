/**
 * The policies every command runs tools under, and who approves the calls that need approval: one
 * place for `run`, `invoke`, `mcp`, `ab`, `worker` and `serve`.
 *
 * - Policies: the default safety rules, and the permissions of `ALLOWED_TOOL_PERMS` when it is set.
 * - The approver: `--yes` approves every call, `--deny` refuses every one; else a person on a
 *   terminal when the command has one to ask; else what the command does unattended (a refusal
 *   that says how to approve, a queue, or none: the caller's default refusal).
 */
import type { ApprovalRequest, Approver } from '../policy/approvals.js';
import { approveAll, approverFrom, denyAll, terminalApprover } from '../policy/approvers.js';
import { defaultRuleEngine } from '../policy/default-rules.js';
import type { Policies } from '../policy/evaluate.js';
import { parsePermissionList } from '../policy/permissions.js';

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

/** What a command can do when neither flag is given. */
export interface ApprovalSetting {
  /** A terminal to ask a person on (its input and where prompts go). */
  readonly terminal?: { readonly input: NodeJS.ReadableStream; readonly output: (text: string) => void };
  /** Without a terminal: the approver (a refusal saying how to approve, a queue); none leaves the caller's default. */
  readonly unattended?: Approver;
}

/** An approver (none: the caller's default) and what ends it (a terminal approver stops reading its input). */
export interface ChosenApprover {
  readonly approver?: Approver;
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
// the approver
// -------------------------------------------------------------------------------------------------

const nothingToClose = (): void => undefined;

/** Who approves the calls of a command (see the module comment). */
export const chooseApprover = (choice: ApprovalChoice, setting: ApprovalSetting = {}): ChosenApprover => {
  if (choice.yes === true) return { approver: approveAll, close: nothingToClose };
  if (choice.deny === true) return { approver: denyAll, close: nothingToClose };
  if (setting.terminal !== undefined) {
    const terminal = terminalApprover(setting.terminal);
    return { approver: terminal, close: () => terminal.close() };
  }
  return { ...(setting.unattended !== undefined ? { approver: setting.unattended } : {}), close: nothingToClose };
};

/** An approver that refuses every call, saying why (`why` names the flags that change it). */
export const refusing = (why: (request: ApprovalRequest) => string): Approver => approverFrom((request) => ({ approved: false, message: why(request) }));
