/**
 * undici, loaded the first time a request is made, not when a module that can make one is
 * imported: most commands (`gramkit check`, `schema`, `fmt`) never send a request, and undici is
 * the largest module gramkit carries (half a megabyte bundled). Types come from `import type`,
 * which costs nothing at run time.
 */
type Undici = typeof import('undici');

let loading: Promise<Undici> | undefined;

export const loadUndici = (): Promise<Undici> => (loading ??= import('undici'));
