/**
 * Interning of short source texts (names, keys, labels, number spellings): a direct-mapped cache
 * of strings keyed by a hash of their characters, so the name written on every line of a large
 * document (`Person`, `since`, `2020`) is one string in the AST instead of one copy per use.
 *
 * A miss slices the source and replaces the slot; a hit compares characters, never allocates.
 * It only saves memory and garbage: every text returned equals `src.slice(start, end)`.
 */

// -------------------------------------------------------------------------------------------------
// constants
// -------------------------------------------------------------------------------------------------

/** Slots for a large source; a small one (a signature, a spec file) gets fewer, cheaper to set up. */
const SLOTS = 4096;
const SMALL_SLOTS = 256;
const SMALL_SOURCE = 16 * 1024;
/** Longer texts are sliced: they are rarely repeated, and comparing them costs more than it saves. */
const MAX_LENGTH = 32;

// -------------------------------------------------------------------------------------------------
// the cache
// -------------------------------------------------------------------------------------------------

export class Interner {
  private readonly slots: string[];
  private readonly mask: number;

  constructor(private readonly src: string) {
    const n = src.length < SMALL_SOURCE ? SMALL_SLOTS : SLOTS;
    this.slots = new Array<string>(n).fill('');
    this.mask = n - 1;
  }

  /** `src.slice(start, end)`; `hash` is `hashOf(src, start, end)` (scanners compute it as they go). */
  text(start: number, end: number, hash: number): string {
    const n = end - start;
    if (n > MAX_LENGTH || n === 0) return this.src.slice(start, end);
    const i = (hash ^ (hash >>> 12)) & this.mask;
    const s = this.slots[i] as string;
    if (s.length === n) {
      const src = this.src;
      let k = 0;
      while (k < n && s.charCodeAt(k) === src.charCodeAt(start + k)) k++;
      if (k === n) return s;
    }
    const fresh = this.src.slice(start, end);
    this.slots[i] = fresh;
    return fresh;
  }

  /** `src.slice(start, end)`, interned. */
  range(start: number, end: number): string {
    return this.text(start, end, hashOf(this.src, start, end));
  }
}

/** The hash `Interner.text` expects: `h = h * 31 + c` over the characters, in 32 bits. */
export const hashOf = (src: string, start: number, end: number): number => {
  let h = 0;
  for (let k = start; k < end; k++) h = (Math.imul(h, 31) + src.charCodeAt(k)) | 0;
  return h;
};
