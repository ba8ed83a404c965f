/**
 * The real-world check: every one of the 1,677 functions of the BFCL corpus (test/fixtures/bfcl)
 * imports to gram, prints, parses back, compiles to a schema equivalent to the original, and
 * accepts the accepted calls of `possible_answer`.
 *
 * "The original" is BFCL's schema read as JSON Schema, written here independently of the importer:
 * `dict` → object, `float` → number, `tuple` → array, `any` → no type, BFCL's `optional` keyword
 * removed (validators ignore it). Equivalence is checked twice: structurally (after the documented
 * normalizations below) and by ajv on samples generated from the imported type and their mutations.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type JsonObject,
  type JsonValue,
  type ToolSpecification,
  compileSchema,
  encodeToolSpecification,
  importTools,
  parseSpecifications,
  printSpecifications,
  validateToolArgs,
} from '../../src/index.js';
import { valueArbitrary } from '../../src/testing/arbitrary.js';
import { mutations } from './support/mutate.js';

const FILES = ['BFCL_v4_simple_python', 'BFCL_v4_multiple', 'BFCL_v4_parallel', 'BFCL_v4_parallel_multiple'];
const dir = new URL('../fixtures/bfcl/', import.meta.url);
const lines = (path: string): unknown[] =>
  readFileSync(new URL(path, dir), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as unknown);

interface Entry {
  readonly id: string;
  readonly function: ReadonlyArray<JsonObject & { readonly name: string; readonly parameters: JsonObject }>;
}
interface Answer {
  readonly id: string;
  readonly ground_truth: ReadonlyArray<Record<string, Record<string, unknown[]>>>;
}

// -------------------------------------------------------------------------------------------------
// BFCL's schema as JSON Schema, and the normalizations under which gramkit's schema equals it
// -------------------------------------------------------------------------------------------------

const BFCL_TO_JSON: Record<string, string | undefined> = { dict: 'object', float: 'number', tuple: 'array', any: undefined };

const asJsonSchema = (s: unknown): unknown => {
  if (Array.isArray(s)) return s.map(asJsonSchema);
  if (typeof s !== 'object' || s === null) return s;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === 'optional') continue;
    if (k === 'type' && typeof v === 'string' && v in BFCL_TO_JSON) {
      const t = BFCL_TO_JSON[v];
      if (t !== undefined) out[k] = t;
      continue;
    }
    if (k === 'properties' && typeof v === 'object' && v !== null) {
      out[k] = Object.fromEntries(Object.entries(v).map(([p, sub]) => [p, asJsonSchema(sub)]));
      continue;
    }
    out[k] = k === 'items' || k === 'additionalProperties' ? asJsonSchema(v) : v;
  }
  return out;
};

let droppedDefaults = 0;

/**
 * The documented differences: a default that does not validate against its own schema is dropped
 * (gram defaults must be valid: gramkit fills them in), names in `required` without a property
 * get `{}`, an empty `required` is omitted, `required` follows property order.
 */
const normalized = (s: unknown, count: boolean): unknown => {
  if (typeof s !== 'object' || s === null || Array.isArray(s)) return s;
  const o = { ...(s as Record<string, unknown>) };
  if (o['default'] !== undefined) {
    const { default: d, ...rest } = o;
    const c = compileSchema(rest as JsonObject);
    if (c._tag === 'Right' && !c.right.check(d)) {
      delete o['default'];
      if (count) droppedDefaults++;
    }
  }
  if (typeof o['properties'] === 'object' && o['properties'] !== null) {
    const props = Object.fromEntries(Object.entries(o['properties'] as object).map(([k, v]) => [k, normalized(v, count)]));
    for (const r of (o['required'] as string[] | undefined) ?? []) if (!(r in props)) props[r] = {};
    o['properties'] = props;
  } else if (Array.isArray(o['required']) && (o['required'] as unknown[]).length > 0) {
    o['properties'] = Object.fromEntries((o['required'] as string[]).map((r) => [r, {}]));
  }
  if (Array.isArray(o['required'])) {
    if ((o['required'] as unknown[]).length === 0) delete o['required'];
    else o['required'] = [...(o['required'] as string[])].sort();
  }
  if (o['items'] !== undefined) o['items'] = normalized(o['items'], count);
  return o;
};

