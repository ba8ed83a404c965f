/**
 * Bundles as JSON: the body of a bundle's PUT (`{slug, displayName, isEnabled, description}`) and
 * the stored record, as pure functions returning `Either` with diagnostics.
 */
import { type Either, left, right, isLeft } from '../../core/either.js';
import { type Diagnostic, error } from '../../core/diagnostic.js';
import type { JsonObject } from '../../core/json-schema.js';
import { CatalogCodes } from '../codes.js';
import { fieldsOf } from './fields.js';
import { isUuidV7 } from './ids.js';
import type { BundleRecord } from './records.js';
import { parseBundleSlug } from './slug.js';

/** What a PUT of a bundle sets. */
export interface BundleWrite {
  readonly slug: string;
  readonly displayName: string;
  readonly description: string;
  readonly isEnabled: boolean;
}

const WRITE_FIELDS = ['slug', 'displayName', 'description', 'isEnabled'];
const READ_ONLY = ['schemaVersion', 'bundleID', 'isBuiltIn', 'softDeletedAt', 'createdAt', 'modifiedAt', 'toolCount'];

/** A PUT body: `slug` is required; `displayName` defaults to the slug, `description` to "", `isEnabled` to true. */
export const decodeBundleWrite = (u: unknown): Either<ReadonlyArray<Diagnostic>, BundleWrite> => {
  const problems: Diagnostic[] = [];
  const f = fieldsOf(u, 'a bundle', problems);
  if (f === undefined) return left(problems);
  f.onlyKnown(WRITE_FIELDS, READ_ONLY);
  const slug = f.string('slug');
  const displayName = f.string('displayName');
  const description = f.string('description');
  const isEnabled = f.boolean('isEnabled');
  if (slug === undefined) {
    if (f.object['slug'] === undefined) problems.push(error(CatalogCodes.INVALID_RECORD, 'slug: missing'));
  } else {
    const s = parseBundleSlug(slug);
    if (isLeft(s)) problems.push(...s.left);
  }
  if (displayName !== undefined && displayName.trim() === '')
    problems.push(error(CatalogCodes.INVALID_RECORD, 'displayName: must not be empty (leave it out to use the slug)'));
  if (problems.length > 0 || slug === undefined) return left(problems);
  return right({ slug, displayName: displayName ?? slug, description: description ?? '', isEnabled: isEnabled ?? true });
};

/** A PATCH body: `{isEnabled}` and nothing else. */
export const decodeEnabledPatch = (u: unknown): Either<ReadonlyArray<Diagnostic>, boolean> => {
  const problems: Diagnostic[] = [];
  const f = fieldsOf(u, 'a PATCH body', problems);
  if (f === undefined) return left(problems);
  const others = Object.keys(f.object).filter((k) => k !== 'isEnabled');
  if (others.length > 0) {
    return left([
      error(CatalogCodes.PATCH_ONLY_ENABLED, `PATCH changes isEnabled only; the body also has ${others.map((k) => JSON.stringify(k)).join(', ')}`, {
        hint: 'use PUT to change anything else',
      }),
    ]);
  }
  const v = f.boolean('isEnabled');
  if (v === undefined) {
    if (f.object['isEnabled'] === undefined) problems.push(error(CatalogCodes.INVALID_RECORD, 'isEnabled: missing'));
    return left(problems);
  }
  return right(v);
};

export const encodeBundle = (b: BundleRecord): JsonObject => ({
  schemaVersion: b.schemaVersion,
  bundleID: b.bundleID,
  slug: b.slug,
  displayName: b.displayName,
  description: b.description,
  isEnabled: b.isEnabled,
  isBuiltIn: b.isBuiltIn,
  softDeletedAt: b.softDeletedAt,
  createdAt: b.createdAt,
  modifiedAt: b.modifiedAt,
});

export const decodeStoredBundle = (u: unknown): Either<ReadonlyArray<Diagnostic>, BundleRecord> => {
  const problems: Diagnostic[] = [];
  const f = fieldsOf(u, 'a stored bundle', problems);
  if (f === undefined) return left(problems);
  const need = <A>(k: string, v: A | undefined): A => {
    if (v === undefined) problems.push(error(CatalogCodes.INVALID_RECORD, `${k}: missing or of the wrong type`));
    return v as A;
  };
  const soft = f.nullableString('softDeletedAt');
  const record: BundleRecord = {
    schemaVersion: need('schemaVersion', f.string('schemaVersion')),
    bundleID: need('bundleID', f.string('bundleID')),
    slug: need('slug', f.string('slug')),
    displayName: need('displayName', f.string('displayName')),
    description: need('description', f.string('description')),
    isEnabled: need('isEnabled', f.boolean('isEnabled')),
    isBuiltIn: need('isBuiltIn', f.boolean('isBuiltIn')),
    softDeletedAt: soft ?? null,
    createdAt: need('createdAt', f.string('createdAt')),
    modifiedAt: need('modifiedAt', f.string('modifiedAt')),
  };
  if (problems.length === 0 && !isUuidV7(record.bundleID)) problems.push(error(CatalogCodes.INVALID_ID, 'bundleID must be a UUIDv7'));
  return problems.length > 0 ? left(problems) : right(Object.freeze(record));
};
