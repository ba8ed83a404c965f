/**
 * Built-in tools and policies: what confinement, sandboxing and policy checks cost, as ratios
 * against the unguarded operation measured in the same run.
 * - read_file (path resolution, verified open, strict UTF-8) vs `fs.readFile`;
 * - evaluatePolicies (permissions + default rules + approval) on a shell call vs a bare tool call;
 * - text_search in its worker (deadline-guarded) vs the same regex inline;
 * - run_code in bubblewrap vs unsandboxed (start-up cost of the sandbox).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bestOf, formatNs, measure, ratio, report } from './harness.js';
import { builtinTools, probeSandbox } from '../src/entries/builtins.js';
import { checkRules, defaultRuleEngine, evaluatePolicies } from '../src/entries/policy.js';
import { findBwrap } from '../src/tools/builtin/sandbox.js';
import { type Tool } from '../src/index.js';

export default async function builtinsBench(): Promise<void> {
  const ws = mkdtempSync(join(tmpdir(), 'gramkit-bench-'));
  try {
    const text = `${'lorem ipsum dolor sit amet TODO fix this\n'.repeat(2000)}`;
    writeFileSync(join(ws, 'file.txt'), text);
    const tools = new Map(builtinTools({ workspace: ws, sandbox: { mode: 'none' } }).map((t) => [t.name, t] as const));
    const tool = (n: string): Tool => tools.get(n) as Tool;
    const ctx = { signal: new AbortController().signal, toolName: 'x' };

    // read_file vs fs.readFile (80 KB file)
    const plain = await measure('fs.readFile', () => readFile(join(ws, 'file.txt'), 'utf8'), { ms: 800 });
    const guarded = await measure('read_file', () => tool('read_file').invoke({ path: 'file.txt' }, ctx), { ms: 800 });

    // policies on a shell call
    const shellArgs = { command: 'git log --oneline | head -20 && npm test -- --reporter=dot > out.log 2>&1' };
    const annotations = tool('shell').annotations;
    const noop = async (args: unknown) => args;
    const bare = await measure('bare call', () => noop(shellArgs), { ms: 500, batch: 100 });
    const policed = await measure(
      'evaluatePolicies',
      () =>
        evaluatePolicies(
          { permissions: { allowed: ['proc:exec', 'fs:*', 'net:read'] }, rules: defaultRuleEngine },
          { tool: 'shell', args: shellArgs, annotations },
        ),
      { ms: 800, batch: 20 },
    );
    const rulesOnly = await measure('checkRules', () => checkRules(defaultRuleEngine, 'shell', shellArgs), { ms: 800, batch: 20 });

    // text_search in the worker vs inline
    const re = /TODO \w+/g;
    const inline = await measure(
      'inline regex',
      () => {
        let n = 0;
        for (const line of text.split('\n')) {
          re.lastIndex = 0;
          while (re.exec(line) !== null) n++;
        }
        return n;
      },
      { ms: 800 },
    );
    const worker = await measure('text_search', () => tool('text_search').invoke({ pattern: 'TODO \\w+', text }, ctx), { ms: 800 });

    const rows: Array<readonly [string, string]> = [
      ['read_file 80 KB', `${formatNs(guarded.nsPerOp)} vs fs.readFile ${formatNs(plain.nsPerOp)}: ${ratio(guarded.nsPerOp / plain.nsPerOp)}`],
      ['checkRules (default rules, shell)', formatNs(rulesOnly.nsPerOp)],
      ['evaluatePolicies (shell)', `${formatNs(policed.nsPerOp)} (a bare async call: ${formatNs(bare.nsPerOp)})`],
      ['text_search 2,000 lines', `${formatNs(worker.nsPerOp)} vs inline ${formatNs(inline.nsPerOp)}: ${ratio(worker.nsPerOp / inline.nsPerOp)}`],
    ];

    // sandbox start-up
    const bwrap = await findBwrap(undefined);
    const runCode = tool('run_code');
    const unsandboxedMs = await bestOf(5, () => runCode.invoke({ language: 'bash', code: 'true' }, ctx));
    if (bwrap !== undefined && (await probeSandbox(bwrap, false, ws)).ok) {
      const sandboxed = builtinTools({ workspace: ws }).find((t) => t.name === 'run_code') as Tool;
      const sandboxedMs = await bestOf(5, () => sandboxed.invoke({ language: 'bash', code: 'true' }, ctx));
      rows.push([
        'run_code `true`, best of 5',
        `bwrap ${sandboxedMs.toFixed(1)} ms vs unsandboxed ${unsandboxedMs.toFixed(1)} ms: ${ratio(sandboxedMs / unsandboxedMs)}`,
      ]);
    } else rows.push(['run_code `true`, best of 5', `unsandboxed ${unsandboxedMs.toFixed(1)} ms (bubblewrap not available here)`]);
    report('builtins and policies', rows);
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
}
