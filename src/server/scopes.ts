/**
 * The caller's scopes, checked one way on every surface that has a caller identity: the REST
 * routes (each route names its scope) and the invoker step of `/mcp` calls (`invoke_tool`). The
 * scopes come from one function of the request (`readScopes`, request.ts); with
 * `--require-scopes` the service carries them to both.
 */
import type { Step } from '../library/invoker.js';
import { fail } from '../library/result.js';
import { ServiceCodes } from './codes.js';

/** Why a caller with `scopes` may not do what needs `scope` (`SERVICE_MISSING_SCOPE`, 403), or `undefined`. */
export const missingScope = (
  scopes: ReadonlySet<string>,
  scope: string,
): { readonly code: typeof ServiceCodes.MISSING_SCOPE; readonly message: string; readonly scope: string } | undefined =>
  scopes.has(scope) ? undefined : { code: ServiceCodes.MISSING_SCOPE, message: `this needs the scope ${scope}, which the caller does not have`, scope };

/** The invoker step: the call runs only for a caller with `scope`. */
export const requireScope =
  (scopes: ReadonlySet<string>, scope: string): Step =>
  (_call, next) => {
    const missing = missingScope(scopes, scope);
    return missing === undefined ? next() : Promise.resolve(fail(missing.code, missing.message, { details: { scope } }));
  };
