/**
 * `gramkit/builtins`: the built-in file, code, shell, web, JSON and text tools, confined to a
 * workspace; `run_code` and `shell` run in a bubblewrap sandbox.
 */
export type { BuiltinOptions, BuiltinLimits, SandboxOptions, SandboxMode } from '../tools/builtin/options.js';
export { DEFAULT_LIMITS } from '../tools/builtin/options.js';
export type { BuiltinToolName } from '../tools/builtin/specifications.js';
export { builtinSpecifications, builtinSpecification, isBuiltinToolName, BUILTIN_TOOL_NAMES } from '../tools/builtin/specifications.js';
export { BUILTINS_GRAM } from '../tools/builtin/builtins-gram.js';
export { builtinTools, builtinLibrary } from '../tools/builtin/builtin-tools.js';
export type { BuiltinCode } from '../tools/builtin/codes.js';
export { BuiltinCodes } from '../tools/builtin/codes.js';
export type { WorkspacePath, PathRefusal, ResolvePathOptions } from '../tools/builtin/workspace.js';
export { normalizeWorkspacePath, resolveWorkspacePath } from '../tools/builtin/workspace.js';
export type {
  WebSearchBackend,
  WebSearchResult,
  WebSearchRequest,
  SearxngOptions,
  KeyedSearchOptions,
  SearchDocument,
} from '../tools/builtin/web-search-backend.js';
export { searxngBackend, braveBackend, tavilyBackend, inMemorySearchBackend } from '../tools/builtin/web-search-backend.js';
export { webSearchFromEnv } from '../tools/builtin/web-search-env.js';
export type { SandboxStatus } from '../tools/builtin/sandbox.js';
export { probeSandbox, SANDBOX_WORKSPACE } from '../tools/builtin/sandbox.js';
export type { DirectoryEntry, EntryType, ListDirectoryResult } from '../tools/builtin/list-directory.js';
export type { ReadFileResult, FileEncoding } from '../tools/builtin/read-file.js';
export type { WriteFileResult } from '../tools/builtin/write-file.js';
export type { DeleteFileResult } from '../tools/builtin/delete-file.js';
export type { MoveFileResult } from '../tools/builtin/move-file.js';
export type { ProgramResult } from '../tools/builtin/run-program.js';
export type { WebFetchResult } from '../tools/builtin/web-fetch.js';
export type { WebSearchToolResult } from '../tools/builtin/web-search.js';
export type { JsonParseResult } from '../tools/builtin/json-parse.js';
export type { TextSearchResult } from '../tools/builtin/text-search.js';
