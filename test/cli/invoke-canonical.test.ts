/**
 * Canonical codes on the CLI's surface (issue 22; the law of test/policy/canonical-codes.test.ts,
 * which checks the library's surfaces): the `ToolResult` `gramkit invoke` prints for a failed call
 * has a canonical `code` and the precise `reason`, mapped to that code by its registry. Checked on a
 * sample of the ways a call fails: a library tool that throws a `ToolFailure` or returns `fail(...)`
 * with a registered code of a result registry or a code of its own (with or without a canonical code),
 * that throws anything else, that returns something not JSON; arguments that do not validate; a
 * permission `ALLOWED_TOOL_PERMS` refuses; a call that needs approval where no one can give it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { CANONICAL_CODES, codeInfo, isCanonicalCode } from '../../src/core/codes.js';
import { cli } from '../support/cli.js';
import { loadRegistries } from '../support/registries.js';

const registries = await loadRegistries();
/** Diagnostics are not failures of a result: their registries are left out. */
const DIAGNOSTICS = new Set(['GRAM', 'SPEC', 'SPEC_ARG', 'SPEC_IMPORT', 'SPEC_DIALECT']);
const RESULT_CODES = registries.filter((r) => !DIAGNOSTICS.has(r.prefix)).flatMap((r) => r.codes.map((c) => c.code));
const OWN = 'WEATHER_UNKNOWN_CITY';

type How = 'throws' | 'returns';
type Behaviour = { readonly how: How; readonly reason: string; readonly canonical?: string } | { readonly how: 'error' | 'not-json' };

const behaviours: ReadonlyArray<Behaviour> = fc.sample(
  fc.oneof(
    fc.record({ how: fc.constantFrom<How>('throws', 'returns'), reason: fc.constantFrom(...RESULT_CODES) }),
    fc.record({ how: fc.constantFrom<How>('throws', 'returns'), reason: fc.constant(OWN), canonical: fc.constantFrom(...Object.keys(CANONICAL_CODES)) }),
    fc.record({ how: fc.constantFrom<How>('throws', 'returns'), reason: fc.constant(OWN) }),
    fc.record({ how: fc.constantFrom<'error' | 'not-json'>('error', 'not-json') }),
  ),
  { numRuns: 12, seed: 22 },
);

/** The body of a tool's implementation that behaves as told. */
const body = (b: Behaviour): string => {
  const options = 'canonical' in b && b.canonical !== undefined ? `{ code: ${JSON.stringify(b.canonical)} }` : '{}';
  if (b.how === 'throws') return `() => { throw new ToolFailure(${JSON.stringify(b.reason)}, 'told to fail', ${options}); }`;
  if (b.how === 'returns') return `() => fail(${JSON.stringify(b.reason)}, 'told to fail', ${options})`;
  if (b.how === 'error') return `() => { throw new TypeError('a bug'); }`;
  return '() => ({ f: () => 1 })';
};

const root = resolve(new URL('../..', import.meta.url).pathname);
const tmp = mkdtempSync(join(tmpdir(), 'gramkit-invoke-canonical-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const GRAM = join(tmp, 'probes.gram');
const LIBRARY = join(tmp, 'probes.mjs');
const names = [...behaviours.map((_, i) => `probe${i}`), 'guarded', 'confirmed'];
writeFileSync(GRAM, names.map((n) => `[${n}:Tool {description: "Fails as it is told"} | (command::String)==>(::Any)]\n`).join(''));
writeFileSync(
  LIBRARY,
  `import { createTool, fail, ToolFailure } from ${JSON.stringify(pathToFileURL(join(root, 'dist/index.js')).href)};
const schema = { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] };
const probe = (name, run, annotations) => createTool(name, 'Fails as it is told', schema, run, annotations === undefined ? {} : { annotations });
export const tools = [
${behaviours.map((b, i) => `  probe('probe${i}', ${body(b)}),`).join('\n')}
  probe('guarded', () => 'ran', { permissions: ['proc:exec'] }),
  probe('confirmed', () => 'ran', { approval: 'confirm' }),
];
`,
);

/** What `gramkit invoke` printed of a call: the ToolResult, with the exit code. */
const invoke = async (tool: string, args: unknown, env: Record<string, string> = {}) => {
  const r = await cli(['invoke', GRAM, '--tool', tool, '--library', LIBRARY, '--args', JSON.stringify(args)], { cwd: tmp, env });
  expect(r.stdout, r.stderr).not.toBe('');
  return { code: r.code, result: JSON.parse(r.stdout) as { ok: boolean; error?: { code: unknown; reason: unknown } } };
};

/** The law: a canonical `code`, and a `reason` whose registry maps it to that code (an own code: the one given, else EXECUTION_ERROR). */
const lawful = (e: { code: unknown; reason: unknown } | undefined, own?: string): void => {
  expect(typeof e?.code === 'string' && isCanonicalCode(e.code), `code ${String(e?.code)} is canonical`).toBe(true);
  const reason = e?.reason as string;
  const info = codeInfo(reason);
  if (info !== undefined) expect(e?.code, `${reason} maps to ${info.canonical}`).toBe(info.canonical);
  else expect([reason, e?.code]).toEqual([OWN, own ?? 'EXECUTION_ERROR']);
};

describe('gramkit invoke: canonical codes', () => {
  it.each(behaviours.map((b, i) => [i, b] as const))('probe%i fails lawfully (%o), exit 1', async (i, b) => {
    const { code, result } = await invoke(`probe${i}`, { command: 'go' });
    expect([code, result.ok]).toEqual([1, false]);
    lawful(result.error, 'canonical' in b ? b.canonical : undefined);
  });

  it('arguments that do not validate, a refused permission, an approval no one can give', async () => {
    const invalid = await invoke('probe0', { command: 7 });
    lawful(invalid.result.error);
    expect(invalid.result.error?.code).toBe('INVALID_ARGUMENTS');
    const denied = await invoke('guarded', { command: 'go' }, { ALLOWED_TOOL_PERMS: 'fs:read' });
    lawful(denied.result.error);
    expect(denied.result.error?.code).toBe('DENIED');
    const unapproved = await invoke('confirmed', { command: 'go' });
    lawful(unapproved.result.error);
    expect(unapproved.result.ok).toBe(false);
    // and the same tools run when nothing refuses them
    expect((await invoke('guarded', { command: 'go' })).result).toEqual({ ok: true, value: 'ran' });
  });
});
