/**
 * The catalog's full-text index: results ranked in tiers, newest first within a tier.
 *
 * 1. **prefix**: the slug or the display name begins with the query (`wea` → `weather-report`);
 * 2. **whole word**: every word of the query is a whole word of the slug, display name,
 *    description or tags;
 * 3. **fuzzy**: every word of the query begins a word, or is within 1 edit of one (2 for words of
 *    8 letters or more; the first letter must match; a 3-letter word only with a letter added, so
 *    `jsn` finds `json` and `wea` not `web`; shorter words only by prefix);
 * 4. within a tier, **recency**: `modifiedAt`, newer first, then the id.
 *
 * Text is compared case-insensitively and without accents (`Météo` matches `meteo`); words are runs
 * of letters and digits. An empty query lists every document by recency.
 *
 * Why not MiniSearch: it scores every matching document, so a 3-letter prefix over 100,000 tools
 * took about 1 s here (p50), and two-term prefix+fuzzy queries 90 ms. This index never scores: it
 * marks the tiers with arrays indexed by document number, and only builds the fuzzy tier when the
 * first two do not fill the page; a page is then a partial walk of a recency order. See
 * bench/catalog.bench.ts.
 *
 * Documents are numbered as they are added; an update adds a new number and marks the old one dead
 * (posting lists only grow, and are rebuilt when half of the numbers are dead).
 */
import { editDistance } from '../core/suggest.js';
import { SortedKeys } from './sorted-keys.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface SearchEntry {
  readonly id: string;
  readonly slug: string;
  readonly displayName: string;
  readonly description: string;
  readonly tags: ReadonlyArray<string>;
  /** Milliseconds since the epoch (recency). */
  readonly modifiedAt: number;
}

export type SearchTier = 1 | 2 | 3;

/** Where a page ended: the last document's tier, time and id. */
export interface SearchCursor {
  readonly tier: SearchTier;
  readonly modifiedAt: number;
  readonly id: string;
}

export interface SearchHit {
  readonly id: string;
  readonly tier: SearchTier;
  readonly modifiedAt: number;
}

export interface SearchPage {
  readonly hits: ReadonlyArray<SearchHit>;
  /** Present when more hits follow (never on an empty page). */
  readonly next?: SearchCursor;
}

export interface SearchOptions {
  readonly limit: number;
  readonly after?: SearchCursor;
  /** Documents that may be shown (filters: enabled, in a live bundle, ...). */
  readonly visible?: (id: string) => boolean;
}

interface Doc {
  readonly id: string;
  readonly source: SearchEntry;
  readonly modifiedAt: number;
  alive: boolean;
}

// -------------------------------------------------------------------------------------------------
// text
// -------------------------------------------------------------------------------------------------

/** Lower case, accents removed, every run of other characters one space. */
export const normalizeText = (s: string): string =>
  // eslint-disable-next-line no-control-regex
  (/^[\x00-\x7f]*$/.test(s)
    ? s.toLowerCase().replace(/[^a-z0-9]+/g, ' ')
    : s
        .normalize('NFKD')
        .replace(/\p{M}+/gu, '')
        .toLowerCase()
        .replace(/[^\p{L}\p{N}]+/gu, ' ')
  ).trim();

export const words = (s: string): ReadonlyArray<string> => {
  const n = normalizeText(s);
  return n === '' ? [] : n.split(' ');
};

const maxEdits = (term: string): number => (term.length >= 8 ? 2 : term.length >= 3 ? 1 : 0);

// -------------------------------------------------------------------------------------------------
// the index
// -------------------------------------------------------------------------------------------------

export class SearchIndex {
  private docs: Doc[] = [];
  private readonly byId = new Map<string, number>();
  private postings = new Map<string, number[]>();
  /** Every term, sorted (prefix ranges). */
  private readonly vocabulary = new SortedKeys();
  /** Terms by first character and length (fuzzy candidates). */
  private fuzzyBuckets = new Map<string, string[]>();
  /** Normalized slugs and display names, sorted, with their document numbers. */
  private readonly names = new SortedKeys();
  private dead = 0;
  /** Document numbers, newest first; rebuilt lazily. */
  private order: number[] = [];
  private orderDirty = false;
  /** Numbers added since `order` was built, oldest first, each newer than the one before. */
  private front: number[] = [];
  /** Scratch arrays of queries (see `nextGeneration`). */
  private marks = new Uint32Array(0);
  private counts = new Uint32Array(0);
  private generation = 0;
  private countPass = 0;
  /** Documents a load put and not yet indexed, by id, in the order put (`catchUp`). */
  private pending = new Map<string, SearchEntry>();
  private loading = false;

