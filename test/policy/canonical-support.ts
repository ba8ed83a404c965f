/**
 * What the laws of canonical codes (issue 22) share, one copy: the generated ways a call fails
 * (`behaviourArb`), an implementation that behaves as told (as a function, and as the source of a
 * library module for the CLI's surfaces), and the laws: `lawful` (a canonical `code`, a `reason`
 * its registry maps to it) and `registryStatus`/`registryRetryable` (what the registry says of a
 * failure's HTTP status and retryability). Used by test/policy/canonical-codes*.test.ts.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { expect } from 'vitest';
import { CANONICAL_CODES, type CanonicalCode, codeInfo, httpStatusOf, isCanonicalCode } from '../../src/core/codes.js';
import type { Approver } from '../../src/entries/policy.js';
import { type Catalog, openCatalog, openFileStore } from '../../src/entries/catalog.js';
import { createTool, fail, parseSpecifications, ToolFailure, toolLibrary } from '../../src/index.js';
import { isLeft } from '../../src/core/either.js';
import { loadRegistries } from '../support/registries.js';

export const registries = await loadRegistries();
/** Diagnostics are not failures of a result: their registries are left out. */
const DIAGNOSTICS = new Set(['GRAM', 'SPEC', 'SPEC_ARG', 'SPEC_IMPORT', 'SPEC_DIALECT']);
export const RESULT_CODES = registries.filter((r) => !DIAGNOSTICS.has(r.prefix)).flatMap((r) => r.codes.map((c) => c.code));
export const OWN = 'WEATHER_UNKNOWN_CITY';

const parsed = parseSpecifications(
  `[probe:Tool {description: "Fails as it is told"} | (command::String)==>(::Any)]
[helper:Agent {description: "A test agent", instruction: "Use the tool."} | probe]`,
  { filename: 'canonical.gram' },
);
if (isLeft(parsed)) throw new Error(JSON.stringify(parsed.left));
export const spec = parsed.right.tools[0] as (typeof parsed.right.tools)[number];
export const agent = parsed.right.agents[0] as (typeof parsed.right.agents)[number];

export type Behaviour =
  | { readonly kind: 'throws' | 'returns'; readonly reason: string; readonly canonical?: CanonicalCode }
  | { readonly kind: 'error' | 'not-json' | 'ok' };

/** The ways an implementation ends: a registered precise code or its own (with or without a canonical code), thrown or returned; a bug; not JSON; fine. */
export const behaviourArb: fc.Arbitrary<Behaviour> = fc.oneof(
  fc.record({ kind: fc.constantFrom<'throws' | 'returns'>('throws', 'returns'), reason: fc.constantFrom(...RESULT_CODES, OWN) }),
  fc.record({
    kind: fc.constantFrom<'throws' | 'returns'>('throws', 'returns'),
    reason: fc.constant(OWN),
    canonical: fc.constantFrom(...(Object.keys(CANONICAL_CODES) as CanonicalCode[])),
  }),
  fc.record({ kind: fc.constantFrom<'error' | 'not-json' | 'ok'>('error', 'not-json', 'ok') }),
);

export const APPROVERS: Readonly<Record<string, Approver | undefined>> = {
  none: undefined,
  yes: async () => ({ approved: true }),
  no: async () => ({ approved: false, message: 'no' }),
};

export const caseArb = fc.record({
  behaviour: behaviourArb,
  denied: fc.boolean(),
  confirm: fc.boolean(),
  approver: fc.constantFrom(...Object.keys(APPROVERS)),
  valid: fc.boolean(),
});

export const implementation = (b: Behaviour) => (): unknown => {
  switch (b.kind) {
    case 'throws':
      throw new ToolFailure(b.reason, 'told to fail', b.canonical !== undefined ? { code: b.canonical } : {});
    case 'returns':
      return fail(b.reason, 'told to fail', b.canonical !== undefined ? { code: b.canonical } : {});
    case 'error':
      throw new TypeError('a bug');
    case 'not-json':
      return { f: () => 1 };
    default:
      return 'fine';
  }
};

/** `implementation(b)` as the source of a function, for a library module a CLI loads (the built package's `fail` and `ToolFailure` in scope). */
export const implementationSource = (b: Behaviour): string => {
  const options = 'canonical' in b && b.canonical !== undefined ? `{ code: ${JSON.stringify(b.canonical)} }` : '{}';
  switch (b.kind) {
    case 'throws':
      return `() => { throw new ToolFailure(${JSON.stringify(b.reason)}, 'told to fail', ${options}); }`;
    case 'returns':
      return `() => fail(${JSON.stringify(b.reason)}, 'told to fail', ${options})`;
    case 'error':
      return `() => { throw new TypeError('a bug'); }`;
    case 'not-json':
      return '() => ({ f: () => 1 })';
    default:
      return "() => 'fine'";
  }
};

const ROOT = new URL('../..', import.meta.url).pathname;

/**
 * A specification file and a library module (of the built package, dist/) in `dir`: tools
 * `probe<i>` that behave as `behaviours[i]`, `guarded` (needs `proc:exec`) and `confirmed` (needs
 * approval). Returns the two paths and the tools' names.
 */
