/**
 * Every code registry of src/ (each layer's `codes.ts`), loaded, for the tests that check codes
 * against the docs and the sources.
 */
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { type CodeInfo, type Registry, registries } from '../../src/core/codes.js';

export const SRC = join(import.meta.dirname, '..', '..', 'src');

/** Every `.ts` file under `dir`, recursively, as paths relative to src/. */
export const sourceFiles = (dir = SRC): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [relative(SRC, join(dir, e.name))] : [],
  );

/** The registry modules: src/<layer>/codes.ts (tools has one per kind and one for what they share). */
export const REGISTRY_FILES = sourceFiles().filter((f) => f.endsWith('codes.ts') && !f.startsWith('core/'));

/** Loads every registry module; the registries in the order docs/errors.md lists them. */
export const loadRegistries = async (): Promise<ReadonlyArray<Registry>> => {
  for (const f of REGISTRY_FILES) await import(join(SRC, f));
  return registries();
};

/** Every registered code. */
export const allCodes = async (): Promise<ReadonlyMap<string, CodeInfo>> =>
  new Map((await loadRegistries()).flatMap((r) => r.codes.map((c) => [c.code, c] as const)));
