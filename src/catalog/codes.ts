/**
 * Stable codes of the catalog layer (`CATALOG_` prefix). Callers and tests match on these
 * constants, never on messages; docs/service.md lists each with its HTTP status.
 */
import { type CodeOf, defineCodes } from '../core/codes.js';

export const CatalogCodes = defineCodes('catalog', 'CATALOG', {
  INVALID_SLUG: {
    canonical: 'INVALID_ARGUMENTS',
    http: 400,
    summary:
      "a slug that breaks the catalog's rules on slugs (Unicode letters and digits, ASCII dash, single underscores inside a tool slug; at most 64 runes)",
    hint: "use Unicode letters, digits and '-' (a tool slug also single '_' inside, never '__'), at most 64 runes (the message names the first bad rune)",
  },
  INVALID_VERSION: {
    canonical: 'INVALID_ARGUMENTS',
    http: 400,
    summary: "a version that breaks the catalog's rules on versions (a slug's runes plus dots; at most 64 runes)",
    hint: "use Unicode letters, digits, '-' and '.' only, at most 64 runes",
  },
  INVALID_ID: { canonical: 'INVALID_ARGUMENTS', http: 400, summary: 'a bundle or tool id that is not a UUIDv7', hint: 'send a UUIDv7 (e.g. from newId())' },
  INVALID_REGISTRY_ID: {
    canonical: 'INVALID_ARGUMENTS',
    http: 400,
    summary: 'a registry id (`tool_http_get`) that is not 1–64 letters, digits, `_`, `-` or `.`',
    hint: 'use 1 to 64 letters, digits, "_", "-" or "." (e.g. tool_http_get)',
  },
  INVALID_RECORD: {
    canonical: 'INVALID_ARGUMENTS',
    http: 400,
    summary: 'a record or request body without the expected shape (a field of the wrong type, an unknown field)',
    hint: 'fix the field the message names (docs/service.md lists the fields)',
  },
  INVALID_SCHEMA: {
    canonical: 'INVALID_ARGUMENTS',
    http: 400,
    summary: 'an argument or output schema that cannot be read as a type signature',
    hint: 'send a JSON Schema of an object (or a signature); the message names the keyword',
  },
  INVALID_IMPL: {
    canonical: 'INVALID_ARGUMENTS',
    http: 400,
    summary: 'an implementation block that does not fit its type (an HTTP or command configuration error)',
    hint: "fix the implementation block as the message says (docs/service.md lists each type's fields)",
  },
  INVALID_GRAM: {
    canonical: 'INVALID_ARGUMENTS',
    http: 400,
    summary: 'gram text that does not hold exactly one valid tool',
    hint: 'send gram text with exactly one [slug:Tool {…} | signature]',
  },
  UNKNOWN_BUILTIN: {
    canonical: 'INVALID_ARGUMENTS',
    http: 400,
    summary: 'a built-in implementation gramkit does not have',
    hint: 'name one of the built-in tools (gramkit schema builtin lists them)',
  },
  EXEC_IMAGE_UNSUPPORTED: {
    canonical: 'INVALID_ARGUMENTS',
    http: 400,
    summary: 'a registry tool whose `exec.type` is `image` (Docker images are not run by gramkit)',
    hint: 'declare the program as exec {type: "cmd"} or as a command tool',
  },
  KEY_MISMATCH: {
    canonical: 'INVALID_ARGUMENTS',
    http: 400,
    summary: "the body's slug or version differs from the path's",
    hint: 'leave slug and version out of the body, or make them match the path',
  },
  CONFLICT: {
    canonical: 'CONFLICT',
    http: 409,
    summary: '`<slug, version>` is taken in the bundle (or a registry id is taken): the existing record is named',
    hint: 'use another version (or slug), or delete the existing tool first; `existing` names it',
  },
  BUNDLE_NOT_FOUND: {
    canonical: 'NOT_FOUND',
    http: 404,
    summary: 'no bundle with that id (or it was reaped)',
    hint: 'PUT the bundle first, or list the bundles',
  },
  TOOL_NOT_FOUND: {
    canonical: 'NOT_FOUND',
    http: 404,
    summary: 'no tool with that id, registry id or `<slug, version>`',
    hint: 'list or search the tools for the right id, slug and version',
  },
  BUNDLE_DISABLED: {
    canonical: 'FAILED_PRECONDITION',
    http: 409,
    summary: 'the bundle is disabled: nothing inside it may be written or invoked',
    hint: 'enable the bundle (PATCH {"isEnabled": true})',
  },
  BUNDLE_DELETED: {
    canonical: 'FAILED_PRECONDITION',
    http: 409,
    summary: 'the bundle is soft-deleted: nothing inside it may be written or invoked',
    hint: 'PUT the bundle again to restore it',
  },
  TOOL_DISABLED: {
    canonical: 'FAILED_PRECONDITION',
    http: 409,
    summary: 'the tool is disabled and cannot be invoked',
    hint: 'enable the tool (PATCH {"isEnabled": true})',
  },
  TOOL_UNAVAILABLE: {
    canonical: 'FAILED_PRECONDITION',
    http: 409,
    summary: 'its implementation is missing (an unknown function or built-in, a mismatching function): not invocable',
    hint: 'start the server with the --library that implements it, or fix the record (unavailableReason says why)',
  },
  BUILTIN_READ_ONLY: {
    canonical: 'PERMISSION_DENIED',
    http: 403,
    summary: 'the built-in bundle and its tools are read-only except `isEnabled`',
    hint: 'change only isEnabled; put your own tools in a bundle of your own',
  },
  NOT_AGENT_CREATED: {
    canonical: 'PERMISSION_DENIED',
    http: 403,
    summary: 'only tools with `created_by: agent` may be deleted through the registry API (`DELETE /api/v1/tools/{id}`)',
    hint: 'delete it through the catalog route (DELETE /tools/bundles/{bundleID}/tools/{slug}/version/{v}), or disable it',
  },
  PATCH_ONLY_ENABLED: {
    canonical: 'INVALID_ARGUMENTS',
    http: 400,
    summary: 'PATCH carries something else than `isEnabled`',
    hint: 'send {"isEnabled": true|false} only; PUT a new version to change the tool',
  },
  STORE_UNAVAILABLE: {
    canonical: 'UNAVAILABLE',
    http: 503,
    summary: 'the store cannot be read or written (disk, permissions, Redis down)',
    retryable: true,
    hint: 'check the data directory (permissions, disk) or that Redis answers, then retry',
  },
  STORE_CORRUPT: {
    canonical: 'INTERNAL',
    http: 500,
    summary: 'a stored record that does not decode: skipped, reported, never rewritten',
    hint: 'repair or remove the record file the message names; the rest of the catalog works',
  },
  INVALID_PAGE_TOKEN: {
    canonical: 'INVALID_ARGUMENTS',
    http: 400,
    summary: 'a page token that this listing did not issue (or that belongs to another query)',
    hint: 'start the listing again without pageToken, with the same parameters',
  },
  INVALID_BOOTSTRAP: {
    canonical: 'INVALID_CONFIGURATION',
    http: 400,
    summary: "a bootstrap file that does not hold the registry's Tool JSON",
    hint: 'give {"tools": [Tool JSON, …]} or an array of Tool JSON (id, name, description, input_schema, …)',
  },
  HOST_NOT_ALLOWED: {
    canonical: 'PERMISSION_DENIED',
    http: 403,
    summary: "an HTTP tool whose hosts are not all in the server's `--allow-host` list",
    hint: "start the server with --allow-host for that host, or change the tool's URL",
  },
  SECRET_REFUSED: {
    canonical: 'PERMISSION_DENIED',
    http: 403,
    summary: 'a request registers an HTTP tool that names a secret bound to no host',
    hint: 'bind the secret to the hosts it is for (gramkit serve --secret NAME@host), or add the tool from a file on the server (gramkit catalog add)',
  },
  PROGRAM_REFUSED: {
    canonical: 'PERMISSION_DENIED',
    http: 403,
    summary: 'a request registers a tool that runs a program (a command tool, or one with `sandbox: "none"`) on a server that does not allow it',
    hint: 'add the tool from a file on the server (gramkit catalog add, the bootstrap file); or start the server with --allow-command-tools, which lets requests register sandboxed command tools',
  },
});

export type CatalogCode = CodeOf<typeof CatalogCodes>;
