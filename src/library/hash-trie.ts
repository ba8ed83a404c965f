/**
 * A persistent map from strings to values: a hash trie (CHAMP, a compressed hash-array mapped
 * prefix tree). Every update returns a new map and leaves the old one as it was; an update copies
 * one path of nodes (O(log₃₂ n) of them) and shares the rest, so building a map of n entries one
 * at a time costs O(n log n), not the O(n²) of copying.
 *
 * Made for reads. A node is one array: its two bitmaps, then its entries as `key, value` pairs,
 * then its children. So every node has the same hidden class and a lookup's loop stays
 * monomorphic, and a lookup at 100k entries reads 4 arrays (the first two levels stay in cache),
 * hashes the key once and compares one key with `===`.
 *
 * `[dataMap, nodeMap, k₀, v₀, k₁, v₁, …, childₙ, …, child₀]`: bit f of `dataMap` says that the
 * entries hold a key whose hash fragment at this level is f, bit f of `nodeMap` that a child does;
 * entries are in the order of their fragments, children in the reverse order (the child of the
 * lowest fragment last). Past the 32 bits of a hash a node is a collision node: both bitmaps are 0
 * and it holds a plain list of pairs. A node other than the root holds at least two entries in its
 * subtree: a removal that leaves one moves it up into the parent, so a map has one shape whatever
 * the updates that made it (up to the order of the pairs in a collision node).
 */
import { hashString } from './string-hash.js';

type Node = ReadonlyArray<unknown>;

const BITS = 5;
const MASK = (1 << BITS) - 1;
/** The shift of the first level past the 32 bits of a hash: the level of collision nodes. */
const COLLISION_SHIFT = 35;
/** The index of a node's first key (after its two bitmaps). */
const FIRST = 2;

/**
 * The node of the empty map. Made by `slice` from a literal that holds a non-number, so that it
 * has the elements kind of every other node (a literal `[0, 0]` would hold small integers only,
 * and a lookup would meet two hidden classes).
 */
const EMPTY_NODE: Node = [0, 0, undefined].slice(0, FIRST);

/** A map whose values are never `undefined` (`get` answers `undefined` for a missing key). */
export class HashTrie<V extends object> {
  private constructor(
    private readonly root: Node,
    /** The number of entries. */
    readonly size: number,
  ) {}

  private static readonly none = new HashTrie<object>(EMPTY_NODE, 0);

  /** The map with no entries. */
  static empty<V extends object>(): HashTrie<V> {
    return HashTrie.none as HashTrie<V>;
  }

  /**
   * The map of the given entries, a later entry of a key replacing an earlier one: the same map as
   * setting them one after another, built level by level without the intermediate maps.
   */
  static from<V extends object>(entries: Iterable<readonly [string, V]>): HashTrie<V> {
    const unique = new Map<string, V>();
    for (const [k, v] of entries) unique.set(k, v);
    if (unique.size === 0) return HashTrie.empty();
    const keys = [...unique.keys()];
    const all = { keys, values: [...unique.values()], hashes: keys.map(hashString) };
    return new HashTrie(
      build(
        all,
        keys.map((_, i) => i),
        0,
      ),
      keys.length,
    );
  }