// -------------------------------------------------------------------------------------------------
// possible answers → concrete calls
// -------------------------------------------------------------------------------------------------

const ABSENT = Symbol('absent');
const isDict = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The concrete values of one possibility: a dict maps keys to lists of possibilities, recursively. */
const expand = (p: unknown): unknown[] => {
  if (isDict(p)) return expandDict(p);
  if (Array.isArray(p)) {
    const items = p.map(expand);
    const base = items.map((x) => x[0]);
    const out: unknown[] = [base];
    items.forEach((opts, i) => opts.slice(1).forEach((o) => out.push(base.map((b, j) => (j === i ? o : b)))));
    return out;
  }
  return [p];
};

/**
 * Calls from `{param: [allowed values]}` (`""` = may be omitted): a base call with the first value of
 * each parameter, then one call per other allowed value of each parameter (all values are used).
 */
const expandDict = (d: Record<string, unknown>): Record<string, unknown>[] => {
  const opts: Record<string, unknown[]> = {};
  for (const [k, list] of Object.entries(d)) opts[k] = (Array.isArray(list) ? list : [list]).flatMap((x) => (x === '' ? [ABSENT] : expand(x)));
  const base: Record<string, unknown> = {};
  for (const [k, o] of Object.entries(opts)) {
    const v = o.find((x) => x !== ABSENT);
    if (v !== undefined) base[k] = v;
  }
  const out = [base];
  for (const [k, o] of Object.entries(opts)) {
    for (const x of o) {
      const c = { ...base };
      if (x === ABSENT) delete c[k];
      else c[k] = x;
      out.push(c);
    }
  }
  return out;
};

const known = JSON.parse(readFileSync(new URL('../fixtures/spec/bfcl/answer-errors.json', import.meta.url), 'utf8')) as {
  readonly errors: ReadonlyArray<{ readonly id: string; readonly function: string; readonly issues: ReadonlyArray<string> }>;
};

// -------------------------------------------------------------------------------------------------
// the test
// -------------------------------------------------------------------------------------------------

