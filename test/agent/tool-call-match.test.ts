/**
 * The scorer of `expectedToolCalls` against BFCL's published possible answers (test/fixtures/bfcl,
 * Apache-2.0): every possible answer, written as calls, matches; mutations of it score as BFCL's
 * AST checker scores them (the kind is BFCL's error type).
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type AskedToolCall, type ExpectedToolCall, matchToolCalls } from '../../src/index.js';

type Fn = { name: string; parameters: { properties: Record<string, { type?: string }>; required?: string[] } };
interface Entry {
  readonly id: string;
  readonly functions: ReadonlyArray<Fn>;
  readonly answers: ReadonlyArray<ExpectedToolCall>;
}

const FILES = ['BFCL_v4_simple_python', 'BFCL_v4_multiple', 'BFCL_v4_parallel', 'BFCL_v4_parallel_multiple'];
const lines = (path: string): unknown[] =>
  readFileSync(new URL(`../fixtures/bfcl/${path}`, import.meta.url), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as unknown);

const entries: Entry[] = FILES.flatMap((f) => {
  const answers = new Map(lines(`possible_answer/${f}.json`).map((x) => [(x as { id: string }).id, (x as { ground_truth: ExpectedToolCall[] }).ground_truth]));
  return lines(`${f}.json`).map((x) => {
    const e = x as { id: string; function: Fn[] };
    return { id: e.id, functions: e.function, answers: answers.get(e.id) ?? [] };
  });
});

const schemaOf = (e: Entry) => (name: string) => e.functions.find((f) => f.name === name)?.parameters as never;

/** A value as a call passes it: in an object (BFCL writes its keys' allowed values as lists), the first allowed value of each key. */
const instantiate = (v: unknown): unknown => {
  if (Array.isArray(v)) return v.map(instantiate);
  if (typeof v !== 'object' || v === null) return v;
  const out: Record<string, unknown> = {};
  for (const [k, values] of Object.entries(v)) {
    const allowed = (values as unknown[]).filter((x) => x !== '');
    if (allowed.length > 0) out[k] = instantiate(allowed[0]);
  }
  return out;
};

/** The calls of an answer: for each parameter the `pick`-th allowed value that is not `""` (left out when there is none). */
const callsOf = (answers: ReadonlyArray<ExpectedToolCall>, pick: (n: number) => number): AskedToolCall[] =>
  answers.map((a) => {
    const [name, params] = Object.entries(a)[0] as [string, Record<string, unknown[]>];
    const args: Record<string, unknown> = {};
    for (const [p, values] of Object.entries(params)) {
      const allowed = values.filter((v) => v !== '');
      if (allowed.length > 0) args[p] = instantiate(allowed[pick(allowed.length)]);
    }
    return { name, arguments: args };
  });

const kindOf = (e: Entry, calls: AskedToolCall[]): string => {
  const r = matchToolCalls(e.answers, calls, schemaOf(e));
  return r.match ? 'match' : r.kind;
};

