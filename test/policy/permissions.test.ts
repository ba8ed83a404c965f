import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkPermissions, parsePermissionList, parseSafetyLevel, permissionGranted, SAFETY_LEVELS } from '../../src/entries/policy.js';
import { type SafetyLevel } from '../../src/index.js';

const level = fc.constantFrom<SafetyLevel>('low', 'medium', 'high');
const perm = fc.constantFrom('fs:read', 'fs:write', 'net:read', 'net:write', 'proc:exec', 'docker', 'llm');

describe('permissions and safety levels', () => {
  it('denies a tool needing a permission the run does not allow, naming it', () => {
    const d = checkPermissions({ allowed: ['fs:read'] }, 'write_file', { permissions: ['fs:write'], safetyLevel: 'medium' });
    expect(d).toMatchObject({ kind: 'deny', code: 'POLICY_DENIED', source: 'permissions' });
    if (d.kind === 'deny') expect(d.reason).toBe('write_file needs the permission fs:write, which this run does not allow (allowed: fs:read)');
  });
  it('denies a tool above the maximum safety level', () => {
    const d = checkPermissions({ maxSafetyLevel: 'medium' }, 'run_code', { permissions: ['proc:exec'], safetyLevel: 'high' });
    expect(d).toMatchObject({ kind: 'deny', source: 'safety-level' });
    if (d.kind === 'deny') expect(d.reason).toBe('run_code has safety level high, above the maximum of this run (medium)');
  });
  it('families and wildcards', () => {
    expect(permissionGranted(['fs:*'], 'fs:write')).toBe(true);
    expect(permissionGranted(['fs:*'], 'fsx:write')).toBe(false);
    expect(permissionGranted(['*'], 'docker')).toBe(true);
    expect(permissionGranted([], 'fs:read')).toBe(false);
  });
  it('no policy allows everything; unannotated tools count as low unless told otherwise', () => {
    expect(checkPermissions({}, 't', { permissions: ['docker'], safetyLevel: 'high' }).kind).toBe('allow');
    expect(checkPermissions({ maxSafetyLevel: 'low' }, 'plain', undefined).kind).toBe('allow');
    expect(checkPermissions({ maxSafetyLevel: 'low', unannotatedSafetyLevel: 'high' }, 'plain', undefined).kind).toBe('deny');
  });
  it('parses ALLOWED_TOOL_PERMS lists (comma-separated permissions) and safety levels', () => {
    expect(parsePermissionList(' fs:read, net:read ,,proc:exec ')).toEqual(['fs:read', 'net:read', 'proc:exec']);
    expect(parseSafetyLevel('Medium')).toBe('medium');
    expect(parseSafetyLevel('extreme')).toBeUndefined();
  });
  it('law: allowed exactly when every permission is granted and the level is within the maximum', () => {
    fc.assert(
      fc.property(fc.uniqueArray(perm), fc.uniqueArray(perm), level, level, (allowed, needed, toolLevel, max) => {
        const d = checkPermissions({ allowed, maxSafetyLevel: max }, 't', { permissions: needed, safetyLevel: toolLevel });
        const expected = needed.every((p) => allowed.includes(p)) && SAFETY_LEVELS.indexOf(toolLevel) <= SAFETY_LEVELS.indexOf(max);
        expect(d.kind === 'allow').toBe(expected);
      }),
    );
  });
});
