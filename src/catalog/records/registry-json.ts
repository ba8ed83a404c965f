/**
 * The registry's Tool JSON (`input_schema` in the map form or as JSON Schema, `exec` blocks), both
 * ways, as pure functions returning `Either` with diagnostics.
 *
 * ```json
 * {"id": "tool_http_get", "name": "HTTP GET", "description": "Fetch URL",
 *  "input_schema": {"url": "string"}, "output_schema": {"status": "int", "body": "string"},
 *  "permissions": ["net:read"], "safety_level": "low", "created_by": "system",
 *  "exec": {"type": "cmd", "cmd": "/usr/bin/curl", "args": ["-s", "{url}"]}}
 * ```
 *
 * - `id` is the registry id; the tool's slug is the id with `_` and `.` turned into `-`, its
 *   version `"1"`, in the registry bundle.
 * - Schemas may be JSON Schema or the map form (`map-schema.ts`).
 * - `exec.type: cmd` is a command tool (`{param}` placeholders in `args`; a `stdin` parameter is
 *   written to standard input); `exec.type: image` is refused (`CATALOG_EXEC_IMAGE_UNSUPPORTED`).
 * - Without `exec`: a nucleus id (`tool_http_get`, …) is its built-in; anything else is a
 *   `function` tool of that name, resolved against the libraries the server loaded.
 * - Extensions: `tags`, and the catalog's `type` + `impl` (which win over `exec`: a GET shows
 *   both) or `gram`.
 */
import { type Either, left, right, isLeft } from '../../core/either.js';
import { type Diagnostic, error } from '../../core/diagnostic.js';
import { isJsonObject, setOwn } from '../../core/json.js';
import type { JsonObject, JsonValue } from '../../core/json-schema.js';
import type { SafetyLevel } from '../../library/tool.js';
import { CatalogCodes } from '../codes.js';
import type { ContentEnvironment } from './content.js';
import { fieldsOf, isInstant } from './fields.js';
import { isRegistryId } from './ids.js';
import { schemaToMap } from './map-schema.js';
import { NUCLEUS } from './nucleus.js';
import { type CreatedBy, NO_USAGE, type ToolRecord, type UsageCount } from './records.js';
import { slugOfRegistryId } from './slug.js';
import { toolKind } from '../../tools/kinds.js';
import { decodeToolJson, type ToolWrite } from './tool-json.js';

/** The version of every tool registered through the registry API. */
export const REGISTRY_VERSION = '1';

const FIELDS = [
  'id',
  'name',
  'description',
  'input_schema',
  'output_schema',
  'permissions',
  'safety_level',
  'created_by',
  'created_at',
  'exec',
  'tags',
  'type',
  'impl',
  'gram',
];
const READ_ONLY = ['tool_id', 'bundle_id', 'slug', 'version', 'enabled', 'available', 'call_count', 'last_called_at'];
const SAFETY: ReadonlyArray<SafetyLevel> = ['low', 'medium', 'high'];
const CREATED_BY: ReadonlyArray<CreatedBy> = ['system', 'agent'];

/** The catalog's type and impl of an `exec` block (`{type: "cmd", cmd, args}`). */
const execImpl = (exec: unknown, inputSchema: unknown, problems: Diagnostic[]): { readonly type: string; readonly impl: JsonValue } | undefined => {
  const f = fieldsOf(exec, 'exec', problems);
  if (f === undefined) return undefined;
  f.onlyKnown(['type', 'cmd', 'args', 'image']);
  const type = f.oneOf('type', ['cmd', 'image'] as const);
  if (type === 'image') {
    problems.push(
      error(CatalogCodes.EXEC_IMAGE_UNSUPPORTED, 'exec.type "image" (a Docker image) is not supported here', {
        hint: 'use exec.type "cmd" (a program run without a shell, sandboxed by the command tool), or an http tool',
      }),
    );
    return undefined;
  }
  if (type === undefined) {
    if (f.object['type'] === undefined) problems.push(error(CatalogCodes.INVALID_RECORD, 'exec.type: missing ("cmd")'));
    return undefined;
  }
  const cmd = f.string('cmd');
  const args = f.strings('args') ?? [];
  if (cmd === undefined || cmd.trim() === '') {
    problems.push(error(CatalogCodes.INVALID_RECORD, 'exec.cmd: missing (an absolute path or a program name)'));
    return undefined;
  }
  const hasStdin =
    isJsonObject(inputSchema) &&
    (inputSchema['stdin'] !== undefined || (isJsonObject(inputSchema['properties']) && inputSchema['properties']['stdin'] !== undefined));
  return { type: 'command', impl: { argv: [cmd, ...args], env: ['PATH'], ...(hasStdin ? { stdin: 'stdin' } : {}) } };
};

