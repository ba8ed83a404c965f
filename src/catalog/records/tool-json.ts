/**
 * The `tool.json` record of a tool bundle, both ways, as pure functions returning `Either` with
 * diagnostics:
 *
 * - `decodeToolJson`: a tool as a client writes it (a PUT body, a `tool.json` file, an export):
 *   the record's fields (`slug`, `version`, `displayName`, `description`, `type`, `isEnabled`,
 *   …), the registry's `tags`, `permissions`, `safetyLevel`, `createdBy`, and either
 *   `argSchema`/`outputSchema`/`impl` or `{"gram": "[slug:Tool {…} | signature]"}`. The
 *   `"type": "go"` with `{"goFunc": "pkg.Name"}` reads as a `function` tool named `pkg.Name`.
 *   Identity and timestamps (`bundleID`, `toolID`, `createdAt`, `modifiedAt`) are kept for imports;
 *   the routes ignore them.
 * - `decodeStoredTool` / `encodeTool`: the stored record, exactly.
 */
import { type Either, left, right, isLeft } from '../../core/either.js';
import { type Diagnostic, error } from '../../core/diagnostic.js';
import { isJsonObject } from '../../core/json.js';
import type { JsonObject, JsonSchema } from '../../core/json-schema.js';
import type { SafetyLevel, ToolLimits } from '../../library/tool.js';
import { CatalogCodes } from '../codes.js';
import { type Built, buildContent, type ContentEnvironment, type ContentInput, gramToInput } from './content.js';
import { fieldsOf, isInstant } from './fields.js';
import { isRegistryId, isUuidV7 } from './ids.js';
import { type CreatedBy, TOOL_TYPES, type ToolRecord, type ToolType } from './records.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** A decoded write: the content, and what else the document said. */
export interface ToolWrite {
  readonly built: Built;
  readonly isEnabled?: boolean;
  readonly createdBy?: CreatedBy;
  readonly registryId?: string;
  readonly limits?: ToolLimits;
  /** Present in files and exports; the routes ignore them. */
  readonly bundleID?: string;
  readonly toolID?: string;
  readonly createdAt?: string;
  readonly modifiedAt?: string;
}

/** Where a write comes from: a route fixes the slug and version, a file may not. */
export interface ToolJsonContext {
  readonly slug?: string;
  readonly version?: string;
}

const SAFETY: ReadonlyArray<SafetyLevel> = ['low', 'medium', 'high'];
const CREATED_BY: ReadonlyArray<CreatedBy> = ['system', 'agent'];

const CONTENT_FIELDS = [
  'slug',
  'version',
  'displayName',
  'description',
  'type',
  'argSchema',
  'outputSchema',
  'impl',
  'signature',
  'tags',
  'permissions',
  'safetyLevel',
  'gram',
];
const STATE_FIELDS = ['isEnabled', 'createdBy', 'registryId', 'limits', 'bundleID', 'toolID', 'createdAt', 'modifiedAt'];

const LIMIT_KEYS = ['timeoutMs', 'maxResultBytes', 'maxCallsPerMinute'] as const;

/**
 * A record's `limits`: an object of positive whole numbers (`timeoutMs`, `maxResultBytes`,
 * `maxCallsPerMinute`), nothing else; absent or `{}` is no limit.
 */
const decodeLimits = (v: unknown, problems: Diagnostic[]): ToolLimits | undefined => {
  if (v === undefined) return undefined;
  if (!isJsonObject(v)) {
    const example = '{"timeoutMs": 5000, "maxCallsPerMinute": 60, "maxResultBytes": 100000}';
    problems.push(error(CatalogCodes.INVALID_RECORD, `limits: expected an object such as ${example}`));
    return undefined;
  }
  const out: Record<string, number> = {};
  for (const [k, n] of Object.entries(v)) {
    if (!(LIMIT_KEYS as ReadonlyArray<string>).includes(k))
      problems.push(error(CatalogCodes.INVALID_RECORD, `limits.${k}: not a limit; the limits are ${LIMIT_KEYS.join(', ')}`));
    else if (typeof n !== 'number' || !Number.isSafeInteger(n) || n <= 0) {
      problems.push(error(CatalogCodes.INVALID_RECORD, `limits.${k}: must be a positive whole number, got ${JSON.stringify(n)}`));
    } else out[k] = n;
  }
  return Object.keys(out).length > 0 ? Object.freeze(out) : undefined;
};
/** Fields a GET shows that a write may carry back unchanged (they are not written). */
export const READ_ONLY_TOOL_FIELDS = ['schemaVersion', 'isBuiltIn', 'callCount', 'lastCalledAt', 'available', 'unavailableReason', 'bundleSlug'];

