/**
 * A 32-bit hash of a string: FNV-1a over its UTF-16 code units, then MurmurHash3's finalizer so
 * that every bit depends on every character (a hash trie reads the low bits first, and FNV-1a
 * alone leaves them depending on the low bits of each character only).
 */
export const hashString = (s: string): number => {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
};
