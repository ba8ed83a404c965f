/**
 * `gramkit/tools`: tools declared in data. HTTP tools (templated requests over a safe fetch with a
 * host allowlist, secrets redacted) and command tools (a program run with no shell, one argument
 * per placeholder), and building a library from the declarations of a specification file.
 */
export type { NetCode } from '../net/codes.js';
export { NetCodes } from '../net/codes.js';
export type { HttpCode } from '../tools/http/codes.js';
export { HttpCodes } from '../tools/http/codes.js';
export type { CommandCode } from '../tools/command/codes.js';
export { CommandCodes } from '../tools/command/codes.js';
export type { ImplCode } from '../tools/codes.js';
export { ImplCodes } from '../tools/codes.js';
export type { RunProcessOptions, ProcessResult, SpawnError } from '../tools/process.js';
export { runProcess } from '../tools/process.js';
export { setMaxConcurrentRuns, concurrentRuns } from '../tools/run-slots.js';
export type { HostAllowlist, HostPattern, HostDecision } from '../net/host-allowlist.js';
export { parseAllowedHosts, checkHost, isPrivateAddress } from '../net/host-allowlist.js';
export type { SafeFetchOptions, FetchResponse, FetchError, FetchErrorCode } from '../net/safe-fetch.js';
export { safeFetch, safeDispatcher } from '../net/safe-fetch.js';
export type { RetryPolicy } from '../net/retry.js';
export { DEFAULT_RETRY, IDEMPOTENT_METHODS } from '../net/retry.js';
export type { SecretProvider } from '../core/redact.js';
export { REDACTED, MIN_SECRET_FRAGMENT } from '../core/redact.js';
export type { HttpToolConfig, HttpToolConfigInput, HttpMethod } from '../tools/http/http-config.js';
export { decodeHttpToolConfig, HTTP_METHODS } from '../tools/http/http-config.js';
export type { HttpToolOptions } from '../tools/http/http-tool.js';
export { httpTool } from '../tools/http/http-tool.js';
export type { CommandToolConfig, CommandToolConfigInput, CommandSandboxMode } from '../tools/command/command-config.js';
export { decodeCommandToolConfig } from '../tools/command/command-config.js';
export type { CommandToolOptions, CommandSandboxOptions } from '../tools/command/command-tool.js';
export { commandTool } from '../tools/command/command-tool.js';
export type { OutputMode, ParsedOutput } from '../tools/command/command-output.js';
export { parseCommandOutput } from '../tools/command/command-output.js';
export type { DeclarativeToolOptions, ImplementationKind, DeclarativeLoad } from '../tools/declarative.js';
export { declaredTool, declaredKind, declarativeLibrary, loadDeclarativeLibrary } from '../tools/declarative.js';