describe('expectedToolCalls with BFCL’s possible answers', () => {
  it('reads the four categories: 1,000 entries, each with its answer', () => {
    expect(entries).toHaveLength(1000);
    expect(entries.every((e) => e.answers.length > 0)).toBe(true);
  });

  it('every possible answer matches: first allowed values, last allowed values, calls in reverse order', () => {
    const failures: string[] = [];
    for (const e of entries) {
      for (const [how, calls] of [
        ['first', callsOf(e.answers, () => 0)],
        ['last', callsOf(e.answers, (n) => n - 1)],
        ['reversed', callsOf(e.answers, () => 0).reverse()],
      ] as const) {
        const r = matchToolCalls(e.answers, calls, schemaOf(e));
        if (!r.match) failures.push(`${e.id} ${how}: ${r.kind}`);
      }
    }
    // BFCL's own checker refuses these too: two answers name a parameter their function does not
    // have ("permeability" is calculate_magnetic_field's, "type" is not bank.calculate_balance's),
    // and parallel_178's first expected call allows "Microsoft" or "Apple": matched greedily in
    // BFCL's order it takes the Apple call the third expected call needs
    expect(failures).toEqual([
      'parallel_178 reversed: value_error:string',
      ...['first', 'last', 'reversed'].map((how) => `parallel_multiple_12 ${how}: simple_function_checker:unexpected_param`),
      ...['first', 'last', 'reversed'].map((how) => `parallel_multiple_26 ${how}: simple_function_checker:unexpected_param`),
    ]);
  });

  it('a wrong tool, a missing or extra call do not match', () => {
    for (const e of entries) {
      const calls = callsOf(e.answers, () => 0);
      const wrong = calls.map((c, i) => (i === 0 ? { ...c, name: `${c.name}_other` } : c));
      expect(kindOf(e, wrong), e.id).toBe(calls.length === 1 ? 'simple_function_checker:wrong_func_name' : kindOf(e, wrong));
      expect(matchToolCalls(e.answers, wrong, schemaOf(e)).match, e.id).toBe(false);
      expect(kindOf(e, calls.slice(1)), e.id).toBe('wrong_count');
      expect(kindOf(e, [...calls, calls[0] as AskedToolCall]), e.id).toBe('wrong_count');
    }
  });

  it('a missing required parameter, an unexpected parameter: BFCL’s missing_required and unexpected_param', () => {
    let missing = 0;
    for (const e of entries) {
      const calls = callsOf(e.answers, () => 0);
      const first = calls[0] as AskedToolCall;
      const fn = e.functions.find((f) => f.name === first.name) as Fn;
      const present = (fn.parameters.required ?? []).find((p) => p in (first.arguments as object));
      if (present !== undefined && calls.length === 1) {
        const { [present]: _gone, ...rest } = first.arguments as Record<string, unknown>;
        expect(kindOf(e, [{ name: first.name, arguments: rest }]), e.id).toBe('simple_function_checker:missing_required');
        missing++;
      }
      if (calls.length === 1)
        expect(kindOf(e, [{ name: first.name, arguments: { ...(first.arguments as object), zz_unexpected: 1 } }]), e.id).toBe(
          'simple_function_checker:unexpected_param',
        );
    }
    expect(missing).toBeGreaterThan(500);
  });

  it('a wrong value and a wrong type: value_error and type_error', () => {
    let strings = 0;
    let numbers = 0;
    for (const e of entries.filter((x) => x.answers.length === 1)) {
      const call = callsOf(e.answers, () => 0)[0] as AskedToolCall;
      const fn = e.functions.find((f) => f.name === call.name) as Fn;
      const allowed = Object.values(e.answers[0] as ExpectedToolCall)[0] as Record<string, unknown[]>;
      for (const [p, v] of Object.entries(call.arguments as Record<string, unknown>)) {
        const type = fn.parameters.properties[p]?.type;
        const answerTypes = new Set((allowed[p] ?? []).filter((x) => x !== '').map((x) => typeof x));
        if (type === 'string' && typeof v === 'string' && answerTypes.size === 1 && answerTypes.has('string')) {
          expect(kindOf(e, [{ name: call.name, arguments: { ...(call.arguments as object), [p]: `${v} qqq` } }]), `${e.id} ${p}`).toBe('value_error:string');
          expect(kindOf(e, [{ name: call.name, arguments: { ...(call.arguments as object), [p]: 12345 } }]), `${e.id} ${p}`).toBe('type_error:simple');
          strings++;
        }
        if (type === 'integer' && typeof v === 'number' && answerTypes.size === 1 && answerTypes.has('number')) {
          expect(kindOf(e, [{ name: call.name, arguments: { ...(call.arguments as object), [p]: v + 7919 } }]), `${e.id} ${p}`).toBe('value_error:others');
          // a string where an integer is expected, and a float: wrong types
          expect(kindOf(e, [{ name: call.name, arguments: { ...(call.arguments as object), [p]: String(v) } }]), `${e.id} ${p}`).toBe('type_error:simple');
          expect(kindOf(e, [{ name: call.name, arguments: { ...(call.arguments as object), [p]: v + 0.5 } }]), `${e.id} ${p}`).toBe('type_error:simple');
          numbers++;
        }
        if (type === 'float' && Number.isInteger(v)) {
          // an integer is accepted for a float (Python converts it)
          expect(kindOf(e, [call]), `${e.id} ${p}`).toBe('match');
        }
      }
    }
    expect(strings).toBeGreaterThan(300);
    expect(numbers).toBeGreaterThan(100);
  });

  it('standardizes strings as BFCL does, in lists and objects too', () => {
    const schema = {
      type: 'object',
      properties: { when: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } }, where: { type: 'object' }, on: { type: 'boolean' } },
      required: ['when'],
    };
    const expected: ExpectedToolCall[] = [
      { plan: { when: ['April 1, 2024'], tags: [['New-York', 'LA'], ''], where: [{ city: ['San Francisco'], zip: ['', '94110'] }, ''], on: ['', true] } },
    ];
    const match = (args: Record<string, unknown>) => matchToolCalls(expected, [{ name: 'plan', arguments: args }], () => schema).match;
    expect(match({ when: 'april 1 2024' })).toBe(true);
    expect(match({ when: 'APRIL 1,2024', tags: ['new york', 'la'] })).toBe(true);
    expect(match({ when: 'April 1, 2024', tags: ['LA', 'New York'] })).toBe(false);
    expect(match({ when: 'April 1, 2024', where: { city: 'san francisco' } })).toBe(true);
    expect(match({ when: 'April 1, 2024', where: { city: 'SF' } })).toBe(false);
    expect(match({ when: 'April 1, 2024', where: { city: 'San Francisco', state: 'CA' } })).toBe(false);
    expect(match({ when: 'April 1, 2024', on: true })).toBe(true);
    expect(match({ when: 'April 1, 2024', on: 'true' })).toBe(false);
    expect(matchToolCalls(expected, [{ name: 'plan', arguments: 'when=April' }], () => schema).match).toBe(false);
  });

  it('a dotted tool name may be called with underscores (providers that refuse dots)', () => {
    const e = entries.find((x) => x.id === 'parallel_0') as Entry;
    expect(
      kindOf(
        e,
        callsOf(e.answers, () => 0).map((c) => ({ ...c, name: c.name.replace('.', '_') })),
      ),
    ).toBe('match');
  });

  it('a string matches whatever its case, spaces and BFCL’s punctuation (,./-_*^), and not another string', () => {
    const schema = { type: 'object', properties: { s: { type: 'string' } } };
    const match = (allowed: string, given: string) => matchToolCalls([{ t: { s: [allowed] } }], [{ name: 't', arguments: { s: given } }], () => schema).match;
    fc.assert(
      fc.property(fc.string(), (s) => {
        expect(match(s, ` ${s.toUpperCase()}.,-_*^/ `)).toBe(match(s, s.toUpperCase()));
        expect(match(s, s)).toBe(true);
        expect(match(s, `${s}#`)).toBe(false);
      }),
    );
  });
});
