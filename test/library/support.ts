/**
 * Helpers for the library tests: hand-made specifications (the spec layer builds them from gram;
 * these tests only need the data), tools that implement them, bound tools.
 */
import { readFileSync } from 'node:fs';
import {
  bindTool,
  type BoundTool,
  createTool,
  type JsonObject,
  type JsonSchema,
  type Tool,
  type ToolImplementation,
  type ToolLimits,
  type ToolSpecification,
  toolLibrary,
} from '../../src/index.js';

export const spec = (name: string, schema: JsonObject, outputSchema: JsonSchema = {}, description = `The ${name} tool`): ToolSpecification => ({
  name,
  description,
  typeSignature: '',
  schema,
  outputSchema,
});

/** A tool that implements `s` exactly. */
export const toolFor = (s: ToolSpecification, impl: ToolImplementation, options: { limits?: ToolLimits; declareOutput?: boolean } = {}): Tool =>
  createTool(s.name, s.description, s.schema, impl, {
    ...(options.declareOutput === true ? { outputSchema: s.outputSchema } : {}),
    ...(options.limits !== undefined ? { limits: options.limits } : {}),
  });

/** `s` bound to a library holding `impl` for it; fails the test when binding fails. */
export const boundFor = (s: ToolSpecification, impl: ToolImplementation, options: { limits?: ToolLimits } & Parameters<typeof bindTool>[2] = {}): BoundTool => {
  const { limits, ...bindOptions } = options;
  const r = bindTool(s, toolLibrary([toolFor(s, impl, limits !== undefined ? { limits } : {})]), bindOptions);
  if (r._tag === 'Left') throw new Error(`bind failed: ${r.left.map((e) => e.message).join('; ')}`);
  return r.right;
};

export const greetSpec = spec(
  'greet',
  {
    type: 'object',
    properties: { name: { type: 'string', description: 'Who to greet' }, times: { type: 'integer', minimum: 1, default: 1 } },
    required: ['name'],
    additionalProperties: false,
  },
  { type: 'string' },
  'Returns a friendly greeting for the given name',
);

export const greet: ToolImplementation<{ name: string; times: number }, string> = (a) => Array(a.times).fill(`Hello, ${a.name}!`).join(' ');

// -------------------------------------------------------------------------------------------------
// BFCL: real tool schemas (test/fixtures/bfcl), in their dialect ("dict", "float", "tuple", "any")
// -------------------------------------------------------------------------------------------------

interface BfclFunction {
  readonly name: string;
  readonly description: string;
  readonly parameters: Record<string, unknown>;
}

const BFCL_TYPES: Record<string, string> = { dict: 'object', float: 'number', tuple: 'array' };

/** BFCL's type names as JSON Schema (a test-only translation; the spec layer owns the real one). */
const fromBfcl = (v: unknown): unknown => {
  if (Array.isArray(v)) return v.map(fromBfcl);
  if (typeof v !== 'object' || v === null) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    if (k === 'type' && typeof x === 'string') {
      if (x !== 'any') out[k] = BFCL_TYPES[x] ?? x;
    } else if (k === 'properties' && typeof x === 'object' && x !== null) {
      out[k] = Object.fromEntries(Object.entries(x).map(([p, s]) => [p, fromBfcl(s)]));
    } else {
      out[k] = fromBfcl(x);
    }
  }
  return out;
};

const lines = (file: string): Array<Record<string, unknown>> =>
  readFileSync(new URL(`../fixtures/bfcl/${file}`, import.meta.url), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/** Every distinct BFCL function of the vendored files as a specification (first definition of a name wins: a few names have several). */
export const bfclSpecs = (
  files: ReadonlyArray<string> = ['BFCL_v4_simple_python.json', 'BFCL_v4_multiple.json', 'BFCL_v4_parallel.json', 'BFCL_v4_parallel_multiple.json'],
): ReadonlyArray<ToolSpecification> => {
  const byName = new Map<string, ToolSpecification>();
  for (const f of files) {
    for (const entry of lines(f)) {
      for (const fn of entry['function'] as BfclFunction[]) {
        if (!byName.has(fn.name)) byName.set(fn.name, spec(fn.name, fromBfcl(fn.parameters) as JsonObject, {}, fn.description));
      }
    }
  }
  return [...byName.values()];
};

/**
 * An accepted value with its nested dicts resolved: in BFCL answers every dict key (also in dicts
 * inside arrays) holds the list of its accepted values, `""` meaning "may be left out".
 */
const resolveAccepted = (v: unknown): unknown =>
  Array.isArray(v) ? v.map(resolveAccepted) : typeof v === 'object' && v !== null ? firstAccepted(v as Record<string, unknown>) : v;

const firstAccepted = (params: Record<string, unknown>): Record<string, unknown> => {
  const args: Record<string, unknown> = {};
  for (const [p, accepted] of Object.entries(params)) {
    const first = Array.isArray(accepted) ? accepted.find((x) => x !== '') : accepted;
    if (first !== undefined) args[p] = resolveAccepted(first);
  }
  return args;
};

/**
 * The accepted calls of the simple category, each with the specification of its own entry (a few
 * names are defined differently in different entries), each parameter at its first accepted value.
 */
export const bfclSimpleCalls = (): ReadonlyArray<readonly [ToolSpecification, Record<string, unknown>]> => {
  const entries = new Map(lines('BFCL_v4_simple_python.json').map((e) => [e['id'], e['function'] as BfclFunction[]]));
  return lines('possible_answer/BFCL_v4_simple_python.json').flatMap((entry) =>
    (entry['ground_truth'] as Array<Record<string, Record<string, unknown[]>>>).flatMap((call) => {
      const [name, params] = Object.entries(call)[0] as [string, Record<string, unknown[]>];
      const fn = entries.get(entry['id'])?.find((f) => f.name === name);
      if (fn === undefined) return [];
      return [[spec(fn.name, fromBfcl(fn.parameters) as JsonObject, {}, fn.description), firstAccepted(params)] as const];
    }),
  );
};
