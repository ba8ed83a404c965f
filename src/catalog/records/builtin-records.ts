/**
 * The built-in bundle: gramkit's built-in tools, served by the same API as every bundle. Its
 * records are made from the code (so an upgrade of gramkit upgrades them), with fixed ids; only
 * `isEnabled` may change, and only that (with `modifiedAt`) is taken from a stored copy.
 */
import type { ToolAnnotations } from '../../library/tool.js';
import type { ToolSpecification } from '../../specification/tool-spec.js';
import { fixedId } from './ids.js';
import { type BundleRecord, SCHEMA_VERSION, type ToolRecord } from './records.js';

export const BUILTIN_BUNDLE_ID = fixedId('bundle:builtin');
export const BUILTIN_BUNDLE_SLUG = 'builtin';
const EPOCH = new Date(0).toISOString();

export const builtinBundle = (stored?: BundleRecord): BundleRecord =>
  Object.freeze({
    schemaVersion: SCHEMA_VERSION,
    bundleID: BUILTIN_BUNDLE_ID,
    slug: BUILTIN_BUNDLE_SLUG,
    displayName: 'Built-in tools',
    description: "gramkit's built-in tools: files, code, shell, web, JSON and text, confined to the server's workspace",
    isEnabled: stored?.isEnabled ?? true,
    isBuiltIn: true,
    softDeletedAt: null,
    createdAt: EPOCH,
    modifiedAt: stored?.modifiedAt ?? EPOCH,
  });

/** The tool id of a built-in. */
export const builtinToolId = (name: string): string => fixedId(`tool:builtin:${name}`);

/** The record of a built-in tool (its slug is its name with `-` for `_`; its registry id is its name). */
export const builtinToolRecord = (spec: ToolSpecification, annotations: ToolAnnotations | undefined, stored?: ToolRecord): ToolRecord =>
  Object.freeze({
    schemaVersion: SCHEMA_VERSION,
    bundleID: BUILTIN_BUNDLE_ID,
    toolID: builtinToolId(spec.name),
    slug: spec.name.replace(/_/g, '-'),
    version: '1',
    displayName: spec.name,
    description: spec.description,
    type: 'builtin',
    isEnabled: stored?.isEnabled ?? true,
    isBuiltIn: true,
    signature: spec.typeSignature,
    argSchema: spec.schema,
    outputSchema: spec.outputSchema,
    impl: { builtin: spec.name },
    tags: ['builtin'],
    permissions: [...(annotations?.permissions ?? [])],
    safetyLevel: annotations?.safetyLevel ?? 'low',
    createdBy: 'system',
    registryId: spec.name,
    createdAt: EPOCH,
    modifiedAt: stored?.modifiedAt ?? EPOCH,
  });