// -------------------------------------------------------------------------------------------------
// writes
// -------------------------------------------------------------------------------------------------

/** A record's `registryId`, when it has one, must be a registry id. */
const checkRegistryId = (registryId: string | undefined, problems: Diagnostic[]): void => {
  if (registryId !== undefined && !isRegistryId(registryId))
    problems.push(error(CatalogCodes.INVALID_REGISTRY_ID, `registryId ${JSON.stringify(registryId)} is not a registry id`));
};

/** A timestamp a write carries (`createdAt`, `modifiedAt`), normalized into `into`, or a problem. */
const instantInto = (into: Record<string, string>, k: 'createdAt' | 'modifiedAt', v: string | undefined, problems: Diagnostic[]): void => {
  if (v === undefined) return;
  if (isInstant(v)) into[k] = new Date(v).toISOString();
  else problems.push(error(CatalogCodes.INVALID_RECORD, `${k}: ${JSON.stringify(v.slice(0, 40))} is not an ISO 8601 instant`));
};

/** The `go` type (a function of the host program), read as a function tool. */
const goAsFunction = (type: string | undefined, impl: unknown): { readonly type: string | undefined; readonly impl: unknown } => {
  if (type !== 'go') return { type, impl };
  const name = isJsonObject(impl) ? (impl['goFunc'] ?? impl['function']) : impl;
  return { type: 'function', impl: typeof name === 'string' ? { function: name } : impl };
};

