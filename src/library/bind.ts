/**
 * Late binding (`bindTool`): a specification joined, at run time, to the tool of the
 * same name in a library, after checking that they agree on the name, the description and the
 * argument schema (and the output schema, when the tool declares one). Schemas are compared
 * structurally: key order is ignored, `required` and `type` arrays are sets.
 *
 * A bound tool carries the specification, the tool and the compiled validators (compiled on the
 * first call, not at bind time). `invoke` runs it.
 */
import { plural } from '../core/plural.js';
import { ToolCodes } from './codes.js';
import { acceptsAnything } from '../schema/schema-keywords.js';
import { schemaAcceptGaps } from '../schema/schema-accepts.js';
import { type Either, left, right, isLeft, isRight } from '../core/either.js';
import type { Diagnostic } from '../core/diagnostic.js';
import type { JsonSchema } from '../core/json-schema.js';
import { err, ok, type Result } from '../core/result.js';
import type { ToolSpecification } from '../specification/tool-spec.js';
import { type CompiledSchema, compileSchema } from '../schema/validate.js';
import type { InvocationObserver } from './events.js';
import { diffJson, formatDifferences, type JsonDifference, schemaDiffOptions } from '../core/json-diff.js';
import { NEVER } from './never-signal.js';
import { closeNames } from '../core/suggest.js';
import { type InvocationContext, type Tool, validateTool } from './tool.js';
import { lookupTool, type ToolLibrary, toolNames } from './tool-library.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/**
 * Why a specification could not be bound:
 * - `TOOL_NOT_IN_LIBRARY`: the library has no tool of that name (`suggestions` holds close names);
 * - `TOOL_MISMATCH`: the tool disagrees with the specification (`mismatches` says where and how);
 * - `TOOL_INVALID`: the library entry is not a usable tool (`problems`);
 * - `TOOL_DUPLICATE_SPECIFICATION`: `bindAll` got two specifications of one name.
 */
export type BindErrorCode = typeof ToolCodes.NOT_IN_LIBRARY | typeof ToolCodes.MISMATCH | typeof ToolCodes.INVALID | typeof ToolCodes.DUPLICATE_SPECIFICATION;

export type MismatchCode =
  | typeof ToolCodes.NAME_MISMATCH
  | typeof ToolCodes.DESCRIPTION_MISMATCH
  | typeof ToolCodes.SCHEMA_MISMATCH
  | typeof ToolCodes.OUTPUT_SCHEMA_MISMATCH;

export interface Mismatch {
  readonly code: MismatchCode;
  /** One line: what differs, e.g. `the argument schema differs in 2 places`. */
  readonly message: string;
  /** The differences, spec side as `expected`, tool side as `actual` (JSON pointers for schemas). */
  readonly differences: ReadonlyArray<JsonDifference>;
}

/**
 * A diagnostic (binding is compile-time work: `Left` holds a list of them) with what a program
 * needs to act on it. Its `hint` lists the differences, one per line.
 */
export interface BindError extends Diagnostic {
  readonly code: BindErrorCode;
  /** The specification's name. */
  readonly toolName: string;
  readonly mismatches: ReadonlyArray<Mismatch>;
  /** For `INVALID_TOOL`: what is wrong with the entry. */
  readonly problems: ReadonlyArray<Diagnostic>;
  /** For `TOOL_NOT_IN_LIBRARY`: names in the library close to the one asked for. */
  readonly suggestions: ReadonlyArray<string>;
}

/** Defaults for every call of the tools bound with these options. */
export interface BindOptions {
  /** Receives the events of every call (combined with a per-call observer, if any). */
  readonly observer?: InvocationObserver;
  /** Timeout of a call when the caller gives none (overrides the tool's own `limits.timeoutMs`). */
  readonly timeoutMs?: number;
  /** Passed to implementations as `ctx.context` when the caller gives none. */
  readonly context?: unknown;
  /**
   * What binding demands of the tool (default `same`): `same`, the specification's name,
   * description and argument schema (structurally); `accepts`, only that the tool accepts every
   * argument the specification's schema allows (and, when it declares an output schema, that
   * the specification's accepts every output the tool's allows): an alternate specification of the
   * same tool (other descriptions, an optional parameter left out, a tighter type) binds, and the
   * model sees the specification's descriptions.
   */
  readonly match?: 'same' | 'accepts';
}

/** Why the validators of a bound tool cannot be compiled (reported by `invoke` on the first call). */
export interface ValidatorsError {
  readonly code: typeof ToolCodes.INVALID_SCHEMA;
  readonly message: string;
}

export interface CompiledValidators {
  readonly args: CompiledSchema;
  /** `undefined` when the output schema accepts any JSON value (nothing to check). */
  readonly output: CompiledSchema | undefined;
}

