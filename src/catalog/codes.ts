/**
 * Stable codes of the catalog layer (`CATALOG_` prefix). Callers and tests match on these
 * constants, never on messages; docs/service.md lists each with its HTTP status.
 */
export const CatalogCodes = {
  /** A slug that breaks seed 000's rules (letters, digits, ASCII dash; at most 64 runes). */
  INVALID_SLUG: 'CATALOG_INVALID_SLUG',
  /** A version that breaks seed 000's rules (a slug's runes plus dots; at most 64 runes). */
  INVALID_VERSION: 'CATALOG_INVALID_VERSION',
  /** A bundle or tool id that is not a UUIDv7. */
  INVALID_ID: 'CATALOG_INVALID_ID',
  /** A seed 002 registry id that is not 1–64 letters, digits, `_`, `-` or `.`. */
  INVALID_REGISTRY_ID: 'CATALOG_INVALID_REGISTRY_ID',
  /** A record or request body without the expected shape (a field of the wrong type, an unknown field). */
  INVALID_RECORD: 'CATALOG_INVALID_RECORD',
  /** An argument or output schema that cannot be read as a type signature. */
  INVALID_SCHEMA: 'CATALOG_INVALID_SCHEMA',
  /** An implementation block that does not fit its type (an HTTP or command configuration error). */
  INVALID_IMPL: 'CATALOG_INVALID_IMPL',
  /** Gram text that does not hold exactly one valid tool. */
  INVALID_GRAM: 'CATALOG_INVALID_GRAM',
  /** A built-in implementation gramkit does not have. */
  UNKNOWN_BUILTIN: 'CATALOG_UNKNOWN_BUILTIN',
  /** Seed 002's `exec.type: image` (Docker images are not run by gramkit). */
  EXEC_IMAGE_UNSUPPORTED: 'CATALOG_EXEC_IMAGE_UNSUPPORTED',
  /** The body's slug or version differs from the path's. */
  KEY_MISMATCH: 'CATALOG_KEY_MISMATCH',
  /** `<slug, version>` is taken in the bundle (or a registry id is taken): the existing record is named. */
  CONFLICT: 'CATALOG_CONFLICT',
  /** No bundle with that id (or it was reaped). */
  BUNDLE_NOT_FOUND: 'CATALOG_BUNDLE_NOT_FOUND',
  /** No tool with that id, registry id or `<slug, version>`. */
  TOOL_NOT_FOUND: 'CATALOG_TOOL_NOT_FOUND',
  /** The bundle is disabled: nothing inside it may be written or invoked. */
  BUNDLE_DISABLED: 'CATALOG_BUNDLE_DISABLED',
  /** The bundle is soft-deleted: nothing inside it may be written or invoked. */
  BUNDLE_DELETED: 'CATALOG_BUNDLE_DELETED',
  /** The tool is disabled and cannot be invoked. */
  TOOL_DISABLED: 'CATALOG_TOOL_DISABLED',
  /** Its implementation is missing (an unknown function or built-in, a mismatching function): not invocable. */
  TOOL_UNAVAILABLE: 'CATALOG_TOOL_UNAVAILABLE',
  /** The built-in bundle and its tools are read-only except `isEnabled`. */
  BUILTIN_READ_ONLY: 'CATALOG_BUILTIN_READ_ONLY',
  /** Seed 002: only tools with `created_by: agent` may be deleted through the registry API. */
  NOT_AGENT_CREATED: 'CATALOG_NOT_AGENT_CREATED',
  /** PATCH carries something else than `isEnabled`. */
  PATCH_ONLY_ENABLED: 'CATALOG_PATCH_ONLY_ENABLED',
  /** The store cannot be read or written (disk, permissions, Redis down). */
  STORE_UNAVAILABLE: 'CATALOG_STORE_UNAVAILABLE',
  /** A stored record that does not decode: skipped, reported, never rewritten. */
  STORE_CORRUPT: 'CATALOG_STORE_CORRUPT',
  /** A page token that this listing did not issue (or that belongs to another query). */
  INVALID_PAGE_TOKEN: 'CATALOG_INVALID_PAGE_TOKEN',
  /** A bootstrap file that does not hold seed 002 Tool JSON. */
  INVALID_BOOTSTRAP: 'CATALOG_INVALID_BOOTSTRAP',
  /** An HTTP tool whose hosts are not all in the server's `--allow-host` list. */
  HOST_NOT_ALLOWED: 'CATALOG_HOST_NOT_ALLOWED',
  /** A call the policies refuse (`ALLOWED_TOOL_PERMS`, safety level, rules). */
  POLICY_DENIED: 'CATALOG_POLICY_DENIED',
  /** A call that needs a person's approval, on a server started without an approver or `--yes`. */
  APPROVAL_REQUIRED: 'CATALOG_APPROVAL_REQUIRED',
  /** The arguments do not validate against the tool's argument schema (every issue listed). */
  INVALID_ARGUMENTS: 'CATALOG_INVALID_ARGUMENTS',
} as const;

export type CatalogCode = (typeof CatalogCodes)[keyof typeof CatalogCodes];
