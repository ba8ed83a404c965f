/**
 * Specification files: read (`.gram`, or `.json` in the JSON form) and loaded together, an
 * unreadable file being a diagnostic (`SPEC_READ_ERROR`), never a rejection.
 */
import { readFile } from 'node:fs/promises';
import { type Either, left, isLeft } from '../core/either.js';
import { type Diagnostic, error } from '../core/diagnostic.js';
import { SpecCodes } from '../types/codes.js';
import { type KnownTools, type Specifications } from './specifications.js';
import { loadSpecifications, type SpecificationSource } from './load.js';

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

/**
 * Reads specification files (`.gram`, or `.json` in the JSON form) and loads them together: agents
 * may reference tools of any of the files. An unreadable file is a diagnostic, never a rejection.
 */
export const loadSpecificationFiles = async (
  paths: ReadonlyArray<string>,
  options: { readonly strict?: boolean; readonly knownTools?: KnownTools } = {},
): Promise<Either<ReadonlyArray<Diagnostic>, Specifications>> => {
  const sources: SpecificationSource[] = [];
  const problems: Diagnostic[] = [];
  await Promise.all(
    paths.map(async (p, i) => {
      try {
        sources[i] = { text: await readFile(p, 'utf8'), filename: p };
      } catch (e) {
        problems.push(error(SpecCodes.READ_ERROR, `cannot read ${p}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, { file: p }));
      }
    }),
  );
  const r = loadSpecifications(
    sources.filter((s) => s !== undefined),
    options,
  );
  if (problems.length === 0) return r;
  return left([...problems, ...(isLeft(r) ? r.left : r.right.warnings)]);
};