export interface BoundTool {
  readonly name: string;
  readonly spec: ToolSpecification;
  readonly tool: Tool;
  readonly options: BindOptions;
  /** The argument and output validators, compiled on first use (and cached). */
  readonly validators: () => Either<ValidatorsError, CompiledValidators>;
}

/** A whole agent's tools, bound. */
export interface BoundTools {
  /** In the order of the specifications. */
  readonly tools: ReadonlyArray<BoundTool>;
  readonly byName: ReadonlyMap<string, BoundTool>;
}

// -------------------------------------------------------------------------------------------------
// bound tools
// -------------------------------------------------------------------------------------------------

const never = (): boolean => false;

/** Marks the instances of `BoundToolImpl` (a property load: cheaper than `instanceof` on the hot path). */
export const BOUND: unique symbol = Symbol('gramkit.BoundTool');

/** The implementation behind `BoundTool`; `invoke` reads its cache directly. */
export class BoundToolImpl implements BoundTool {
  readonly [BOUND] = true;
  readonly name: string;
  /** Cached on first use by `validators()`. */
  compiled: Either<ValidatorsError, CompiledValidators> | undefined = undefined;
  /** Whether calls need more than the plain path (an observer, a timeout or limits). */
  readonly plain: boolean;
  // the hot path's view of `compiled`, set by `validators()` when it succeeds
  /** Whether the validators are compiled (and valid). */
  ready = false;
  argsCheck: (value: unknown) => boolean = never;
  /** `undefined` when the output schema accepts anything. */
  outputCheck: ((value: unknown) => boolean) | undefined = undefined;
  hasDefaults = false;
  /** What a plain call passes its implementation: shared by the calls without a context of their own. */
  readonly plainContext: InvocationContext;

  /** A frozen copy of the options given to `bindTool` (the caller's object is left alone). */
  readonly options: BindOptions;

  constructor(
    readonly spec: ToolSpecification,
    readonly tool: Tool,
    options: BindOptions,
  ) {
    this.options = Object.freeze({ ...options });
    this.name = spec.name;
    this.plainContext = Object.freeze({ signal: NEVER, toolName: spec.name, context: options.context });
    const limits = tool.limits;
    this.plain =
      options.observer === undefined &&
      options.timeoutMs === undefined &&
      (limits === undefined || (limits.timeoutMs === undefined && limits.maxCallsPerMinute === undefined && limits.maxResultBytes === undefined));
  }

  validators(): Either<ValidatorsError, CompiledValidators> {
    if (this.compiled !== undefined) return this.compiled;
    const args = compileSchema(this.spec.schema);
    let result: Either<ValidatorsError, CompiledValidators>;
    if (isLeft(args)) {
      result = left({ code: ToolCodes.INVALID_SCHEMA, message: `the argument schema of "${this.name}" is not valid: ${args.left.message}` });
    } else if (acceptsAnything(this.spec.outputSchema)) {
      result = right({ args: args.right, output: undefined });
    } else {
      const output = compileSchema(this.spec.outputSchema);
      result = isLeft(output)
        ? left({ code: ToolCodes.INVALID_SCHEMA, message: `the output schema of "${this.name}" is not valid: ${output.left.message}` })
        : right({ args: args.right, output: output.right });
    }
    this.compiled = result;
    if (isRight(result)) {
      this.argsCheck = result.right.args.check;
      this.outputCheck = result.right.output?.check;
      this.hasDefaults = result.right.args.hasDefaults;
      this.ready = true;
    }
    return result;
  }

  toJSON(): { readonly boundTool: string; readonly spec: ToolSpecification } {
    return { boundTool: this.name, spec: this.spec };
  }
}

// -------------------------------------------------------------------------------------------------
// bind
// -------------------------------------------------------------------------------------------------

const MAX_DIFFS = 50;

/** Descriptions are compared with runs of whitespace collapsed and ends trimmed. */
export const normalizeDescription = (s: string): string => s.trim().replace(/\s+/g, ' ');

const descriptionDifference = (spec: string, tool: string): JsonDifference => ({ pointer: '', kind: 'changed', expected: spec, actual: tool });

/** Where two texts start to differ, with a little context: `…greeting for «the given» name`. */
const showTextDifference = (a: string, b: string): string => {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const from = Math.max(0, i - 20);
  const cut = (s: string) => `${from > 0 ? '…' : ''}${s.slice(from, i + 30)}${s.length > i + 30 ? '…' : ''}`;
  return `spec ${JSON.stringify(cut(a))}, tool ${JSON.stringify(cut(b))}`;
};

/**
 * A specification's arguments object is closed by default, and most tools' schemas (written by
 * hand, or by a library that leaves objects open) do not say: a tool schema silent about
 * `additionalProperties` agrees with a closed specification. Calls are validated against the
 * specification's schema, so the tool never sees an undeclared argument.
 */
