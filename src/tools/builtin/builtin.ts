/**
 * A built-in tool before it meets its specification: the implementation, what policies read about
 * it (permissions, safety level, approval) and its limits. `builtinTools` joins each one to its
 * specification from builtins.gram, so the schema a tool carries is always the specification's.
 */
import { ToolCodes } from '../../library/codes.js';
import { ToolFailure } from '../../library/result.js';
import type { InvocationContext, ToolAnnotations, ToolImplementation, ToolLimits } from '../../library/tool.js';
import type { ResolvedBuiltinOptions } from './options.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface BuiltinDefinition {
  readonly name: string;
  readonly implementation: ToolImplementation;
  readonly annotations: ToolAnnotations;
  readonly limits?: ToolLimits;
}

export type BuiltinFactory = (options: ResolvedBuiltinOptions) => BuiltinDefinition;

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

/** The arguments as a record (the invoker validated them against the schema; a direct caller may not have). */
export const argsRecord = (args: unknown): Readonly<Record<string, unknown>> =>
  typeof args === 'object' && args !== null && !Array.isArray(args) ? (args as Record<string, unknown>) : {};

/** A string argument, or `fallback` when absent. */
export const stringArg = (args: Readonly<Record<string, unknown>>, name: string, fallback?: string): string | undefined => {
  const v = args[name];
  return typeof v === 'string' ? v : fallback;
};

/** A required string argument (`INVALID_ARGUMENTS` when missing: a direct caller skipped validation). */
export const requireString = (args: Readonly<Record<string, unknown>>, name: string): string => {
  const v = args[name];
  if (typeof v !== 'string') throw new ToolFailure(ToolCodes.INVALID_ARGUMENTS, `argument "${name}" is required and must be a string`);
  return v;
};

export const boolArg = (args: Readonly<Record<string, unknown>>, name: string, fallback: boolean): boolean => {
  const v = args[name];
  return typeof v === 'boolean' ? v : fallback;
};

export const numberArg = (args: Readonly<Record<string, unknown>>, name: string): number | undefined => {
  const v = args[name];
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
};

/** Throws the caller's cancellation as a ToolFailure-free abort (the invoker reports CANCELLED/TIMEOUT). */
export const checkAborted = (ctx: InvocationContext | undefined): void => {
  if (ctx?.signal.aborted === true) throw ctx.signal.reason instanceof Error ? ctx.signal.reason : new Error('aborted');
};