export const writeProbes = (dir: string, behaviours: ReadonlyArray<Behaviour>): { gram: string; library: string; names: string[] } => {
  const gram = join(dir, 'probes.gram');
  const library = join(dir, 'probes.mjs');
  const names = [...behaviours.map((_, i) => `probe${i}`), 'guarded', 'confirmed'];
  writeFileSync(gram, names.map((n) => `[${n}:Tool {description: "Fails as it is told"} | (command::String)==>(::Any)]\n`).join(''));
  writeFileSync(
    library,
    `import { createTool, fail, ToolFailure } from ${JSON.stringify(pathToFileURL(join(ROOT, 'dist/index.js')).href)};
const schema = { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] };
const probe = (name, run, annotations) => createTool(name, 'Fails as it is told', schema, run, annotations === undefined ? {} : { annotations });
export const tools = [
${behaviours.map((b, i) => `  probe('probe${i}', ${implementationSource(b)}),`).join('\n')}
  probe('guarded', () => 'ran', { permissions: ['proc:exec'] }),
  probe('confirmed', () => 'ran', { approval: 'confirm' }),
];
`,
  );
  return { gram, library, names };
};

/** What a surface reports of a failure: its two codes. */
export interface Codes {
  readonly code: unknown;
  readonly reason: unknown;
}

/** The law: a canonical `code`, and a `reason` whose registry maps it to that code (an own code: the one given, else EXECUTION_ERROR). */
export const lawful = (surface: string, e: Codes, b: Behaviour): void => {
  expect(typeof e.code === 'string' && isCanonicalCode(e.code), `${surface}: code ${String(e.code)} is canonical`).toBe(true);
  expect(typeof e.reason, `${surface}: reason`).toBe('string');
  const reason = e.reason as string;
  const info = codeInfo(reason);
  if (info !== undefined) expect(e.code, `${surface}: ${reason} maps to ${info.canonical}`).toBe(info.canonical);
  else {
    expect(reason, `${surface}: an unregistered reason is the implementation's own`).toBe(OWN);
    expect(e.code, `${surface}: ${reason}`).toBe(
      'kind' in b && b.kind !== 'error' && 'canonical' in b && b.canonical !== undefined ? b.canonical : 'EXECUTION_ERROR',
    );
  }
};

/**
 * The law of HTTP statuses (REST): a failure whose precise code's registry entry has an `http` is
 * a problem with that status; one without (a tool's own failure) is a 200 `{ok: false}` result,
 * or a problem with its canonical code's status. `retryable` (absent: false) is the registry's,
 * for a registered code whose registry says `true` or `false`; otherwise the error says (a boolean).
 */
export const lawfulHttp = (surface: string, status: number, e: Codes & { readonly retryable?: unknown }, result: boolean): void => {
  const reason = e.reason as string;
  const precise = httpStatusOf(reason);
  if (result) expect(precise, `${surface}: ${reason} has the status ${String(precise)}, not a 200 result`).toBeUndefined();
  else expect(status, `${surface}: the status of ${reason}`).toBe(precise ?? CANONICAL_CODES[e.code as CanonicalCode].http);
  const retry = codeInfo(reason)?.retryable;
  const said = e.retryable ?? false;
  if (typeof retry === 'boolean') expect(said, `${surface}: retryable of ${reason}`).toBe(retry);
  else expect(typeof said, `${surface}: retryable of ${reason}`).toBe('boolean');
};

/** A sample of `n` behaviours, and every registered code whose registry does not say "not retryable", thrown and returned (the law of `retryable` put to the test). */
export const probeBehaviours = (n: number): Behaviour[] => [
  ...fc.sample(behaviourArb, { numRuns: n, seed: 22 }),
  ...RESULT_CODES.filter((c) => codeInfo(c)?.retryable !== false).flatMap((reason): Behaviour[] => [
    { kind: 'throws', reason },
    { kind: 'returns', reason },
  ]),
];

/**
 * A catalog (a file store under `dir`) of the function tools `probe<i>` that behave as
 * `behaviours[i]`, `guarded` (needs `proc:exec`, which its policy refuses) and `confirmed` (needs
 * an approval no one gives), discovered.
 */
export const openProbeCatalog = async (dir: string, behaviours: ReadonlyArray<Behaviour>): Promise<Catalog> => {
  const probes = behaviours.map((b, i) => createTool(`probe${i}`, 'Fails as it is told', spec.schema, implementation(b), {}));
  const guarded = createTool('guarded', 'Needs a permission', spec.schema, () => 'ran', { annotations: { permissions: ['proc:exec'] } });
  const confirmed = createTool('confirmed', 'Needs approval', spec.schema, () => 'ran', { annotations: { approval: 'confirm' } });
  const opened = await openCatalog({
    store: openFileStore(dir),
    workspace: dir,
    allowHosts: [],
    functions: toolLibrary([...probes, guarded, confirmed]),
    policies: { permissions: { allowed: [] } },
  });
  if (!opened.ok) throw new Error(opened.error.message);
  const discovered = await opened.value.discover();
  if (!discovered.ok) throw new Error(discovered.error.message);
  return opened.value;
};
