import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findNonJson } from '../../src/core/json-value.js';

describe('findNonJson', () => {
  it('accepts every JSON value, and values that round-trip through JSON text', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(findNonJson(v)).toBeUndefined();
        expect(findNonJson(JSON.parse(JSON.stringify(v)))).toBeUndefined();
      }),
    );
  });

  it('accepts shared sub-values, null-prototype objects and undefined-valued properties', () => {
    const shared = { x: 1 };
    const bare = Object.assign(Object.create(null) as object, { a: 1 });
    expect(findNonJson({ a: shared, b: [shared, shared] })).toBeUndefined();
    expect(findNonJson(bare)).toBeUndefined();
    expect(findNonJson({ a: undefined, b: 1 })).toBeUndefined();
  });

  it('says where the first non-JSON part is and what it is', () => {
    const cycle: Record<string, unknown> = { a: [1] };
    cycle['self'] = { back: cycle };
    class Point {
      constructor(readonly x: number) {}
    }
    const cases: Array<[unknown, string, RegExp]> = [
      [() => 1, '', /^a function$/],
      [{ f: () => 1 }, 'f', /function/],
      [10n, '', /BigInt \(10n/],
      [{ a: [1, Number.NaN] }, 'a[1]', /^NaN/],
      [{ n: Number.POSITIVE_INFINITY }, 'n', /^Infinity/],
      [Symbol('s'), '', /symbol/],
      [cycle, 'self.back', /circular/],
      [{ when: new Date(0) }, 'when', /Date \(return date\.toISOString\(\)\)/],
      [{ m: new Map() }, 'm', /Map/],
      [{ s: new Set() }, 's', /Set/],
      [{ b: new Uint8Array(2) }, 'b', /binary/],
      [{ p: new Point(1) }, 'p', /instance of Point/],
      [{ e: new Error('x') }, 'e', /an Error/],
      [{ pr: Promise.resolve(1) }, 'pr', /promise/],
      [[1, undefined], '[1]', /undefined inside an array/],
      [{ 'odd key': { 'x.y': 1n } }, '["odd key"]["x.y"]', /BigInt/],
    ];
    for (const [value, path, found] of cases) {
      const r = findNonJson(value);
      expect(r, String(path)).toBeDefined();
      expect(r?.path).toBe(path);
      expect(r?.found).toMatch(found);
    }
  });

  it('reports values nested too deep and values that throw when read, without throwing', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 1000; i++) deep = [deep];
    expect(findNonJson(deep)?.found).toMatch(/nested more than 256/);
    const hostile = Object.defineProperty({}, 'x', {
      enumerable: true,
      get() {
        throw new Error('nope');
      },
    });
    expect(findNonJson(hostile)?.found).toMatch(/cannot be read \(nope\)/);
    const proxy = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error('no keys');
        },
      },
    );
    expect(findNonJson(proxy)?.found).toMatch(/no keys/);
  });
});