  get size(): number {
    this.catchUp();
    return this.byId.size;
  }

  has(id: string): boolean {
    this.catchUp();
    return this.byId.has(id);
  }

  /**
   * Runs `f` (many `put`s: a load) without indexing what it puts: that waits for `catchUp`, which
   * a caller may run a slice at a time (after a start-up, between requests) and which every search
   * runs first, so a search always sees every document put.
   */
  bulk<A>(f: () => A): A {
    this.loading = true;
    try {
      return f();
    } finally {
      this.loading = false;
    }
  }

  /** Indexes up to `limit` of the documents a load put (all by default), their sorted keys merged once at the end; returns how many are left. */
  catchUp(limit = Number.POSITIVE_INFINITY): number {
    if (this.pending.size === 0) return 0;
    this.vocabulary.defer();
    this.names.defer();
    let done = 0;
    for (const [id, d] of this.pending) {
      if (done++ >= limit) break;
      this.pending.delete(id);
      this.index(d);
    }
    if (this.pending.size === 0) {
      this.vocabulary.settle();
      this.names.settle();
    }
    return this.pending.size;
  }

  /** Adds or replaces a document. */
  put(d: SearchEntry): void {
    // a later put replaces one a load left pending
    this.pending.delete(d.id);
    if (this.loading) this.pending.set(d.id, d);
    else this.index(d);
  }

  private index(d: SearchEntry): void {
    const old = this.byId.get(d.id);
    if (old !== undefined) {
      const prev = this.docs[old] as Doc;
      if (sameText(prev.source, d) && prev.modifiedAt === d.modifiedAt) return;
      prev.alive = false;
      this.dead++;
    }
    const num = this.docs.length;
    this.docs.push({ id: d.id, source: d, modifiedAt: d.modifiedAt, alive: true });
    this.byId.set(d.id, num);
    this.indexText(num, d);
    this.placeInOrder(num);
    this.compactIfNeeded();
  }

  remove(id: string): void {
    this.pending.delete(id);
    const num = this.byId.get(id);
    if (num === undefined) return;
    (this.docs[num] as Doc).alive = false;
    this.byId.delete(id);
    this.dead++;
    this.compactIfNeeded();
  }

  clear(): void {
    this.pending.clear();
    this.docs = [];
    this.byId.clear();
    this.postings = new Map();
    this.vocabulary.clear();
    this.fuzzyBuckets = new Map();
    this.names.clear();
    this.dead = 0;
    this.order = [];
    this.front = [];
    this.orderDirty = false;
  }

  /** A page of hits for `query`, in tier then recency order, after `options.after`. */
  search(query: string, options: SearchOptions): SearchPage {
    this.catchUp();
    const limit = Math.max(1, Math.floor(options.limit));
    const visible = options.visible ?? (() => true);
    const after = options.after;
    const hits: SearchHit[] = [];
    const want = limit + 1;
    const q = normalizeText(query);
    if (q === '') {
      // every document, by recency (reported as tier 3)
      this.walk(after?.tier === 3 ? after : undefined, (_num, doc) => {
        if (!visible(doc.id)) return true;
        hits.push({ id: doc.id, tier: 3, modifiedAt: doc.modifiedAt });
        return hits.length < want;
      });
      return page(hits, limit);
    }
    const terms = [...new Set(q.split(' '))];
    // tiers are marked in a scratch array reused by every query: mark = generation × 4 + tier
    const gen = this.nextGeneration();
    const marks = this.marks;
    const count = (t: SearchTier, nums: ReadonlyArray<number>): number[] => {
      const out: number[] = [];
      const stamp = gen * 4 + t;
      for (const n of nums) {
        if ((marks[n] as number) >>> 2 === gen || !(this.docs[n] as Doc).alive) continue;
        marks[n] = stamp;
        out.push(n);
      }
      return out;
    };
    const startTier = after?.tier ?? 1;
    for (const t of [1, 2, 3] as const) {
      // tiers before the cursor's are still marked, so their documents are not shown again lower down
      const nums = count(t, t === 1 ? this.prefixMatches(q) : t === 2 ? this.wordMatches(terms) : this.fuzzyMatches(terms));
      if (t < startTier) continue;
      this.emit(t, gen * 4 + t, nums, t === startTier ? after : undefined, visible, hits, want);
      if (hits.length >= want) break;
    }
    return page(hits, limit);
  }

  /** A fresh generation for the scratch arrays (sized to the documents). */
  private nextGeneration(): number {
    if (this.marks.length < this.docs.length) {
      this.marks = new Uint32Array(Math.max(1024, this.docs.length * 2));
      this.counts = new Uint32Array(this.marks.length);
      this.generation = 0;
      this.countPass = 0;
    }
    this.generation++;
    if (this.generation >= 2 ** 29) {
      this.marks.fill(0);
      this.generation = 1;
    }
    return this.generation;
  }

