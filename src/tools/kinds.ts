/**
 * The implementation kinds: one module each under kinds/ (kinds/kind.ts says what a kind is), one
 * line each here. Everything that differs between kinds is looked up here: a specification's
 * declarative tools (declarative.ts), a catalog record's content checks, defaults, availability
 * and tool (catalog/records/content.ts, catalog/records/implementation.ts), what a request may register
 * (catalog/program-guard.ts) and the service's `type` enums (server/schemas.ts). The names are the
 * specification's implementation properties (specification/specifications.ts `IMPLEMENTATION_PROPERTIES`);
 * the type below makes the compiler ask for a module per name and a name per module.
 * test/architecture/kinds.test.ts keeps kind names out of switches and comparisons elsewhere.
 */
import { IMPLEMENTATION_PROPERTY_NAMES, type ImplementationProperty } from '../specification/specifications.js';
import { builtinKind } from './kinds/builtin.js';
import { commandKind } from './kinds/command.js';
import { functionKind } from './kinds/function.js';
import { httpKind } from './kinds/http.js';
import type { ToolKind } from './kinds/kind.js';

export type { ContentEnvironment, ImplIssue, KindContext, KindDefaults, KindFailure, RequestCheck, ToolKind } from './kinds/kind.js';

/** Every kind, by name. */
export const KINDS: { readonly [K in ImplementationProperty]: ToolKind<K> } = {
  http: httpKind,
  command: commandKind,
  builtin: builtinKind,
  function: functionKind,
};

/** The kind names, in order (http, command, builtin, function). */
export const KIND_NAMES: ReadonlyArray<ImplementationProperty> = IMPLEMENTATION_PROPERTY_NAMES;

/** Whether `s` names a kind. */
export const isKindName = (s: unknown): s is ImplementationProperty => typeof s === 'string' && Object.hasOwn(KINDS, s);

/** The kind of a name. */
export const toolKind = <K extends ImplementationProperty>(name: K): ToolKind<K> => KINDS[name] as ToolKind<K>;