describe('BFCL corpus', { timeout: 300_000 }, () => {
  it('imports every function, round-trips through gram, compiles to an equivalent schema, and accepts the accepted calls', () => {
    let functions = 0;
    let imported = 0;
    let samples = 0;
    let calls = 0;
    const notes = new Map<string, number>();
    const invalid = new Map<string, Set<string>>();
    let invalidCalls = 0;
    droppedDefaults = 0;
    for (const file of FILES) {
      const entries = lines(`${file}.json`) as Entry[];
      const answers = new Map((lines(`possible_answer/${file}.json`) as Answer[]).map((a) => [a.id, a]));
      for (const e of entries) {
        const specs = new Map<string, ToolSpecification>();
        for (const fn of e.function) {
          functions++;
          // 1. import (BFCL dialect)
          const r = importTools(JSON.stringify(fn), { from: 'bfcl' });
          const tool = r.tools[0];
          for (const d of tool?.diagnostics ?? []) notes.set(`${d.severity}:${d.code}`, (notes.get(`${d.severity}:${d.code}`) ?? 0) + 1);
          expect(tool?.spec, `${e.id} ${fn.name}: ${JSON.stringify(tool?.diagnostics)}`).toBeDefined();
          const spec = tool?.spec as ToolSpecification;
          imported++;
          // 2. print gram, parse it back: the same specification
          const gram = printSpecifications({ tools: [spec] });
          const back = parseSpecifications(gram);
          expect(back._tag, gram).toBe('Right');
          if (back._tag !== 'Right') continue;
          const again = back.right.tools[0] as ToolSpecification;
          expect(encodeToolSpecification(again)).toEqual(encodeToolSpecification(spec));
          // 3. the compiled schema equals the original, under the documented normalizations
          const original = asJsonSchema(fn.parameters) as JsonObject;
          expect(normalized(again.schema, false), `${e.id} ${fn.name}`).toEqual(normalized(original, true));
          // 4. ... and accepts and rejects the same values (samples of the imported type, mutated)
          const a = compileSchema(original);
          const b = compileSchema(again.schema);
          if (a._tag === 'Left' || b._tag === 'Left' || again.signature === undefined) throw new Error(`${fn.name}: schema does not compile`);
          const values = fc.sample(valueArbitrary(again.signature.args, { maxItems: 3 }), { numRuns: 3, seed: functions });
          for (const v of values) {
            for (const m of [v, ...mutations(v as JsonValue, functions)]) {
              samples++;
              expect(b.right.check(m), `${fn.name} ${JSON.stringify(m)}`).toBe(a.right.check(m));
            }
          }
          specs.set(fn.name, again);
        }
        // 5. every accepted call validates (except BFCL's own data errors, listed and explained)
        const answer = answers.get(e.id);
        expect(answer, e.id).toBeDefined();
        for (const call of answer?.ground_truth ?? []) {
          for (const [fname, params] of Object.entries(call)) {
            const spec = specs.get(fname);
            expect(spec, `${e.id}: ${fname}`).toBeDefined();
            const seen = new Set<string>();
            for (const args of expandDict(params)) {
              const key = JSON.stringify(args);
              if (seen.has(key)) continue;
              seen.add(key);
              calls++;
              const r = validateToolArgs((spec as ToolSpecification).schema, args);
              if (r._tag === 'Right') continue;
              invalidCalls++;
              // the original schema rejects it too: the answer is wrong, not gramkit
              const orig = compileSchema(asJsonSchema(e.function.find((f) => f.name === fname)?.parameters) as JsonObject);
              expect(orig._tag === 'Right' && orig.right.check(args), `${e.id} ${fname} ${key}`).toBe(false);
              const group = invalid.get(`${e.id} ${fname}`) ?? new Set<string>();
              for (const i of r.left) group.add(`${i.code}@${i.path}`);
              invalid.set(`${e.id} ${fname}`, group);
            }
          }
        }
      }
    }
    expect(functions).toBe(1677);
    expect(imported).toBe(1677);
    // what the import changed, with a diagnostic each (nothing else)
    expect(Object.fromEntries(notes)).toEqual({ 'warning:SPEC_IMPORT_DEFAULT_DROPPED': 23, 'info:SPEC_IMPORT_BFCL_TUPLE': 8 });
    expect(droppedDefaults).toBe(23);
    expect(samples).toBeGreaterThan(50_000);
    expect(calls).toBe(3666);
    expect(invalidCalls).toBe(30);
    const found = [...invalid.entries()].map(([k, v]) => [k, [...v].sort()]).sort();
    const listed = known.errors.map((x) => [`${x.id} ${x.function}`, [...x.issues].sort()]).sort();
    expect(found).toEqual(listed);
    process.stdout.write(
      `BFCL: ${functions} functions, ${imported} imported, ${samples} samples agree under ajv, ${calls} accepted calls, ${calls - invalidCalls} valid, ${invalidCalls} are BFCL data errors (${invalid.size} entries)\n`,
    );
  });

  it('imports each file as one document: repeated names written once, different ones reported', () => {
    const figures: Record<string, readonly [number, number, number]> = {};
    for (const file of FILES) {
      const r = importTools(readFileSync(new URL(`${file}.json`, dir), 'utf8'), { from: 'bfcl' });
      const written = r.tools.filter((t) => t.spec !== undefined).length;
      const clashes = r.tools.filter((t) => t.diagnostics.some((d) => d.code === 'SPEC_IMPORT_DUPLICATE' && d.severity === 'error')).length;
      const back = parseSpecifications(r.gram);
      expect(back._tag).toBe('Right');
      if (back._tag === 'Right') expect(back.right.tools.length).toBe(written);
      figures[file] = [r.tools.length, written, clashes];
    }
    expect(figures).toEqual({
      BFCL_v4_simple_python: [400, 370, 30],
      BFCL_v4_multiple: [557, 443, 47],
      BFCL_v4_parallel: [200, 186, 12],
      BFCL_v4_parallel_multiple: [520, 458, 30],
    });
  });
});