  // -----------------------------------------------------------------------------------------------
  // matching
  // -----------------------------------------------------------------------------------------------

  private prefixMatches(q: string): number[] {
    return this.names.prefixed(q);
  }

  /** Documents holding every term (as a whole word). */
  private wordMatches(terms: ReadonlyArray<string>): number[] {
    const lists = terms.map((t) => this.postings.get(t) ?? []);
    if (lists.some((l) => l.length === 0)) return [];
    return this.intersect(lists.map((l) => [l]));
  }

  /** Documents where every term begins a word or is close to one. */
  private fuzzyMatches(terms: ReadonlyArray<string>): number[] {
    const perTerm: number[][][] = [];
    for (const t of terms) {
      const lists: number[][] = [];
      for (const w of this.termsFor(t)) lists.push(this.postings.get(w) as number[]);
      if (lists.length === 0) return [];
      perTerm.push(lists);
    }
    return this.intersect(perTerm);
  }

  /** Vocabulary terms a query term reaches: those it begins, and those within its edit budget. */
  private termsFor(term: string): ReadonlyArray<string> {
    const first = term[0] as string;
    const out = new Set<string>(this.vocabulary.keysPrefixed(term));
    const k = maxEdits(term);
    if (k > 0) {
      // a 3-letter word reaches only words one letter longer (`jsn` → `json`): a letter left out, not `web` for `wea`
      for (let len = term.length < 4 ? term.length + 1 : term.length - k; len <= term.length + k; len++) {
        for (const w of this.fuzzyBuckets.get(`${first}${len}`) ?? []) {
          if (!out.has(w) && editDistance(term, w, k) <= k) out.add(w);
        }
      }
    }
    return [...out];
  }

  /**
   * Documents present in one list of every group (a group: the lists of one query term, united).
   * Counting per document: a document reaches `i + 1` only from `i`, so a term counts once.
   */
  private intersect(groups: ReadonlyArray<ReadonlyArray<ReadonlyArray<number>>>): number[] {
    if (groups.length === 1 && (groups[0] as ReadonlyArray<ReadonlyArray<number>>).length === 1)
      return [...((groups[0] as ReadonlyArray<ReadonlyArray<number>>)[0] as ReadonlyArray<number>)];
    // counts[n] = pass × 256 + how many groups have n so far (a group counts once); one pass per call
    this.countPass++;
    if (this.countPass >= 2 ** 23) {
      this.counts.fill(0);
      this.countPass = 1;
    }
    const base = this.countPass * 256;
    const counts = this.counts;
    const order = [...groups].sort((a, b) => size(a) - size(b)).slice(0, 255);
    for (let i = 0; i < order.length; i++) {
      for (const list of order[i] as ReadonlyArray<ReadonlyArray<number>>) {
        for (const n of list) {
          const c = counts[n] as number;
          const have = c >= base && c < base + 256 ? c - base : 0;
          if (have === i) counts[n] = base + i + 1;
        }
      }
    }
    const out: number[] = [];
    const full = base + order.length;
    for (const list of order[0] ?? []) {
      for (const n of list) {
        if (counts[n] === full) {
          out.push(n);
          counts[n] = base;
        }
      }
    }
    return out;
  }

  // -----------------------------------------------------------------------------------------------
  // ordering
  // -----------------------------------------------------------------------------------------------

  /** Appends the visible documents of one tier (`stamp` in the marks) after `after`, newest first, up to `want` hits. */
  private emit(
    tier: SearchTier,
    stamp: number,
    nums: ReadonlyArray<number>,
    after: SearchCursor | undefined,
    visible: (id: string) => boolean,
    hits: SearchHit[],
    want: number,
  ): void {
    if (nums.length === 0) return;
    if (nums.length > 256) {
      // many candidates: walk the recency order (it reaches `want` of them after about
      // want × size / candidates steps) instead of sorting them all
      const marks = this.marks;
      this.walk(after, (n, d) => {
        if (marks[n] === stamp && visible(d.id)) hits.push({ id: d.id, tier, modifiedAt: d.modifiedAt });
        return hits.length < want;
      });
      return;
    }
    const chosen = nums
      .filter((n) => {
        const d = this.docs[n] as Doc;
        return (after === undefined || isAfter(d, after)) && visible(d.id);
      })
      .sort((a, b) => byRecency(this.docs[a] as Doc, this.docs[b] as Doc));
    for (const n of chosen) {
      if (hits.length >= want) return;
      const d = this.docs[n] as Doc;
      hits.push({ id: d.id, tier, modifiedAt: d.modifiedAt });
    }
  }

