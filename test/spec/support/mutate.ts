/**
 * Mutations of a valid value: the negative samples of the agreement tests (a wrong type, a value out
 * of range, a missing or unknown property, a repeated item, ... at the top or one level down).
 */
import { type JsonValue } from '../../../src/index.js';

const top = (v: JsonValue): JsonValue[] => {
  const out: JsonValue[] = [null, 'zz', 0, -1e9, 1e9, 1.5, true, [], {}];
  if (typeof v === 'string') out.push(`${v}!`, '', v.toUpperCase(), `${v}${v}${v}`);
  if (typeof v === 'number') out.push(v + 1, v - 1, -v, v + 0.5, v * 7, String(v));
  if (Array.isArray(v)) {
    out.push([...v, 'extra'], v.slice(1), [...v, ...v], v.length > 0 ? [v[0] as JsonValue, ...v] : [1]);
  } else if (typeof v === 'object' && v !== null) {
    const keys = Object.keys(v);
    for (const k of keys.slice(0, 3)) {
      const { [k]: _gone, ...rest } = v as Record<string, JsonValue>;
      out.push(rest);
    }
    out.push({ ...v, zz_extra: 1 });
  }
  return out;
};

/** Mutations of `v`; `seed` picks which nested position is mutated too. */
export const mutations = (v: JsonValue, seed: number): JsonValue[] => {
  const out = top(v);
  if (Array.isArray(v) && v.length > 0) {
    const i = seed % v.length;
    for (const m of top(v[i] as JsonValue).slice(0, 6)) out.push(v.map((x, j) => (j === i ? m : x)));
  } else if (typeof v === 'object' && v !== null) {
    const keys = Object.keys(v);
    if (keys.length > 0) {
      const k = keys[seed % keys.length] as string;
      for (const m of top((v as Record<string, JsonValue>)[k] as JsonValue).slice(0, 8)) out.push({ ...v, [k]: m });
    }
  }
  return out;
};
