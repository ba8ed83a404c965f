/**
 * The default nucleus: the registry tools registered at start when no bootstrap file is found
 * (`tool_http_get`, `tool_file_read`, `tool_ls`, …). Each is a gramkit built-in under a registry
 * id; its schemas are the built-in's.
 */

/** Registry ids that name a gramkit built-in. */
export const NUCLEUS: Readonly<Record<string, { readonly builtin: string; readonly name: string; readonly description: string }>> = {
  tool_http_get: {
    builtin: 'web_fetch',
    name: 'HTTP GET',
    description: "Fetches a URL (hosts in the server's allowlist) and returns the status, headers and body",
  },
  tool_file_read: { builtin: 'read_file', name: 'Read file', description: 'Reads a file of the workspace and returns its content' },
  tool_file_write: { builtin: 'write_file', name: 'Write file', description: 'Writes content to a file of the workspace' },
  tool_ls: { builtin: 'list_directory', name: 'List directory', description: 'Lists the entries of a workspace directory' },
  tool_json_parse: {
    builtin: 'json_parse',
    name: 'JSON parse',
    description: 'Parses JSON text (or a workspace file) and optionally selects a part with JSONPath',
  },
  tool_text_search: { builtin: 'text_search', name: 'Text search', description: 'Searches text or workspace files with a regular expression' },
  tool_exec: { builtin: 'shell', name: 'Exec', description: 'Runs a shell command in the sandbox (no network, only the workspace writable)' },
};

/** The nucleus as Tool JSON (what `--bootstrap` files hold), for tools whose built-in is usable. */
export const nucleusToolJson = (usable: (builtin: string) => boolean = () => true): ReadonlyArray<Readonly<Record<string, unknown>>> =>
  Object.entries(NUCLEUS)
    .filter(([, n]) => usable(n.builtin))
    .map(([id, n]) => ({ id, name: n.name, description: n.description, type: 'builtin', impl: { builtin: n.builtin }, created_by: 'system' }));