  /** Calls `f` on alive documents newest first (after `after`), while it returns true. */
  private walk(after: SearchCursor | undefined, f: (num: number, doc: Doc) => boolean): void {
    this.ensureOrder();
    for (let i = this.front.length - 1; i >= 0; i--) {
      const n = this.front[i] as number;
      const d = this.docs[n] as Doc;
      if (!d.alive || (after !== undefined && !isAfter(d, after))) continue;
      if (!f(n, d)) return;
    }
    for (const n of this.order) {
      const d = this.docs[n] as Doc;
      if (!d.alive || (after !== undefined && !isAfter(d, after))) continue;
      if (!f(n, d)) return;
    }
  }

  private placeInOrder(num: number): void {
    if (this.orderDirty) return;
    const d = this.docs[num] as Doc;
    const newest =
      this.front.length > 0
        ? (this.docs[this.front[this.front.length - 1] as number] as Doc)
        : this.order.length > 0
          ? (this.docs[this.order[0] as number] as Doc)
          : undefined;
    if (newest === undefined || d.modifiedAt > newest.modifiedAt) this.front.push(num);
    else this.orderDirty = true;
    if (this.front.length > 4096) this.orderDirty = true;
  }

  private ensureOrder(): void {
    if (!this.orderDirty) return;
    const all: number[] = [];
    for (const n of this.byId.values()) all.push(n);
    all.sort((a, b) => byRecency(this.docs[a] as Doc, this.docs[b] as Doc));
    this.order = all;
    this.front = [];
    this.orderDirty = false;
  }

  // -----------------------------------------------------------------------------------------------
  // building
  // -----------------------------------------------------------------------------------------------

  private indexText(num: number, d: SearchEntry): void {
    // every field at once: normalizing turns each run of other characters into one space, so the
    // fields joined by a space give the same words as each field alone (one pass, not four)
    const terms = new Set(
      words(d.tags.length === 0 ? `${d.slug} ${d.displayName} ${d.description}` : `${d.slug} ${d.displayName} ${d.description} ${d.tags.join(' ')}`),
    );
    for (const t of terms) {
      let list = this.postings.get(t);
      if (list === undefined) {
        list = [];
        this.postings.set(t, list);
        this.addTerm(t);
      }
      list.push(num);
    }
    for (const name of new Set([normalizeText(d.slug), normalizeText(d.displayName)])) if (name !== '') this.names.add(name, num);
  }

  private addTerm(t: string): void {
    const first = t[0] as string;
    this.vocabulary.add(t);
    const key = `${first}${t.length}`;
    let bucket = this.fuzzyBuckets.get(key);
    if (bucket === undefined) {
      bucket = [];
      this.fuzzyBuckets.set(key, bucket);
    }
    bucket.push(t);
  }

  /** Rebuilds from the alive documents when half of the numbers are dead. */
  private compactIfNeeded(): void {
    if (this.dead < 1024 || this.dead * 2 < this.docs.length) return;
    const alive = this.docs.filter((d) => d.alive).map((d) => d.source);
    // documents still pending stay so (clear() empties the map it finds)
    const pending = this.pending;
    this.pending = new Map();
    this.clear();
    for (const d of [...alive].sort((a, b) => a.modifiedAt - b.modifiedAt)) this.index(d);
    this.pending = pending;
  }
}

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

const size = (lists: ReadonlyArray<ReadonlyArray<number>>): number => lists.reduce((n, l) => n + l.length, 0);

const byRecency = (a: { readonly modifiedAt: number; readonly id: string }, b: { readonly modifiedAt: number; readonly id: string }): number =>
  b.modifiedAt - a.modifiedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Whether a document (of the cursor's tier) comes after the cursor. */
const isAfter = (d: { readonly modifiedAt: number; readonly id: string }, c: SearchCursor): boolean => byRecency(d, c) > 0;

const page = (hits: SearchHit[], limit: number): SearchPage => {
  if (hits.length <= limit) return { hits };
  const shown = hits.slice(0, limit);
  const last = shown[shown.length - 1] as SearchHit;
  return { hits: shown, next: { tier: last.tier, modifiedAt: last.modifiedAt, id: last.id } };
};

const sameText = (a: SearchEntry, b: SearchEntry): boolean =>
  a.slug === b.slug &&
  a.displayName === b.displayName &&
  a.description === b.description &&
  a.tags.length === b.tags.length &&
  a.tags.every((t, i) => t === b.tags[i]);
