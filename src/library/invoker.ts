/**
 * The one invoker: how every caller of a tool (the agent loop, `gramkit invoke`, the catalog and its
 * REST APIs, `/mcp`, `gramkit mcp`, the AI SDK adapter) runs a call. A caller builds its invoker
 * from steps, middleware in the manner of Koa and Hono: a step is `(call, next) => result`; it may
 * refuse the call (return a failure without calling `next`), change it (`next(changed)`), or look
 * at the result `next()` gives. One pipeline, one order:
 *
 * 1. the arguments are validated once (`TOOL_INVALID_ARGUMENTS`, with the usual events);
 * 2. the steps run, in the order given (scope, serialisation, the policy gate, usage…);
 * 3. the tool runs (`invoke` without validating again: defaults, timeout, signal, events);
 * 4. its result is checked (JSON data, the output schema, `maxResultBytes`).
 *
 * An invoker never throws and never rejects (a step that throws gives `TOOL_EXECUTION_ERROR`).
 * With no steps it is `invoke` itself, with its hot path. A step that changes the arguments
 * (the gate, with a person's changes) says it validated them (`checked`); arguments a step changed
 * without saying so are validated again before the tool runs.
 */
import { messageOf } from '../core/message.js';
import type { BoundTool } from './bind.js';
import { ToolCodes } from './codes.js';
import { checkArguments, invoke, invokeOptionsWith, invokeValidated, type InvokeOptions } from './invoke.js';
import { fail, type ToolResult } from './result.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** One call as the steps see it. */
export interface Call {
  readonly tool: BoundTool;
  /** The name the policies know the tool by (the catalog judges a built-in by its built-in name); the tool's name by default. */
  readonly name: string;
  readonly args: unknown;
  /**
   * The arguments known to validate: the caller's, once checked. A step that changes `args` to
   * arguments it validated (the gate, a copy) sets `checked` to them too; otherwise the changed
   * arguments are validated again before the tool runs.
   */
  readonly checked: unknown;
  readonly options: InvokeOptions;
  /**
   * Set by `serialise` (library/serial.ts): runs `wait` without holding the call's place, then
   * takes its place again, so a call waiting for a person does not hold up every other call.
   */
  readonly pause?: <T>(wait: () => Promise<T>) => Promise<T>;
}

/**
 * `call` with some fields changed, as one literal of every field: steps change a call with it, not
 * with a spread (an object made by spreading another and adding a key is one V8 reads several
 * times slower; see `invokeOptionsWith`). Its type lists every field, as `invokeOptionsWith`'s does.
 */
export const callWith = (call: Call, changes: Partial<Call>): { readonly [K in keyof Required<Call>]: Call[K] } => ({
  tool: changes.tool ?? call.tool,
  name: changes.name ?? call.name,
  args: 'args' in changes ? changes.args : call.args,
  checked: 'checked' in changes ? changes.checked : call.checked,
  options: changes.options ?? call.options,
  pause: changes.pause ?? call.pause,
});

/** Runs the rest of the pipeline, on the call as it was or as a step changed it. */
export type Next = (call?: Call) => Promise<ToolResult>;

/** A step of the pipeline. */
export type Step = (call: Call, next: Next) => Promise<ToolResult>;

/** Options of one call of an invoker: `invoke`'s, and the name the policies know the tool by. */
export interface InvokerOptions extends InvokeOptions {
  readonly name?: string;
}

/** Runs a call through the steps, then the tool. Never rejects. */
export type Invoker = (bound: BoundTool, args: unknown, options?: InvokerOptions) => Promise<ToolResult>;

// -------------------------------------------------------------------------------------------------
// composition
// -------------------------------------------------------------------------------------------------

/** The invoker of these steps; with none, `invoke` itself. */
export const createInvoker = (steps: ReadonlyArray<Step>): Invoker => {
  const chain = Object.freeze([...steps]);
  if (chain.length === 0) return invoke;
  return async (bound, args, options = {}) => {
    try {
      // invalid arguments fail before any step (invoke reports them, with their events)
      if (checkArguments(bound, args) !== undefined) return await invoke(bound, args, options);
      const first: Call = {
        tool: bound,
        name: options.name ?? bound.name,
        args,
        checked: args,
        options: options.name === undefined ? options : withoutName(options),
      };
      return await dispatch(chain, 0, first);
    } catch (e) {
      return fail(ToolCodes.EXECUTION_ERROR, `gramkit failed while invoking the tool: ${messageOf(e)}`);
    }
  };
};

/** The options `invoke` takes: the invoker's, without the policies' name for the tool (one literal, not a rest spread: see `invokeOptionsWith`). */
const withoutName = (options: InvokerOptions): InvokeOptions => invokeOptionsWith(options, {});

/**
 * Step `i` of the chain on `call`, or the tool after the last. Made once, not per call (no closure
 * but each step's `next`), and no async frame of its own: the pipeline's own cost is a few object
 * reads a step and, for a step that fails, the failure made of it.
 */
const dispatch = (chain: ReadonlyArray<Step>, i: number, call: Call): Promise<ToolResult> => {
  if (i === chain.length) {
    return call.args === call.checked ? invokeValidated(call.tool, call.args, call.options) : invoke(call.tool, call.args, call.options);
  }
  let running: Promise<ToolResult> | ToolResult;
  try {
    running = (chain[i] as Step)(call, (changed) => dispatch(chain, i + 1, changed ?? call));
  } catch (e) {
    return Promise.resolve(stepFailure(call, e));
  }
  // a step written without async may give its result as it is
  return running instanceof Promise ? running.then(undefined, (e: unknown) => stepFailure(call, e)) : Promise.resolve(running);
};

const stepFailure = (call: Call, e: unknown): ToolResult => fail(ToolCodes.EXECUTION_ERROR, `a step of the call of "${call.name}" failed: ${messageOf(e)}`);

// -------------------------------------------------------------------------------------------------
// steps of the library
// -------------------------------------------------------------------------------------------------

/** The tool gets its own copy of the arguments: a tool that changes them does not rewrite the caller's record. */
export const copyArguments: Step = (call, next) => {
  const copy: unknown = structuredClone(call.args);
  return next(callWith(call, { args: copy, checked: call.args === call.checked ? copy : call.checked }));
};