const closedLike = (spec: JsonSchema, tool: JsonSchema): JsonSchema =>
  typeof spec === 'object' && typeof tool === 'object' && spec['additionalProperties'] === false && tool['additionalProperties'] === undefined
    ? { ...tool, additionalProperties: false }
    : tool;

const mismatchesOf = (spec: ToolSpecification, tool: Tool, match: 'same' | 'accepts'): Mismatch[] => {
  const out: Mismatch[] = [];
  if (tool.name !== spec.name) {
    out.push({
      code: ToolCodes.NAME_MISMATCH,
      message: `the library entry "${spec.name}" holds a tool named "${tool.name}"`,
      differences: [{ pointer: '', kind: 'changed', expected: spec.name, actual: tool.name }],
    });
  }
  if (match === 'accepts') return [...out, ...acceptMismatches(spec, tool)];
  const sd = normalizeDescription(spec.description);
  const td = normalizeDescription(tool.description);
  if (sd !== td) {
    out.push({
      code: ToolCodes.DESCRIPTION_MISMATCH,
      message: `the descriptions differ: ${showTextDifference(sd, td)}`,
      differences: [descriptionDifference(spec.description, tool.description)],
    });
  }
  const schemaDiffs = diffJson(spec.schema, closedLike(spec.schema, tool.schema), schemaDiffOptions, MAX_DIFFS);
  if (schemaDiffs.length > 0) {
    out.push({
      code: ToolCodes.SCHEMA_MISMATCH,
      message: `the argument schemas differ in ${schemaDiffs.length >= MAX_DIFFS ? `${MAX_DIFFS} or more places` : plural(schemaDiffs.length, 'place')}`,
      differences: schemaDiffs,
    });
  }
  if (tool.outputSchema !== undefined) {
    const outDiffs = diffJson(spec.outputSchema, tool.outputSchema, schemaDiffOptions, MAX_DIFFS);
    if (outDiffs.length > 0) {
      out.push({
        code: ToolCodes.OUTPUT_SCHEMA_MISMATCH,
        message: `the output schemas differ in ${outDiffs.length >= MAX_DIFFS ? `${MAX_DIFFS} or more places` : plural(outDiffs.length, 'place')}`,
        differences: outDiffs,
      });
    }
  }
  return out;
};

/** `match: 'accepts'`: where the tool refuses an argument the specification allows, or returns an output it does not. */
const acceptMismatches = (spec: ToolSpecification, tool: Tool): Mismatch[] => {
  const out: Mismatch[] = [];
  const args = schemaAcceptGaps(tool.schema, spec.schema, MAX_DIFFS);
  if (args.length > 0) {
    out.push({
      code: ToolCodes.SCHEMA_MISMATCH,
      message: `the tool's argument schema does not accept every argument the specification allows (${args.length >= MAX_DIFFS ? `${MAX_DIFFS} or more places` : plural(args.length, 'place')})`,
      differences: args,
    });
  }
  if (tool.outputSchema !== undefined) {
    const output = schemaAcceptGaps(spec.outputSchema, tool.outputSchema, MAX_DIFFS).map((d) => ({ ...d, expected: d.actual, actual: d.expected }));
    if (output.length > 0) {
      out.push({
        code: ToolCodes.OUTPUT_SCHEMA_MISMATCH,
        message: `the specification's output schema does not accept every output the tool's allows (${output.length >= MAX_DIFFS ? `${MAX_DIFFS} or more places` : plural(output.length, 'place')})`,
        differences: output,
      });
    }
  }
  return out;
};

const MISMATCH_WORDS: Record<MismatchCode, string> = {
  [ToolCodes.NAME_MISMATCH]: 'name',
  [ToolCodes.DESCRIPTION_MISMATCH]: 'description',
  [ToolCodes.SCHEMA_MISMATCH]: 'argument schema',
  [ToolCodes.OUTPUT_SCHEMA_MISMATCH]: 'output schema',
};

const bindError = (
  code: BindErrorCode,
  toolName: string,
  message: string,
  extra: { readonly mismatches?: ReadonlyArray<Mismatch>; readonly problems?: ReadonlyArray<Diagnostic>; readonly suggestions?: ReadonlyArray<string> } = {},
): BindError => {
  const e = { code, toolName, message, mismatches: extra.mismatches ?? [], problems: extra.problems ?? [], suggestions: extra.suggestions ?? [] };
  const details = detailLines(e).map((l) => l.trim());
  return { ...e, severity: 'error', ...(details.length > 0 ? { hint: details.join('; ') } : {}) };
};

/**
 * Binds a specification to the tool of the same name in `library`. `Right` when the tool exists
 * and agrees with the specification on name, description (whitespace-normalized) and argument
 * schema (structurally), and on the output schema when the tool declares one; `Left` (one bind
 * error) says what differs and shows it.
 */
