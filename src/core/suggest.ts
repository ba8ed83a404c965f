/**
 * "Did you mean ...?" for misspelled names (types, properties, tools, agents, options): one edit
 * distance (Levenshtein, case-insensitive, cut short past a bound) and the two ways of using it.
 */

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

/** Levenshtein distance, case-insensitive; `max + 1` as soon as it is known to exceed `max`. */
export const editDistance = (a: string, b: string, max = Number.POSITIVE_INFINITY): number => {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  if (Math.abs(x.length - y.length) > max) return max + 1;
  let prev = Array.from({ length: y.length + 1 }, (_, i) => i);
  for (let i = 1; i <= x.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= y.length; j++) {
      const v = Math.min((prev[j] as number) + 1, (cur[j - 1] as number) + 1, (prev[j - 1] as number) + (x[i - 1] === y[j - 1] ? 0 : 1));
      cur.push(v);
      rowMin = Math.min(rowMin, v);
    }
    if (rowMin > max) return max + 1;
    prev = cur;
  }
  return prev[y.length] as number;
};

/** `did you mean \`x\`?` for the closest candidate within a third of the name's length, else undefined. */
export const didYouMean = (name: string, candidates: Iterable<string>): string | undefined => {
  const max = Math.max(1, Math.floor(name.length / 3));
  let best: string | undefined;
  let bestD = max + 1;
  for (const c of candidates) {
    const d = editDistance(name, c, max);
    if (d < bestD) {
      best = c;
      bestD = d;
    }
  }
  return best === undefined ? undefined : `did you mean \`${best}\`?`;
};

/**
 * Up to three candidates close to `name`, closest first: the same letters ignoring case, `_` and
 * `-` (`get_weather` for `getWeather`), or at most one edit away (two for names longer than four
 * characters).
 */
export const closeNames = (name: string, candidates: ReadonlyArray<string>): ReadonlyArray<string> => {
  const norm = (s: string) => s.toLowerCase().replace(/[_-]/g, '');
  const n = norm(name);
  const max = name.length <= 4 ? 1 : 2;
  return candidates
    .map((c) => ({ c, d: norm(c) === n ? 0 : editDistance(name, c, max) }))
    .filter((x) => x.d <= max)
    .sort((x, y) => x.d - y.d || (x.c < y.c ? -1 : 1))
    .slice(0, 3)
    .map((x) => x.c);
};