/** A Tool JSON document as a catalog write. */
export const decodeRegistryTool = (u: unknown, env: ContentEnvironment): Either<ReadonlyArray<Diagnostic>, ToolWrite & { readonly registryId: string }> => {
  const problems: Diagnostic[] = [];
  const f = fieldsOf(u, 'a registry tool', problems);
  if (f === undefined) return left(problems);
  f.onlyKnown(FIELDS, READ_ONLY);
  const id = f.string('id');
  if (id === undefined) problems.push(error(CatalogCodes.INVALID_RECORD, 'id: missing (e.g. "tool_http_get")'));
  else if (!isRegistryId(id))
    problems.push(
      error(
        CatalogCodes.INVALID_REGISTRY_ID,
        `id ${JSON.stringify(id.slice(0, 80))} is not a registry id: 1 to 64 letters, digits, "_", "-" or ".", not a UUID, and not ".", "..", "usage" or "discover" (a URL cannot name those)`,
      ),
    );
  const name = f.string('name');
  const description = f.string('description');
  const permissions = f.strings('permissions');
  const safety = f.oneOf('safety_level', SAFETY);
  const createdBy = f.oneOf('created_by', CREATED_BY) ?? 'system';
  const createdAt = f.string('created_at');
  if (createdAt !== undefined && !isInstant(createdAt))
    problems.push(error(CatalogCodes.INVALID_RECORD, `created_at: ${JSON.stringify(createdAt.slice(0, 40))} is not an ISO 8601 instant`));
  const tags = f.strings('tags');
  const gram = f.string('gram');
  let type = f.string('type');
  let impl: JsonValue | undefined = f.object['impl'];
  if (gram !== undefined) {
    for (const k of ['exec', 'type', 'impl', 'input_schema', 'output_schema']) {
      if (f.object[k] !== undefined)
        problems.push(error(CatalogCodes.INVALID_RECORD, `${k}: a tool given as gram takes its schemas and implementation from it; leave ${k} out`));
    }
  } else if (impl !== undefined) {
    // type and impl (the catalog's form) win over exec, which a GET shows as their registry view
  } else if (f.object['exec'] !== undefined) {
    const e = execImpl(f.object['exec'], f.object['input_schema'], problems);
    if (e !== undefined) ({ type, impl } = e);
  } else if (gram === undefined && type === undefined && impl === undefined && id !== undefined) {
    const n = NUCLEUS[id];
    type = n !== undefined ? 'builtin' : 'function';
    impl = n !== undefined ? { builtin: n.builtin } : { function: id };
  }
  if (problems.length > 0 || id === undefined) return left(problems);
  const doc: Record<string, JsonValue> = { slug: slugOfRegistryId(id), version: REGISTRY_VERSION, createdBy, registryId: id };
  if (gram !== undefined) setOwn(doc, 'gram', gram);
  else {
    if (type !== undefined) setOwn(doc, 'type', type);
    if (impl !== undefined) setOwn(doc, 'impl', impl);
    if (f.object['input_schema'] !== undefined) setOwn(doc, 'argSchema', f.object['input_schema']);
    if (f.object['output_schema'] !== undefined) setOwn(doc, 'outputSchema', f.object['output_schema']);
  }
  const displayName = name ?? NUCLEUS[id]?.name;
  if (displayName !== undefined) setOwn(doc, 'displayName', displayName);
  const text = description ?? NUCLEUS[id]?.description;
  if (text !== undefined) setOwn(doc, 'description', text);
  if (permissions !== undefined) setOwn(doc, 'permissions', [...permissions]);
  if (safety !== undefined) setOwn(doc, 'safetyLevel', safety);
  if (tags !== undefined) setOwn(doc, 'tags', [...tags]);
  if (createdAt !== undefined) setOwn(doc, 'createdAt', createdAt);
  const w = decodeToolJson(doc, env);
  return isLeft(w) ? w : right({ ...w.right, registryId: id });
};

/** The id the registry API names a tool by: its registry id, else its toolID. */
export const registryIdOf = (r: ToolRecord): string => r.registryId ?? r.toolID;

/** What the registry API shows of a tool's state besides its record. */
export interface RegistryView {
  readonly enabled: boolean;
  readonly available: boolean;
  readonly usage: UsageCount;
}

/** A tool as the registry's Tool JSON (schemas in the map form when it says the same), with the catalog's ids beside. */
export const encodeRegistryTool = (r: ToolRecord, view: RegistryView): JsonObject => {
  const exec = toolKind(r.type).registryExec?.(r.impl);
  return {
    id: registryIdOf(r),
    name: r.displayName,
    description: r.description,
    input_schema: (schemaToMap(r.argSchema) as JsonObject | undefined) ?? r.argSchema,
    output_schema: (schemaToMap(r.outputSchema) as JsonObject | undefined) ?? r.outputSchema,
    permissions: [...r.permissions],
    safety_level: r.safetyLevel,
    created_by: r.createdBy,
    created_at: r.createdAt,
    ...(exec !== undefined ? { exec } : {}),
    tags: [...r.tags],
    type: r.type,
    impl: r.impl,
    tool_id: r.toolID,
    bundle_id: r.bundleID,
    slug: r.slug,
    version: r.version,
    enabled: view.enabled,
    available: view.available,
    call_count: view.usage.callCount,
    last_called_at: view.usage.lastCalledAt,
  };
};

/** The fields of seed 002's `Tool`, in its order. */
const SEED_FIELDS = ['id', 'name', 'description', 'input_schema', 'output_schema', 'permissions', 'safety_level', 'created_by', 'created_at', 'exec'] as const;

/**
 * A tool as seed 002's Tool JSON, its fields and no others: what Redis holds at `tool:<id>` (the
 * registry's layout, read directly by the seed's Monitor) and what `GET /api/tools` lists.
 */
export const seedRegistryTool = (r: ToolRecord): JsonObject => {
  const full = encodeRegistryTool(r, { enabled: r.isEnabled, available: true, usage: NO_USAGE });
  const out: Record<string, JsonValue> = {};
  for (const k of SEED_FIELDS) {
    const v = full[k];
    if (v !== undefined) setOwn(out, k, v);
  }
  return out;
};

/** Whether a tool has a registry view (`tool:<id>` in Redis, `GET /api/tools`): every stored tool but gramkit's own built-ins. */
export const hasRegistryView = (r: ToolRecord): boolean => !r.isBuiltIn;
