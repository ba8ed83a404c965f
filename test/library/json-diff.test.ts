import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diffJson, formatDifferences, jsonEqual, schemaDiffOptions } from '../../src/entries/types.js';

/** The same JSON value with every object's keys in another order. */
const reorder = (v: unknown, seed: number): unknown => {
  if (Array.isArray(v)) return v.map((x, i) => reorder(x, seed + i));
  if (typeof v !== 'object' || v === null) return v;
  const entries = Object.entries(v);
  const rotated = entries.length === 0 ? entries : [...entries.slice(seed % entries.length), ...entries.slice(0, seed % entries.length)].reverse();
  return Object.fromEntries(rotated.map(([k, x], i) => [k, reorder(x, seed + i + 1)]));
};

/** An independent oracle: JSON text with keys sorted at every level. */
const canonical = (v: unknown): string => {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (typeof v === 'object' && v !== null) {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
};

/** Follows a JSON pointer; `undefined` when it leads nowhere. */
const at = (v: unknown, pointer: string): unknown => {
  if (pointer === '') return v;
  let cur = v;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof cur !== 'object' || cur === null || !Object.prototype.hasOwnProperty.call(cur, key)) return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
};

const json = fc.jsonValue({ maxDepth: 4 });

describe('diffJson', () => {
  it('finds no difference between a value and itself with its keys reordered', () => {
    fc.assert(
      fc.property(json, fc.nat(), (v, seed) => {
        expect(diffJson(v, reorder(v, seed))).toEqual([]);
        expect(jsonEqual(v, reorder(v, seed))).toBe(true);
      }),
    );
  });

  it('finds no difference exactly when the canonical JSON texts are equal', () => {
    fc.assert(
      fc.property(json, json, (a, b) => {
        expect(diffJson(a, b).length === 0).toBe(canonical(a) === canonical(b));
      }),
    );
    // near misses, where random pairs rarely land
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 3 }), json, { maxKeys: 4 }), fc.string({ maxLength: 3 }), json, (o, k, x) => {
        const changed = { ...o, [k]: x };
        expect(diffJson(o, changed).length === 0).toBe(canonical(o) === canonical(changed));
      }),
    );
  });

  it('addresses every difference by a JSON pointer that leads to the values it reports', () => {
    fc.assert(
      fc.property(json, json, (a, b) => {
        for (const d of diffJson(a, b)) {
          if (d.kind !== 'extra') expect(canonical(at(a, d.pointer))).toBe(canonical(d.expected));
          if (d.kind !== 'missing') expect(canonical(at(b, d.pointer))).toBe(canonical(d.actual));
        }
      }),
    );
  });

  it('is symmetric up to swapping missing and extra', () => {
    fc.assert(
      fc.property(json, json, (a, b) => {
        const swap = { missing: 'extra', extra: 'missing', changed: 'changed' } as const;
        const ab = diffJson(a, b)
          .map((d) => `${swap[d.kind]} ${d.pointer}`)
          .sort();
        const ba = diffJson(b, a)
          .map((d) => `${d.kind} ${d.pointer}`)
          .sort();
        expect(ab).toEqual(ba);
      }),
    );
  });

  it('compares schemas with required and type as sets, and ignores undefined-valued keys', () => {
    const a = { type: ['string', 'null'], required: ['a', 'b'], properties: { a: {}, b: {} } };
    const b = { properties: { b: {}, a: {} }, required: ['b', 'a', 'a'], type: ['null', 'string'], description: undefined };
    expect(diffJson(a, b, schemaDiffOptions)).toEqual([]);
    expect(diffJson(a, b)).not.toEqual([]);
    expect(diffJson({ enum: [1, 2] }, { enum: [2, 1] }, schemaDiffOptions).map((d) => d.pointer)).toEqual(['/enum/0', '/enum/1']);
  });

  it('escapes pointer segments and shows a short diff', () => {
    const spec = { properties: { 'a/b': { type: 'string' }, 'c~d': { type: 'integer' }, age: { type: 'integer' } } };
    const tool = { properties: { 'a/b': { type: 'number' }, 'c~d': { type: 'integer' }, nick: { type: 'string' } } };
    const diffs = diffJson(spec, tool);
    expect(diffs.map((d) => d.pointer)).toEqual(['/properties/a~1b/type', '/properties/age', '/properties/nick']);
    expect(formatDifferences(diffs)).toBe(
      [
        '/properties/a~1b/type: spec "string", tool "number"',
        '/properties/age: only in the spec: {"type":"integer"}',
        '/properties/nick: only in the tool: {"type":"string"}',
      ].join('\n'),
    );
    expect(formatDifferences(diffs, { max: 1 })).toBe('/properties/a~1b/type: spec "string", tool "number"\n… and 2 more differences');
  });

  it('stops at the limit it is given', () => {
    const a = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${i}`, i]));
    expect(diffJson(a, {}, {}, 5)).toHaveLength(5);
    expect(jsonEqual(a, {})).toBe(false);
  });
});
