/**
 * One invoker (issue 22): "judge the call, then invoke it" is composed in one place,
 * library/invoker.ts, from steps; the gate is one step (policy/gate-step.ts). No other module
 * composes the gate and `invoke`: only the gate step calls `passGate` (or `judgeCall`, its form
 * without a promise for calls decided at once), only the invoker runs
 * validated calls, and no module imports both a gate and `invoke`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

const walk = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));

/** The names each module imports (values, not types), by module path relative to src/. */
const imports = (): ReadonlyArray<{ readonly file: string; readonly names: ReadonlySet<string> }> =>
  walk(SRC).map((file) => {
    const text = readFileSync(file, 'utf8');
    const names = new Set<string>();
    for (const m of text.matchAll(/^\s*(?:import|export)\s+(?!type\b)\{([^}]*)\}\s*from\s*'[^']+'/gm)) {
      for (const part of (m[1] as string).split(',')) {
        const name = part
          .trim()
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)[0];
        if (name !== undefined && name !== '' && !part.trim().startsWith('type ')) names.add(name);
      }
    }
    return { file: relative(SRC, file), names };
  });

const GATES = ['passGate', 'judgeCall', 'gateStep'];
const INVOKES = ['invoke', 'invokeValidated', 'invokeJson', 'invokeByName'];

describe('one invoker', () => {
  const modules = imports();
  const entry = (f: string): boolean => f.startsWith('entries/') || f === 'index.ts';

  it('only the gate step calls passGate (or judgeCall)', () => {
    expect(modules.filter((m) => (m.names.has('passGate') || m.names.has('judgeCall')) && !entry(m.file)).map((m) => m.file)).toEqual(['policy/gate-step.ts']);
  });

  it('only the invoker runs calls whose arguments it validated', () => {
    expect(modules.filter((m) => m.names.has('invokeValidated') && !entry(m.file)).map((m) => m.file)).toEqual(['library/invoker.ts']);
  });

  it('no module imports both a gate and invoke: callers build an invoker from steps', () => {
    const both = modules.filter((m) => !entry(m.file) && GATES.some((g) => m.names.has(g)) && INVOKES.some((i) => m.names.has(i)));
    expect(both.map((m) => m.file)).toEqual([]);
  });

  it('the gate adapters are gone', () => {
    const files = new Set(modules.map((m) => m.file));
    expect(['catalog/gate.ts', 'mcp/gate.ts'].filter((f) => files.has(f))).toEqual([]);
  });
});
