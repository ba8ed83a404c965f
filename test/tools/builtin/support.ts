/**
 * Helpers for the built-in tool tests: a temporary workspace (with a sibling directory outside it
 * holding a secret), and calls through the public pipeline (bind the built-in specifications to
 * the built-in library, then `invokeByName`, which validates arguments and results).
 */
import { mkdtempSync, rmSync, writeFileSync, mkdirSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll } from 'vitest';
import { bindAll, invokeByName, type BoundTools, type ToolResult } from '../../../src/index.js';
import { builtinLibrary, builtinSpecifications, type BuiltinOptions } from '../../../src/entries/builtins.js';

export const SECRET = 'TOP-SECRET-OUTSIDE-THE-WORKSPACE';

export interface Sandbox {
  /** The workspace root (a real path). */
  readonly ws: string;
  /** A directory beside it, outside, holding secret.txt. */
  readonly outside: string;
  readonly file: (rel: string, content?: string) => string;
  readonly dir: (rel: string) => string;
}

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** A fresh workspace and an outside directory with a secret, removed after the test file. */
export const workspace = (): Sandbox => {
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'gramkit-builtins-')));
  made.push(base);
  const ws = path.join(base, 'ws');
  const outside = path.join(base, 'outside');
  mkdirSync(ws);
  mkdirSync(outside);
  writeFileSync(path.join(outside, 'secret.txt'), SECRET);
  return {
    ws,
    outside,
    file: (rel, content = '') => {
      const p = path.join(ws, rel);
      mkdirSync(path.dirname(p), { recursive: true });
      writeFileSync(p, content);
      return p;
    },
    dir: (rel) => {
      const p = path.join(ws, rel);
      mkdirSync(p, { recursive: true });
      return p;
    },
  };
};

/** The built-in tools bound to their specifications, for `options`. */
export const bound = (options: BuiltinOptions): BoundTools => {
  const r = bindAll(builtinSpecifications(), builtinLibrary(options));
  if (r._tag === 'Left') throw new Error(`bind failed: ${r.left.map((e) => e.message).join('; ')}`);
  return r.right;
};

/** A caller of the built-in tools of `options`. */
export const caller = (options: BuiltinOptions) => {
  const tools = bound(options);
  return (name: string, args: Record<string, unknown>, timeoutMs?: number): Promise<ToolResult> =>
    invokeByName(tools, name, args, timeoutMs !== undefined ? { timeoutMs } : undefined);
};

/** The value of an ok result (fails the test otherwise, showing the error). */
export const value = <T = Record<string, unknown>>(r: ToolResult): T => {
  if (!r.ok) throw new Error(`expected ok, got ${r.error.code}: ${r.error.message}`);
  return r.value as T;
};

/** The error code of a failed result (fails the test otherwise). */
export const code = (r: ToolResult): string => {
  if (r.ok) throw new Error(`expected a failure, got ${JSON.stringify(r.value).slice(0, 200)}`);
  return r.error.reason;
};
