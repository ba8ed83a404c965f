/**
 * Policies before a call runs: permissions and a maximum safety level for the run, the default
 * safety rules plus a rule of your own, and approvals answered by a scripted approver (the CLI's
 * `--yes`/`--deny`, or a terminal). Run it: `npx tsx examples/policies.ts`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { addRule, approverFrom, defaultRuleEngine, evaluatePolicies, forbiddenPathsRule, withPolicies, type Policies } from 'gramkit/policy';
import { builtinTools } from 'gramkit/builtins';
import { type Tool } from 'gramkit';

export const policiesTour = async (): Promise<string[]> => {
  const workspace = mkdtempSync(join(tmpdir(), 'gramkit-example-'));
  const out: string[] = [];
  try {
    writeFileSync(join(workspace, 'report.txt'), 'draft');
    const tools = new Map(builtinTools({ workspace, sandbox: { mode: 'none' } }).map((t) => [t.name, t] as const));
    const tool = (name: string): Tool => tools.get(name) as Tool;

    // 1. the run's policies: what it may do at all, safety rules (defaults + one of ours), approvals
    const policies: Policies = {
      permissions: { allowed: ['fs:read', 'fs:write'], maxSafetyLevel: 'high' },
      rules: addRule(defaultRuleEngine, forbiddenPathsRule({ name: 'no-env-files', paths: ['.env'] })),
    };
    const decide = async (name: string, args: Record<string, unknown>) => {
      const d = await evaluatePolicies(policies, { tool: name, args, annotations: tool(name).annotations });
      return `${name} ${JSON.stringify(args)} → ${d.kind}${d.kind === 'allow' ? '' : `: ${d.reason}`}`;
    };
    out.push(await decide('read_file', { path: 'report.txt' }));
    out.push(await decide('write_file', { path: 'new.txt', content: 'x' }));
    out.push(await decide('write_file', { path: 'report.txt', content: 'final' }));
    out.push(await decide('delete_file', { path: 'report.txt' }));
    out.push(await decide('read_file', { path: 'config/.env' }));
    out.push(await decide('shell', { command: 'ls -la' }));

    // 2. a guarded tool asks the approver; here a script approves overwrites of .txt files only
    const approver = approverFrom((req) => ({ approved: String(req.args['path']).endsWith('.txt') }));
    const write = withPolicies(tool('write_file'), { policies, approver });
    const ctx = { signal: new AbortController().signal, toolName: 'write_file', context: { stepId: 'step-1' } };
    out.push(`overwrite report.txt: ${JSON.stringify(await write.invoke({ path: 'report.txt', content: 'final' }, ctx))}`);
    const del = withPolicies(tool('delete_file'), { policies, approver: approverFrom(() => ({ approved: false, message: 'keep it' })) });
    const deleted = await Promise.resolve(del.invoke({ path: 'report.txt' }, ctx)).then(
      () => 'deleted',
      (e: { reason: string; message: string }) => `${e.reason}: ${e.message}`,
    );
    out.push(`delete report.txt: ${deleted}`);
    return out;
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
};

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const line of await policiesTour()) process.stdout.write(`${line}\n`);
}