  /** The value under `key`, or `undefined`. */
  get(key: string): V | undefined {
    const hash = hashString(key);
    let node = this.root;
    for (let shift = 0; shift < COLLISION_SHIFT; shift += BITS) {
      const bit = 1 << ((hash >>> shift) & MASK);
      const dataMap = node[0] as number;
      if ((dataMap & bit) !== 0) {
        const i = FIRST + 2 * bitCount(dataMap & (bit - 1));
        return node[i] === key ? (node[i + 1] as V) : undefined;
      }
      const nodeMap = node[1] as number;
      if ((nodeMap & bit) === 0) return undefined;
      node = node[node.length - 1 - bitCount(nodeMap & (bit - 1))] as Node;
    }
    const i = collisionIndex(node, key);
    return i < 0 ? undefined : (node[i + 1] as V);
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  /** The map with `value` under `key` (this map when it already holds that very value there). */
  set(key: string, value: V): HashTrie<V> {
    added = false;
    const root = insert(this.root, key, value, hashString(key), 0);
    return root === this.root ? this : new HashTrie(root, added ? this.size + 1 : this.size);
  }

  /** The map without `key` (this map when it has no such key). */
  delete(key: string): HashTrie<V> {
    const root = remove(this.root, key, hashString(key), 0);
    return root === this.root ? this : new HashTrie(root, this.size - 1);
  }

  /** The entries, in no particular order. */
  entries(): Array<readonly [string, V]> {
    const out: Array<readonly [string, V]> = [];
    collect(this.root, (k, v) => out.push([k, v as V]));
    return out;
  }

  /** The keys, in no particular order. */
  keys(): string[] {
    const out: string[] = [];
    collect(this.root, (k) => out.push(k));
    return out;
  }
}

// -------------------------------------------------------------------------------------------------
// updates
// -------------------------------------------------------------------------------------------------

/** Whether the last `insert` added an entry rather than replaced one (set by `insert`). */
let added = false;

const insert = (node: Node, key: string, value: unknown, hash: number, shift: number): Node => {
  if (shift >= COLLISION_SHIFT) {
    const i = collisionIndex(node, key);
    if (i >= 0) return node[i + 1] === value ? node : replaced(node, i + 1, value);
    added = true;
    return [...node, key, value];
  }
  const bit = 1 << ((hash >>> shift) & MASK);
  const dataMap = node[0] as number;
  const nodeMap = node[1] as number;
  if ((dataMap & bit) !== 0) {
    const i = FIRST + 2 * bitCount(dataMap & (bit - 1));
    const k = node[i] as string;
    if (k === key) return node[i + 1] === value ? node : replaced(node, i + 1, value);
    added = true;
    return entryToChild(node, bit, i, pair(k, node[i + 1], hashString(k), key, value, hash, shift + BITS));
  }
  if ((nodeMap & bit) !== 0) {
    const j = node.length - 1 - bitCount(nodeMap & (bit - 1));
    const child = node[j] as Node;
    const next = insert(child, key, value, hash, shift + BITS);
    return next === child ? node : replaced(node, j, next);
  }
  added = true;
  const i = FIRST + 2 * bitCount(dataMap & (bit - 1));
  const out: unknown[] = [dataMap | bit, nodeMap];
  for (let k = FIRST; k < i; k++) out.push(node[k]);
  out.push(key, value);
  for (let k = i; k < node.length; k++) out.push(node[k]);
  return out;
};

interface Entries {
  readonly keys: ReadonlyArray<string>;
  readonly values: ReadonlyArray<unknown>;
  readonly hashes: ReadonlyArray<number>;
}

/** The node at `shift` of the entries numbered `members` (several, below the root). */
const build = (all: Entries, members: ReadonlyArray<number>, shift: number): Node => {
  if (shift >= COLLISION_SHIFT) return [0, 0, ...members.flatMap((m) => [all.keys[m], all.values[m]])];
  const byFragment: Array<number[] | undefined> = [];
  for (let f = 0; f <= MASK; f++) byFragment.push(undefined);
  for (const m of members) {
    const f = ((all.hashes[m] as number) >>> shift) & MASK;
    (byFragment[f] ??= []).push(m);
  }
  let dataMap = 0;
  let nodeMap = 0;
  const entries: unknown[] = [];
  const children: Node[] = [];
  byFragment.forEach((group, f) => {
    if (group === undefined) return;
    if (group.length === 1) {
      dataMap |= 1 << f;
      entries.push(all.keys[group[0] as number], all.values[group[0] as number]);
    } else {
      nodeMap |= 1 << f;
      children.unshift(build(all, group, shift + BITS));
    }
  });
  return [dataMap, nodeMap, ...entries, ...children];
};

/** The node below `shift` that holds two entries of different keys. */
const pair = (k1: string, v1: unknown, h1: number, k2: string, v2: unknown, h2: number, shift: number): Node => {
  if (shift >= COLLISION_SHIFT) return [0, 0, k1, v1, k2, v2];
  const f1 = (h1 >>> shift) & MASK;
  const f2 = (h2 >>> shift) & MASK;
  if (f1 === f2) return [0, 1 << f1, pair(k1, v1, h1, k2, v2, h2, shift + BITS)];
  return f1 < f2 ? [(1 << f1) | (1 << f2), 0, k1, v1, k2, v2] : [(1 << f1) | (1 << f2), 0, k2, v2, k1, v1];
};

const remove = (node: Node, key: string, hash: number, shift: number): Node => {
  if (shift >= COLLISION_SHIFT) {
    const i = collisionIndex(node, key);
    return i < 0 ? node : without(node, i);
  }
  const bit = 1 << ((hash >>> shift) & MASK);
  const dataMap = node[0] as number;
  const nodeMap = node[1] as number;
  if ((dataMap & bit) !== 0) {
    const i = FIRST + 2 * bitCount(dataMap & (bit - 1));
    if (node[i] !== key) return node;
    const out = without(node, i);
    out[0] = dataMap ^ bit;
    return out;
  }
  if ((nodeMap & bit) === 0) return node;
  const j = node.length - 1 - bitCount(nodeMap & (bit - 1));
  const child = node[j] as Node;
  const next = remove(child, key, hash, shift + BITS);
  if (next === child) return node;
  // a child left with one entry and no children: the entry moves up into this node
  return next[1] === 0 && next.length === FIRST + 2 ? childToEntry(node, bit, j, next) : replaced(node, j, next);
};

// -------------------------------------------------------------------------------------------------
// reading
// -------------------------------------------------------------------------------------------------

const collect = (node: Node, f: (key: string, value: unknown) => void): void => {
  const end = node[1] === 0 ? node.length : FIRST + 2 * bitCount(node[0] as number);
  for (let i = FIRST; i < end; i += 2) f(node[i] as string, node[i + 1]);
  for (let j = node.length - 1; j >= end; j--) collect(node[j] as Node, f);
};

/** The index of `key` in a collision node's list of pairs, or -1. */
const collisionIndex = (node: Node, key: string): number => {
  for (let i = FIRST; i < node.length; i += 2) if (node[i] === key) return i;
  return -1;
};

// -------------------------------------------------------------------------------------------------
// nodes
// -------------------------------------------------------------------------------------------------

/** The number of bits set in a 32-bit integer. */
const bitCount = (x: number): number => {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
};

const replaced = (node: Node, i: number, value: unknown): Node => {
  const out = node.slice();
  out[i] = value;
  return out;
};

/** The node without the pair at `i` (bitmaps unchanged). */
const without = (node: Node, i: number): unknown[] => {
  const out = node.slice(0, i);
  for (let k = i + 2; k < node.length; k++) out.push(node[k]);
  return out;
};

/** The node with the pair at `i`, of fragment `bit`, replaced by `child`. */
const entryToChild = (node: Node, bit: number, i: number, child: Node): Node => {
  const nodeMap = node[1] as number;
  const at = node.length - 2 - bitCount(nodeMap & (bit - 1)); // the child's index once the pair is gone
  const out: unknown[] = [(node[0] as number) ^ bit, nodeMap | bit];
  for (let k = FIRST; k < i; k++) out.push(node[k]);
  for (let k = i + 2; k < node.length; k++) {
    if (out.length === at) out.push(child);
    out.push(node[k]);
  }
  if (out.length === at) out.push(child);
  return out;
};

/** The node with the child at `j`, of fragment `bit`, replaced by the single pair that child holds. */
const childToEntry = (node: Node, bit: number, j: number, child: Node): Node => {
  const dataMap = node[0] as number;
  const i = FIRST + 2 * bitCount(dataMap & (bit - 1));
  const out: unknown[] = [dataMap | bit, (node[1] as number) ^ bit];
  for (let k = FIRST; k < node.length; k++) {
    if (k === i) out.push(child[FIRST], child[FIRST + 1]);
    if (k !== j) out.push(node[k]);
  }
  return out;
};
