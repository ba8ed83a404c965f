/**
 * Permissions and safety levels: a run allows a set of permissions (`fs:read`,
 * `fs:write`, `net:read`, `proc:exec`, ...) and a maximum safety level (`low` < `medium` < `high`);
 * a tool that needs a permission outside the set, or is more dangerous than the level, is denied
 * with the reason. Without a policy everything is allowed (a permissive default).
 */
import type { SafetyLevel, ToolAnnotations } from '../library/tool.js';
import { policyAllow, policyDeny, type PolicyDecision } from './decision.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface PermissionPolicy {
  /**
   * Permissions the run allows: exact (`fs:read`), a family (`fs:*`), or everything (`*`).
   * Absent: every permission is allowed.
   */
  readonly allowed?: ReadonlyArray<string>;
  /** The most dangerous level allowed. Absent: `high` (all). */
  readonly maxSafetyLevel?: SafetyLevel;
  /**
   * How to judge a tool that declares no safety level (a plain function tool). Default `low`: a
   * tool that states nothing is taken as harmless, and `allowed` still applies to what it states.
   * Set `high` to deny unannotated tools under any lower maximum.
   */
  readonly unannotatedSafetyLevel?: SafetyLevel;
}

export const SAFETY_LEVELS: ReadonlyArray<SafetyLevel> = ['low', 'medium', 'high'];

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

/**
 * A permission list from text such as the `ALLOWED_TOOL_PERMS` environment variable (`fs:read,net:read`): commas
 * or spaces separate, blanks are dropped.
 */
export const parsePermissionList = (text: string): ReadonlyArray<string> =>
  text
    .split(/[\s,]+/)
    .map((p) => p.trim())
    .filter((p) => p !== '');

/** `low`, `medium` or `high` (any case), or undefined. */
export const parseSafetyLevel = (text: string): SafetyLevel | undefined => {
  const t = text.trim().toLowerCase();
  return SAFETY_LEVELS.find((l) => l === t);
};

// -------------------------------------------------------------------------------------------------
// checking
// -------------------------------------------------------------------------------------------------

/** Whether `permission` is granted by an allowlist entry (`fs:read`, `fs:*`, `*`). */
export const permissionGranted = (allowed: ReadonlyArray<string>, permission: string): boolean =>
  allowed.some((a) => a === '*' || a === permission || (a.endsWith(':*') && permission.startsWith(a.slice(0, -1))));

/** `allow`, or `deny` naming every missing permission or the excess of safety level. */
export const checkPermissions = (policy: PermissionPolicy, tool: string, annotations: ToolAnnotations | undefined): PolicyDecision => {
  if (policy.allowed !== undefined) {
    const missing = (annotations?.permissions ?? []).filter((p) => !permissionGranted(policy.allowed as ReadonlyArray<string>, p));
    if (missing.length > 0) {
      const allowedText = policy.allowed.length === 0 ? 'none' : policy.allowed.join(', ');
      return policyDeny(
        `${tool} needs the permission${missing.length > 1 ? 's' : ''} ${missing.join(', ')}, which this run does not allow (allowed: ${allowedText})`,
        'permissions',
      );
    }
  }
  if (policy.maxSafetyLevel !== undefined) {
    const level = annotations?.safetyLevel ?? policy.unannotatedSafetyLevel ?? 'low';
    if (rank(level) > rank(policy.maxSafetyLevel)) {
      return policyDeny(`${tool} has safety level ${level}, above the maximum of this run (${policy.maxSafetyLevel})`, 'safety-level');
    }
  }
  return policyAllow;
};

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

const rank = (l: SafetyLevel): number => SAFETY_LEVELS.indexOf(l);