/** A tool as a client writes it; `ctx` gives the route's slug and version, which the body must repeat or leave out. */
export const decodeToolJson = (u: unknown, env: ContentEnvironment, ctx: ToolJsonContext = {}): Either<ReadonlyArray<Diagnostic>, ToolWrite> => {
  const problems: Diagnostic[] = [];
  const f = fieldsOf(u, 'a tool', problems);
  if (f === undefined) return left(problems);
  f.onlyKnown([...CONTENT_FIELDS, ...STATE_FIELDS], READ_ONLY_TOOL_FIELDS);
  const gram = f.string('gram');
  const slug = f.string('slug');
  const version = f.string('version');
  const isEnabled = f.boolean('isEnabled');
  const createdBy = f.oneOf('createdBy', CREATED_BY);
  const registryId = f.string('registryId');
  const limits = decodeLimits(f.object['limits'], problems);
  checkRegistryId(registryId, problems);
  const ids: Record<string, string> = {};
  for (const k of ['bundleID', 'toolID'] as const) {
    const v = f.string(k);
    if (v !== undefined) {
      if (isUuidV7(v.toLowerCase())) ids[k] = v.toLowerCase();
      else problems.push(error(CatalogCodes.INVALID_ID, `${k} ${JSON.stringify(v.slice(0, 80))} is not a UUIDv7`));
    }
  }
  for (const k of ['createdAt', 'modifiedAt'] as const) instantInto(ids, k, f.string(k), problems);
  for (const [k, expected] of [
    ['slug', ctx.slug],
    ['version', ctx.version],
  ] as const) {
    const given = k === 'slug' ? slug : version;
    if (expected !== undefined && given !== undefined && given !== expected) {
      problems.push(
        error(CatalogCodes.KEY_MISMATCH, `the body's ${k} ${JSON.stringify(given)} differs from the path's ${JSON.stringify(expected)}`, {
          hint: `leave ${k} out of the body, or make it match`,
        }),
      );
    }
  }

  let input: ContentInput | undefined;
  if (gram !== undefined) {
    for (const k of ['argSchema', 'outputSchema', 'impl', 'type', 'signature']) {
      if (f.object[k] !== undefined)
        problems.push(error(CatalogCodes.INVALID_RECORD, `${k}: a write with "gram" takes the specification and implementation from it; leave ${k} out`));
    }
    const routeVersion = version ?? ctx.version;
    const g = gramToInput(gram, routeVersion !== undefined ? { version: routeVersion } : {});
    if (isLeft(g)) problems.push(...g.left);
    else {
      if (ctx.slug !== undefined && g.right.slug !== ctx.slug) {
        problems.push(
          error(CatalogCodes.KEY_MISMATCH, `the gram tool is named ${JSON.stringify(g.right.slug)} but the path's slug is ${JSON.stringify(ctx.slug)}`),
        );
      }
      if (ctx.version !== undefined && g.right.version !== ctx.version) {
        problems.push(
          error(CatalogCodes.KEY_MISMATCH, `the gram tool's version ${JSON.stringify(g.right.version)} differs from the path's ${JSON.stringify(ctx.version)}`),
        );
      }
      const displayName = f.string('displayName');
      const tags = f.strings('tags');
      const permissions = f.strings('permissions');
      const safetyLevel = f.oneOf('safetyLevel', SAFETY);
      const description = f.string('description');
      input = {
        ...g.right,
        ...(displayName !== undefined ? { displayName } : {}),
        ...(description !== undefined ? { description } : {}),
        ...(tags !== undefined ? { tags } : {}),
        ...(permissions !== undefined ? { permissions } : {}),
        ...(safetyLevel !== undefined ? { safetyLevel } : {}),
      };
    }
  } else {
    const rawType = f.string('type');
    const { type, impl } = goAsFunction(rawType, f.object['impl']);
    const displayName = f.string('displayName');
    const description = f.string('description');
    const signature = f.string('signature');
    const tags = f.strings('tags');
    const permissions = f.strings('permissions');
    const safetyLevel = f.oneOf('safetyLevel', SAFETY);
    const s = slug ?? ctx.slug;
    const v = version ?? ctx.version;
    if (s === undefined) problems.push(error(CatalogCodes.INVALID_RECORD, 'slug: missing'));
    if (v === undefined) problems.push(error(CatalogCodes.INVALID_RECORD, 'version: missing'));
    if (s !== undefined && v !== undefined) {
      input = {
        slug: s,
        version: v,
        ...(displayName !== undefined ? { displayName } : {}),
        ...(description !== undefined ? { description } : {}),
        ...(type !== undefined ? { type } : {}),
        ...(signature !== undefined ? { signature } : {}),
        ...(f.object['argSchema'] !== undefined ? { argSchema: f.object['argSchema'] } : {}),
        ...(f.object['outputSchema'] !== undefined ? { outputSchema: f.object['outputSchema'] } : {}),
        ...(impl !== undefined ? { impl } : {}),
        ...(tags !== undefined ? { tags } : {}),
        ...(permissions !== undefined ? { permissions } : {}),
        ...(safetyLevel !== undefined ? { safetyLevel } : {}),
      };
    }
  }
  if (problems.length > 0 || input === undefined) return left(problems);
  const built = buildContent(input, env);
  if (isLeft(built)) return built;
  return right({
    built: built.right,
    ...(isEnabled !== undefined ? { isEnabled } : {}),
    ...(createdBy !== undefined ? { createdBy } : {}),
    ...(registryId !== undefined ? { registryId } : {}),
    ...(limits !== undefined ? { limits } : {}),
    ...ids,
  });
};

// -------------------------------------------------------------------------------------------------
// stored records
// -------------------------------------------------------------------------------------------------

/** The stored form of a tool record (field order fixed, so equal records are equal bytes). */
export const encodeTool = (r: ToolRecord): JsonObject => ({
  schemaVersion: r.schemaVersion,
  bundleID: r.bundleID,
  toolID: r.toolID,
  slug: r.slug,
  version: r.version,
  displayName: r.displayName,
  description: r.description,
  type: r.type,
  isEnabled: r.isEnabled,
  isBuiltIn: r.isBuiltIn,
  signature: r.signature,
  argSchema: r.argSchema,
  outputSchema: r.outputSchema,
  impl: r.impl,
  tags: [...r.tags],
  permissions: [...r.permissions],
  safetyLevel: r.safetyLevel,
  createdBy: r.createdBy,
  ...(r.registryId !== undefined ? { registryId: r.registryId } : {}),
  ...(r.limits !== undefined ? { limits: { ...r.limits } } : {}),
  createdAt: r.createdAt,
  modifiedAt: r.modifiedAt,
});

/** The fields of a stored record (`encodeTool`'s). */
const STORED_FIELDS = ['schemaVersion', ...CONTENT_FIELDS.filter((k) => k !== 'gram'), 'isBuiltIn', ...STATE_FIELDS];

/**
 * A stored tool record, checked for shape only (the content was checked when it was written; the
 * signature is parsed when the tool is first invoked or exported).
 */
