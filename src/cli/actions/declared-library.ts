/**
 * The library of the tools a specification file implements itself, with `http: {...}` or
 * `command: {...}` (src/tools/declarative.ts). The CLI supplies what only it may read: secrets for
 * `${NAME}` placeholders come from environment variables, command tools are confined to the
 * workspace and pass through the variables their `env` allowlist names.
 */
import type { Either } from '../../core/either.js';
import type { Diagnostic } from '../../core/diagnostic.js';
import { declarativeLibrary } from '../../tools/declarative.js';
import { declaresImplementation } from '../../tools/declared-kind.js';
import type { ToolLibrary } from '../../library/tool-library.js';
import type { ToolSpecification } from '../../specification/tool-spec.js';
import type { CliIO } from '../io.js';

/**
 * The declared tools of `specs` as a library; `undefined` when none declares one. Problems of
 * every declaration are reported at once.
 */
export const declaredLibrary = (
  specs: ReadonlyArray<ToolSpecification>,
  io: CliIO,
  workspace: string,
): Either<ReadonlyArray<Diagnostic>, ToolLibrary> | undefined => {
  const declared = specs.filter(declaresImplementation);
  if (declared.length === 0) return undefined;
  return declarativeLibrary(declared, { secrets: (name) => io.env[name], workspace, env: io.env });
};
