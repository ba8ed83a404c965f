/**
 * A count with its noun in the right number: `1 character`, `2 characters`, `1 property`,
 * `0 properties`. Every message that counts says it this way ("at least 1 characters" was not).
 */

/** `n word`, the noun made plural unless n is 1 (`-y` → `-ies` after a consonant, else `-s`); `many` overrides it. */
export const plural = (n: number, word: string, many?: string): string =>
  `${n} ${n === 1 ? word : (many ?? (/[^aeiou]y$/.test(word) ? `${word.slice(0, -1)}ies` : `${word}s`))}`;
