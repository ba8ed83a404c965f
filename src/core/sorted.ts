/** Searching a sorted array. */

/** The first index of `xs` (sorted ascending) whose element is greater than `key`; `xs.length` when none is. */
export const upperBound = <T extends number | string>(xs: ReadonlyArray<T>, key: T): number => {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((xs[mid] as T) <= key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
};
