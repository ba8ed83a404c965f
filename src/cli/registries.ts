/**
 * Every layer's registry of codes, loaded by the binary (main.ts): a failure's canonical code is
 * its precise code's registry entry in every command, whichever modules the command loads. Before,
 * `gramkit mcp` (which never loads the service) reported a tool failing with `SERVICE_FORBIDDEN_HOST`
 * as `EXECUTION_ERROR`. The registries are data (each imports only core/codes.ts).
 */
import '../adapters/codes.js';
import '../agent/codes.js';
import '../catalog/codes.js';
import '../gram/codes.js';
import '../library/codes.js';
import '../mcp/codes.js';
import '../net/codes.js';
import '../policy/codes.js';
import '../project/codes.js';
import '../server/codes.js';
import '../tools/builtin/codes.js';
import '../tools/codes.js';
import '../tools/command/codes.js';
import '../tools/http/codes.js';
import '../types/codes.js';
import './codes.js';
