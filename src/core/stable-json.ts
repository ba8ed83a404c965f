/**
 * Deterministic JSON text: object keys sorted (by UTF-16 code units, as `Array.prototype.sort`
 * does), `undefined`-valued keys left out as `JSON.stringify` leaves them out. Equal JSON values
 * give equal text whatever their key order, so the text serves as a content key (the schema cache,
 * de-duplicating subschemas, comparing recorded requests, sets of values in a diff).
 */

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

/** Compact JSON text with sorted keys; `undefined` (or a function) alone gives `null`. */
export const stableStringify = (value: unknown): string => {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  const keys = Object.keys(value).sort();
  const parts: string[] = [];
  for (const k of keys) {
    const v = (value as Record<string, unknown>)[k];
    if (v !== undefined) parts.push(`${JSON.stringify(k)}:${stableStringify(v)}`);
  }
  return `{${parts.join(',')}}`;
};
