/**
 * Every layer's registry of codes but the CLI's, loaded by the root entry: a failure an
 * implementation makes (`fail`, `ToolFailure`) has its code's canonical code and retryability
 * whichever of gramkit's modules the program loads (a library module run by `gramkit mcp` made
 * `BUILTIN_TIMEOUT` not retryable). The binary loads its own list (cli/registries.ts).
 */
import './adapters/codes.js';
import './agent/codes.js';
import './catalog/codes.js';
import './gram/codes.js';
import './library/codes.js';
import './mcp/codes.js';
import './net/codes.js';
import './policy/codes.js';
import './project/codes.js';
import './server/codes.js';
import './tools/builtin/codes.js';
import './tools/codes.js';
import './tools/command/codes.js';
import './tools/http/codes.js';
import './types/codes.js';
