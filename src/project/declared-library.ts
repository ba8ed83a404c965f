/**
 * The library of the tools a specification file implements itself, with `http: {...}` or
 * `command: {...}` (src/tools/declarative.ts), with what only the program may give: secrets for
 * `${NAME}` placeholders come from `env`, command tools are confined to `workspace` and pass
 * through the variables of `env` their own `env` allowlist names.
 */
import type { Either } from '../core/either.js';
import type { Diagnostic } from '../core/diagnostic.js';
import { declarativeLibrary } from '../tools/declarative.js';
import { declaresImplementation } from '../tools/declared-kind.js';
import type { ToolLibrary } from '../library/tool-library.js';
import type { ToolSpecification } from '../specification/tool-spec.js';
import type { ProjectEnv } from './named-libraries.js';

/**
 * The declared tools of `specs` as a library; `undefined` when none declares one. Problems of
 * every declaration are reported at once.
 */
export const declaredLibrary = (
  specs: ReadonlyArray<ToolSpecification>,
  workspace: string,
  env: ProjectEnv,
): Either<ReadonlyArray<Diagnostic>, ToolLibrary> | undefined => {
  const declared = specs.filter(declaresImplementation);
  if (declared.length === 0) return undefined;
  return declarativeLibrary(declared, { secrets: (name) => env[name], workspace, env });
};