export const decodeStoredTool = (u: unknown, options: { readonly exact?: boolean } = {}): Either<ReadonlyArray<Diagnostic>, ToolRecord> => {
  const problems: Diagnostic[] = [];
  const f = fieldsOf(u, 'a stored tool', problems);
  if (f === undefined) return left(problems);
  if (options.exact === true) f.onlyKnown(STORED_FIELDS, READ_ONLY_TOOL_FIELDS);
  const need = <A>(k: string, v: A | undefined): A => {
    if (v === undefined && f.object[k] === undefined) problems.push(error(CatalogCodes.INVALID_RECORD, `${k}: missing`));
    return v as A;
  };
  const obj = (k: string): JsonObject => {
    const v = f.object[k];
    if (!isJsonObject(v)) problems.push(error(CatalogCodes.INVALID_RECORD, `${k}: expected an object`));
    return v as JsonObject;
  };
  const outputSchema = f.object['outputSchema'];
  if (typeof outputSchema !== 'boolean' && !isJsonObject(outputSchema)) problems.push(error(CatalogCodes.INVALID_RECORD, 'outputSchema: expected a schema'));
  const registryId = f.string('registryId');
  const limits = decodeLimits(f.object['limits'], problems);
  const record: ToolRecord = {
    schemaVersion: need('schemaVersion', f.string('schemaVersion')),
    bundleID: need('bundleID', f.string('bundleID')),
    toolID: need('toolID', f.string('toolID')),
    slug: need('slug', f.string('slug')),
    version: need('version', f.string('version')),
    displayName: need('displayName', f.string('displayName')),
    description: need('description', f.string('description')),
    type: need('type', f.oneOf('type', TOOL_TYPES)) as ToolType,
    isEnabled: need('isEnabled', f.boolean('isEnabled')),
    isBuiltIn: need('isBuiltIn', f.boolean('isBuiltIn')),
    signature: need('signature', f.string('signature')),
    argSchema: obj('argSchema'),
    outputSchema: outputSchema as JsonSchema,
    impl: obj('impl'),
    tags: need('tags', f.strings('tags')),
    permissions: need('permissions', f.strings('permissions')),
    safetyLevel: need('safetyLevel', f.oneOf('safetyLevel', SAFETY)),
    createdBy: need('createdBy', f.oneOf('createdBy', CREATED_BY)),
    ...(registryId !== undefined ? { registryId } : {}),
    ...(limits !== undefined ? { limits } : {}),
    createdAt: need('createdAt', f.string('createdAt')),
    modifiedAt: need('modifiedAt', f.string('modifiedAt')),
  };
  if (problems.length === 0 && (!isUuidV7(record.toolID) || !isUuidV7(record.bundleID)))
    problems.push(error(CatalogCodes.INVALID_ID, 'toolID and bundleID must be UUIDv7'));
  return problems.length > 0 ? left(problems) : right(Object.freeze(record));
};

/**
 * The write of a stored record an export carries (decoded by `decodeStoredTool`, not read again):
 * what `decodeToolJson` checks of the same record, from its fields. The content is built as a
 * write's (slug, version, implementation, the signature against the schemas beside it); the ids
 * were checked by the decoding, the registry id and the timestamps are checked here.
 */
export const storedToolWrite = (r: ToolRecord, env: ContentEnvironment): Either<ReadonlyArray<Diagnostic>, ToolWrite> => {
  const problems: Diagnostic[] = [];
  checkRegistryId(r.registryId, problems);
  const at: Record<string, string> = {};
  instantInto(at, 'createdAt', r.createdAt, problems);
  instantInto(at, 'modifiedAt', r.modifiedAt, problems);
  if (problems.length > 0) return left(problems);
  const { slug, version, displayName, description, type, signature, argSchema, outputSchema, impl, tags, permissions, safetyLevel } = r;
  const built = buildContent({ slug, version, displayName, description, type, signature, argSchema, outputSchema, impl, tags, permissions, safetyLevel }, env);
  if (isLeft(built)) return built;
  return right({
    built: built.right,
    isEnabled: r.isEnabled,
    createdBy: r.createdBy,
    ...(r.registryId !== undefined ? { registryId: r.registryId } : {}),
    ...(r.limits !== undefined ? { limits: r.limits } : {}),
    bundleID: r.bundleID,
    toolID: r.toolID,
    ...at,
  });
};
