/**
 * The JSON Schemas of the service: request bodies (which validate requests, compiled by gramkit's
 * validator: no coercion, nothing dropped) and responses (for the OpenAPI document). Record fields
 * are checked in depth by the catalog's codecs, which name each field; these schemas check the
 * shape.
 */
import type { JsonObject } from '../core/json-schema.js';
import { TOOL_TYPES } from '../catalog/records/records.js';

export const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-7[0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$';
/** A tool slug: single underscores inside (never `__`, nor one at an end); the length (64 runes) is checked by the catalog (patterns run on a linear-time engine: no lookahead). */
export const SLUG_PATTERN = '^[\\p{L}\\p{Nd}-]+(_[\\p{L}\\p{Nd}-]+)*$';
export const VERSION_PATTERN = '^[\\p{L}\\p{Nd}.-]{1,64}$';

const ref = (name: string): JsonObject => ({ $ref: `#/components/schemas/${name}` });

// -------------------------------------------------------------------------------------------------
// requests
// -------------------------------------------------------------------------------------------------

export const BundleWriteSchema: JsonObject = {
  type: 'object',
  description: 'A bundle, as a PUT sends it. displayName defaults to the slug, description to "", isEnabled to true.',
  properties: {
    slug: { type: 'string', description: 'Unicode letters, digits and "-"; at most 64 runes; unique among live bundles' },
    displayName: { type: 'string' },
    description: { type: 'string' },
    isEnabled: { type: 'boolean' },
  },
  required: ['slug'],
};

export const EnabledPatchSchema: JsonObject = {
  type: 'object',
  description: 'PATCH changes isEnabled and nothing else',
  properties: { isEnabled: { type: 'boolean' } },
  required: ['isEnabled'],
  additionalProperties: false,
};

export const ToolWriteSchema: JsonObject = {
  type: 'object',
  description: `A tool, as a tool.json record: its fields. Either argSchema (JSON Schema, or the map form {"url": "string"}), outputSchema, type and impl; or gram ("[slug:Tool {description, version, ${TOOL_TYPES.join('|')}: …} | signature]").`,
  properties: {
    slug: { type: 'string', description: "must equal the path's when present" },
    version: { type: 'string', description: "must equal the path's when present" },
    displayName: { type: 'string' },
    description: { type: 'string' },
    type: { type: 'string', enum: [...TOOL_TYPES, 'go'] },
    argSchema: { type: 'object' },
    outputSchema: { type: ['object', 'boolean'] },
    impl: { type: ['object', 'string'] },
    signature: { type: 'string', description: 'a gram type signature, instead of argSchema and outputSchema' },
    gram: { type: 'string' },
    tags: { type: 'array', items: { type: 'string' } },
    permissions: { type: 'array', items: { type: 'string' } },
    safetyLevel: { type: 'string', enum: ['low', 'medium', 'high'] },
    isEnabled: { type: 'boolean' },
    createdBy: { type: 'string', enum: ['system', 'agent'] },
  },
};

export const InvokeSchema: JsonObject = {
  type: 'object',
  description: 'the arguments under "args" (default {})',
  properties: { args: { type: 'object', description: "validated against the tool's argSchema" } },
  additionalProperties: false,
};

export const ParametersSchema: JsonObject = {
  type: 'object',
  description: 'the body is the arguments (an empty body means {})',
};

export const ApproveSchema: JsonObject = {
  type: 'object',
  description: 'optional: the arguments to run the call with instead (validated and judged again), and a note',
  properties: { args: { type: 'object', description: 'the changed arguments' }, message: { type: 'string', maxLength: 2000 } },
  additionalProperties: false,
};

export const DenySchema: JsonObject = {
  type: 'object',
  description: 'optional: why, passed on to the caller',
  properties: { message: { type: 'string', maxLength: 2000 } },
  additionalProperties: false,
};

export const RegistryToolWriteSchema: JsonObject = {
  type: 'object',
  description: 'Tool JSON; created_by defaults to system',
  properties: {
    id: { type: 'string', description: '1 to 64 letters, digits, "_", "-" or "."' },
    name: { type: 'string' },
    description: { type: 'string' },
    input_schema: { type: 'object', description: 'JSON Schema, or the map form {"url": "string", "limit?": "int"}' },
    output_schema: { type: 'object' },
    permissions: { type: 'array', items: { type: 'string' } },
    safety_level: { type: 'string', enum: ['low', 'medium', 'high'] },
    created_by: { type: 'string', enum: ['system', 'agent'] },
    created_at: { type: 'string' },
    exec: {
      type: 'object',
      properties: {
        type: { type: 'string', enum: ['cmd', 'image'] },
        cmd: { type: 'string' },
        args: { type: 'array', items: { type: 'string' } },
        image: { type: 'string' },
      },
    },
    tags: { type: 'array', items: { type: 'string' } },
    type: { type: 'string' },
    impl: { type: ['object', 'string'] },
    gram: { type: 'string' },
  },
  required: ['id'],
};

// -------------------------------------------------------------------------------------------------
// responses
// -------------------------------------------------------------------------------------------------

const stamp = { type: 'string', format: 'date-time' };

export const COMPONENTS: Readonly<Record<string, JsonObject>> = {
  Problem: {
    type: 'object',
    description: 'RFC 9457 problem details',
    properties: {
      type: { type: 'string' },
      title: { type: 'string' },
      status: { type: 'integer' },
      detail: { type: 'string' },
      code: { type: 'string', description: 'a SERVICE_… or CATALOG_… code (docs/service.md)' },
      diagnostics: { type: 'array', items: { type: 'object' } },
      issues: { type: 'array', items: { type: 'object' } },
      invalidParams: {
        type: 'array',
        description: 'the query parameters refused: undeclared, or a value that does not fit',
        items: { type: 'object', properties: { name: { type: 'string' }, reason: { type: 'string' } }, required: ['name', 'reason'] },
      },
      retryable: { type: 'boolean', description: 'whether the same request may succeed later' },
    },
    required: ['type', 'title', 'status', 'detail', 'code'],
  },
  Bundle: {
    type: 'object',
    properties: {
      schemaVersion: { type: 'string' },
      bundleID: { type: 'string', pattern: UUID_PATTERN },
      slug: { type: 'string' },
      displayName: { type: 'string' },
      description: { type: 'string' },
      isEnabled: { type: 'boolean' },
      isBuiltIn: { type: 'boolean' },
      softDeletedAt: { type: ['string', 'null'] },
      createdAt: stamp,
      modifiedAt: stamp,
      toolCount: { type: 'integer' },
    },
  },
  Tool: {
    type: 'object',
    properties: {
      schemaVersion: { type: 'string' },
      bundleID: { type: 'string' },
      toolID: { type: 'string' },
      slug: { type: 'string' },
      version: { type: 'string' },
      displayName: { type: 'string' },
      description: { type: 'string' },
      type: { type: 'string', enum: [...TOOL_TYPES] },
      isEnabled: { type: 'boolean' },
      isBuiltIn: { type: 'boolean' },
      signature: { type: 'string', description: 'the gram type signature (the source of the schemas)' },
      argSchema: { type: 'object' },
      outputSchema: { type: ['object', 'boolean'] },
      impl: { type: 'object' },
      tags: { type: 'array', items: { type: 'string' } },
      permissions: { type: 'array', items: { type: 'string' } },
      safetyLevel: { type: 'string' },
      createdBy: { type: 'string', enum: ['system', 'agent'] },
      registryId: { type: 'string' },
      limits: {
        type: 'object',
        description: "per-tool limits applied on invoke (the stricter of these and the implementation's own)",
        properties: {
          timeoutMs: { type: 'integer', minimum: 1 },
          maxResultBytes: { type: 'integer', minimum: 1 },
          maxCallsPerMinute: { type: 'integer', minimum: 1 },
        },
        additionalProperties: false,
      },
      createdAt: stamp,
      modifiedAt: stamp,
      bundleSlug: { type: ['string', 'null'] },
      available: { type: 'boolean' },
      unavailableReason: { type: 'string' },
      callCount: { type: 'integer' },
      lastCalledAt: { type: ['string', 'null'] },
      match: { type: 'string', enum: ['prefix', 'word', 'fuzzy'], description: 'search results: the tier that matched' },
    },
  },
  BundleList: { type: 'object', properties: { bundles: { type: 'array', items: ref('Bundle') }, nextPageToken: { type: 'string' } }, required: ['bundles'] },
  ToolList: { type: 'object', properties: { tools: { type: 'array', items: ref('Tool') }, nextPageToken: { type: 'string' } }, required: ['tools'] },
  ToolWritten: { type: 'object', properties: { tool: ref('Tool'), warnings: { type: 'array', items: { type: 'object' } } }, required: ['tool'] },
  CheckResult: {
    type: 'object',
    description: 'what a PUT of the body would say, nothing written: ok when no error; each diagnostic with its place in the gram text when it has one',
    properties: {
      ok: { type: 'boolean' },
      diagnostics: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            code: { type: 'string' },
            severity: { type: 'string', enum: ['error', 'warning', 'info'] },
            message: { type: 'string' },
            hint: { type: 'string' },
            start: { type: 'integer', description: 'UTF-16 offset into the gram text' },
            end: { type: 'integer' },
            line: { type: 'integer', description: 'from 1' },
            column: { type: 'integer', description: 'from 1' },
          },
          required: ['code', 'severity', 'message'],
        },
      },
    },
    required: ['ok', 'diagnostics'],
  },
  ToolResult: {
    type: 'object',
    description: '{ok: true, value} or {ok: false, error: {code, message, details?, retryable}}',
    properties: {
      ok: { type: 'boolean' },
      value: {},
      error: { type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' }, details: {}, retryable: { type: 'boolean' } } },
    },
    required: ['ok'],
  },
  RegistryTool: {
    type: 'object',
    description: "Tool JSON, with the catalog's ids beside",
    properties: {
      id: { type: 'string' },
      name: { type: 'string' },
      description: { type: 'string' },
      input_schema: { type: 'object' },
      output_schema: { type: ['object', 'boolean'] },
      permissions: { type: 'array', items: { type: 'string' } },
      safety_level: { type: 'string' },
      created_by: { type: 'string' },
      created_at: stamp,
      exec: { type: 'object' },
      tags: { type: 'array', items: { type: 'string' } },
      type: { type: 'string' },
      impl: { type: 'object' },
      tool_id: { type: 'string' },
      bundle_id: { type: 'string' },
      slug: { type: 'string' },
      version: { type: 'string' },
      enabled: { type: 'boolean' },
      available: { type: 'boolean' },
      call_count: { type: 'integer' },
      last_called_at: { type: ['string', 'null'] },
    },
  },
  UsageEntry: {
    type: 'object',
    properties: {
      ts: stamp,
      type: { type: 'string' },
      tool: { type: 'string' },
      toolID: { type: 'string' },
      ok: { type: 'boolean' },
      code: { type: 'string' },
      durationMs: { type: 'number' },
      agent_id: { type: 'string' },
      project_id: { type: 'string' },
    },
  },
  Discovery: {
    type: 'object',
    properties: {
      discovered: { type: 'array', items: { type: 'string' } },
      existing: { type: 'array', items: { type: 'string' } },
      skipped: { type: 'array', items: { type: 'object' } },
    },
  },
  Health: {
    type: 'object',
    properties: {
      status: { type: 'string' },
      store: { type: 'string' },
      version: { type: 'string' },
      wiped: {
        type: 'object',
        description:
          'present once the store was found wiped under this server (Redis FLUSHALL): how often, when last, and when the server had bootstrapped again (null while it runs)',
        properties: { count: { type: 'integer' }, lastAt: { type: ['string', 'null'] }, restoredAt: { type: ['string', 'null'] } },
      },
    },
  },
  SeedTool: {
    type: 'object',
    description: "seed 002's Tool JSON, its fields only (what Redis holds at tool:<id>)",
    required: ['id', 'name', 'description', 'input_schema', 'output_schema', 'permissions', 'safety_level', 'created_by', 'created_at'],
    properties: {
      id: { type: 'string' },
      name: { type: 'string' },
      description: { type: 'string' },
      input_schema: { type: 'object' },
      output_schema: { type: 'object' },
      permissions: { type: 'array', items: { type: 'string' } },
      safety_level: { type: 'string', enum: ['low', 'medium', 'high'] },
      created_by: { type: 'string', enum: ['system', 'agent'] },
      created_at: { type: 'string' },
      exec: { type: 'object', properties: { type: { type: 'string' }, cmd: { type: 'string' }, args: { type: 'array', items: { type: 'string' } } } },
    },
  },
  Approval: {
    type: 'object',
    description: "a call waiting for a person's approval",
    properties: {
      id: { type: 'string', pattern: UUID_PATTERN },
      stepId: { type: 'string', description: "the call's id" },
      tool: { type: 'string', description: "the tool, by the name the policies know it by (a built-in's own name)" },
      args: { type: 'object', description: 'the arguments the call would run with' },
      reason: { type: 'string', description: 'why the call needs approval' },
      caller: { type: 'object', properties: { via: { type: 'string' }, agentId: { type: 'string' }, projectId: { type: 'string' } } },
      requestedAt: stamp,
      expiresAt: stamp,
    },
    required: ['id', 'stepId', 'tool', 'args', 'reason', 'caller', 'requestedAt', 'expiresAt'],
  },
  ApprovalList: {
    type: 'object',
    properties: {
      approvals: { type: 'array', items: ref('Approval') },
      enabled: { type: 'boolean', description: 'whether this server queues calls that need approval' },
      timeoutMs: { type: 'integer' },
      maxPending: { type: 'integer' },
    },
    required: ['approvals', 'enabled'],
  },
  ApprovalDecided: {
    type: 'object',
    properties: { outcome: { type: 'string', enum: ['approved', 'denied'] }, approval: ref('Approval') },
    required: ['outcome', 'approval'],
  },
};

export const refTo = ref;