export const bindTool = (spec: ToolSpecification, library: ToolLibrary, options: BindOptions = {}): Either<ReadonlyArray<BindError>, BoundTool> => {
  const r = bindOne(spec, library, options);
  return r.ok ? right(r.value) : left([r.error]);
};

const bindOne = (spec: ToolSpecification, library: ToolLibrary, options: BindOptions): Result<BoundTool, BindError> => {
  const tool = lookupTool(spec.name, library);
  if (tool === undefined) {
    const suggestions = closeNames(spec.name, toolNames(library));
    return err(
      bindError(
        ToolCodes.NOT_IN_LIBRARY,
        spec.name,
        `no tool "${spec.name}" in the library${suggestions.length > 0 ? ` (did you mean ${suggestions.map((s) => `"${s}"`).join(' or ')}?)` : ''}`,
        { suggestions },
      ),
    );
  }
  const problems = validateTool(tool);
  if (problems.length > 0) {
    return err(
      bindError(ToolCodes.INVALID, spec.name, `the library entry "${spec.name}" is not a usable tool: ${problems.map((p) => p.message).join('; ')}`, {
        problems,
      }),
    );
  }
  const mismatches = mismatchesOf(spec, tool, options.match ?? 'same');
  if (mismatches.length > 0) {
    const words = mismatches.map((m) => MISMATCH_WORDS[m.code]);
    const what = words.length === 1 ? `its ${words[0]} differs` : `its ${words.slice(0, -1).join(', ')} and ${words[words.length - 1]} differ`;
    return err(bindError(ToolCodes.MISMATCH, spec.name, `the tool "${spec.name}" does not match its specification: ${what}`, { mismatches }));
  }
  return ok(new BoundToolImpl(spec, tool, options));
};

/**
 * Binds every specification (an agent's tools), reporting every failure, not only the first.
 * Two specifications with one name are a `DUPLICATE_SPECIFICATION` error.
 */
export const bindAll = (
  specs: ReadonlyArray<ToolSpecification>,
  library: ToolLibrary,
  options: BindOptions = {},
): Either<ReadonlyArray<BindError>, BoundTools> => {
  const errors: BindError[] = [];
  const tools: BoundTool[] = [];
  const byName = new Map<string, BoundTool>();
  const seen = new Set<string>();
  for (const spec of specs) {
    if (seen.has(spec.name)) {
      errors.push(
        bindError(ToolCodes.DUPLICATE_SPECIFICATION, spec.name, `two tool specifications are named "${spec.name}"; tool names must be unique within an agent`),
      );
      continue;
    }
    seen.add(spec.name);
    const r = bindOne(spec, library, options);
    if (!r.ok) errors.push(r.error);
    else {
      tools.push(r.value);
      byName.set(spec.name, r.value);
    }
  }
  return errors.length > 0 ? left(errors) : right({ tools, byName });
};

/** The bound tool of that name, or `undefined`. */
export const lookupBound = (name: string, bound: BoundTools): BoundTool | undefined => bound.byName.get(name);

/** Whether a value is a bound tool made by `bindTool`. */
export const isBoundTool = (v: unknown): v is BoundTool => isBoundToolImpl(v);

/** The hot-path check of `invoke`: never throws for any value. */
export const isBoundToolImpl = (v: unknown): v is BoundToolImpl => typeof v === 'object' && v !== null && (v as { [BOUND]?: unknown })[BOUND] === true;

// -------------------------------------------------------------------------------------------------
// rendering
// -------------------------------------------------------------------------------------------------

/**
 * A bind error for a person: the message, then each mismatch with its differences (JSON pointers
 * for schemas), e.g.
 *
 *     error[TOOL_MISMATCH]: the tool "getWeather" does not match its specification: its argument schema differs
 *       TOOL_SCHEMA_MISMATCH: the argument schemas differ in 1 place
 *         /properties/city/type: spec "string", tool "integer"
 */
export const formatBindError = (e: BindError): string => [`error[${e.code}]: ${e.message}`, ...detailLines(e)].join('\n');

/** The lines under a bind error's message: each mismatch with its differences, each problem. */
const detailLines = (e: Pick<BindError, 'mismatches' | 'problems'>): string[] => {
  const lines: string[] = [];
  for (const m of e.mismatches) {
    lines.push(`  ${m.code}: ${m.message}`);
    if (m.code === ToolCodes.SCHEMA_MISMATCH || m.code === ToolCodes.OUTPUT_SCHEMA_MISMATCH) {
      for (const l of formatDifferences(m.differences).split('\n')) lines.push(`    ${l}`);
    }
  }
  for (const p of e.problems) lines.push(`  ${p.code}: ${p.message}`);
  return lines;
};

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------
