/**
 * A sorted multiset of string keys, each with a number (a document, or nothing), for range scans
 * (`every key ≥ k`, `every key starting with p`). Inserting into one sorted array costs O(n) per
 * key (100,000 tools: seconds); here new keys go to a small unsorted buffer that scans see too,
 * and the buffer is merged in when it grows past 1,024 keys (amortized O(log n) a key). The buffer
 * is kept in key order as keys are added, so an ordered scan walks both without merging.
 * Removal marks keys dead; they are dropped at the next merge. While many keys are added at once
 * (`defer`, a catalog's load), the buffer is merged only once, at the end (`settle`, when it grew
 * past its limit): one sort.
 */
import { upperBound } from '../core/sorted.js';

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const lowerBound = (xs: ReadonlyArray<string>, key: string): number => {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((xs[mid] as string) < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
};

/** The buffer is merged in past this many keys: an eighth of the sorted keys, within 1,024..4,096. */
const bufferLimit = (sorted: number): number => Math.min(4096, Math.max(1024, sorted >>> 3));

export class SortedKeys {
  private keys: string[] = [];
  private values: number[] = [];
  private pendingKeys: string[] = [];
  private pendingValues: number[] = [];
  private dead = new Set<string>();
  private deferred = false;
  /** Whether the buffer is in key order (kept so by `add`, else sorted by the next ordered scan). */
  private pendingSorted = true;

  /** Merges nothing until `settle` (scans still see every key): for adding many keys at once. */
  defer(): void {
    this.deferred = true;
  }

  /**
   * Ends `defer`: the buffer is merged if it grew past its limit (a load's keys: one sort), else it
   * stays (a sync that applied a few dozen changes does not rewrite 100,000 keys).
   */
  settle(): void {
    this.deferred = false;
    const limit = bufferLimit(this.keys.length);
    if (this.pendingKeys.length > limit || this.dead.size > limit) this.merge();
  }

  /** Keys with their values (`value` distinguishes equal keys). */
  add(key: string, value = 0): void {
    this.dead.delete(`${value}\u0000${key}`);
    if (this.pendingSorted && !this.deferred) {
      // in order: a memmove of at most the buffer (4,096 keys), so an ordered scan merges nothing
      const i = upperBound(this.pendingKeys, key);
      this.pendingKeys.splice(i, 0, key);
      this.pendingValues.splice(i, 0, value);
    } else {
      this.pendingKeys.push(key);
      this.pendingValues.push(value);
      this.pendingSorted = this.pendingKeys.length === 1;
    }
    if (!this.deferred && this.pendingKeys.length > bufferLimit(this.keys.length)) this.merge();
  }

  /** Removes the key with that value (lazily). */
  remove(key: string, value = 0): void {
    this.dead.add(`${value}\u0000${key}`);
    if (!this.deferred && this.dead.size > bufferLimit(this.keys.length)) this.merge();
  }

  clear(): void {
    this.keys = [];
    this.values = [];
    this.pendingKeys = [];
    this.pendingValues = [];
    this.pendingSorted = true;
    this.dead.clear();
  }

  get size(): number {
    return this.keys.length + this.pendingKeys.length - this.dead.size;
  }

  /** Values of the keys starting with `prefix` (any order). */
  prefixed(prefix: string): number[] {
    const out: number[] = [];
    for (let i = lowerBound(this.keys, prefix); i < this.keys.length && (this.keys[i] as string).startsWith(prefix); i++)
      this.keep(this.keys[i] as string, this.values[i] as number, out);
    this.pendingKeys.forEach((k, i) => {
      if (k.startsWith(prefix)) this.keep(k, this.pendingValues[i] as number, out);
    });
    return out;
  }

  /** Keys starting with `prefix`, each once (values ignored). */
  keysPrefixed(prefix: string): string[] {
    const out = new Set<string>();
    for (let i = lowerBound(this.keys, prefix); i < this.keys.length && (this.keys[i] as string).startsWith(prefix); i++) out.add(this.keys[i] as string);
    for (const k of this.pendingKeys) if (k.startsWith(prefix)) out.add(k);
    return [...out];
  }

  /**
   * Keys greater than `after` (all when undefined), in order, each once: the sorted keys and the
   * (sorted) buffer walked side by side from `after`, so a page costs O(log n + its keys), not a
   * merge of every key (a listing after each write would rewrite 100,000 keys).
   */
  *after(after: string | undefined): Generator<string> {
    this.sortPending();
    const { keys, values, pendingKeys, pendingValues } = this;
    let i = after === undefined ? 0 : lowerBound(keys, after);
    let j = after === undefined ? 0 : lowerBound(pendingKeys, after);
    let last = after;
    while (i < keys.length || j < pendingKeys.length) {
      let k: string;
      let v: number;
      if (j >= pendingKeys.length || (i < keys.length && (keys[i] as string) <= (pendingKeys[j] as string))) {
        k = keys[i] as string;
        v = values[i] as number;
        i++;
      } else {
        k = pendingKeys[j] as string;
        v = pendingValues[j] as number;
        j++;
      }
      if (last !== undefined && k <= last) continue;
      // a removed key (this value of it) is skipped; another value of the same key may still count
      if (this.dead.size > 0 && this.dead.has(`${v}\u0000${k}`)) continue;
      last = k;
      yield k;
    }
  }

  /** Puts the buffer in key order (after keys were added while deferred). */
  private sortPending(): void {
    if (this.pendingSorted) return;
    const order = this.pendingKeys.map((_, i) => i).sort((a, b) => compare(this.pendingKeys[a] as string, this.pendingKeys[b] as string));
    this.pendingKeys = order.map((i) => this.pendingKeys[i] as string);
    this.pendingValues = order.map((i) => this.pendingValues[i] as number);
    this.pendingSorted = true;
  }

  private keep(key: string, value: number, out: number[]): void {
    if (this.dead.size === 0 || !this.dead.has(`${value}\u0000${key}`)) out.push(value);
  }

  /** Sorts the buffer, merges it in, drops dead keys. */
  private merge(): void {
    if (this.pendingKeys.length === 0 && this.dead.size === 0) return;
    this.sortPending();
    const keys: string[] = [];
    const values: number[] = [];
    let i = 0;
    let j = 0;
    const push = (k: string, v: number): void => {
      if (this.dead.size > 0 && this.dead.has(`${v}\u0000${k}`)) return;
      keys.push(k);
      values.push(v);
    };
    while (i < this.keys.length || j < this.pendingKeys.length) {
      const pk = j < this.pendingKeys.length ? (this.pendingKeys[j] as string) : undefined;
      if (i < this.keys.length && (pk === undefined || (this.keys[i] as string) <= pk)) {
        push(this.keys[i] as string, this.values[i] as number);
        i++;
      } else {
        push(pk as string, this.pendingValues[j] as number);
        j++;
      }
    }
    this.keys = keys;
    this.values = values;
    this.pendingKeys = [];
    this.pendingValues = [];
    this.pendingSorted = true;
    this.dead.clear();
  }
}
