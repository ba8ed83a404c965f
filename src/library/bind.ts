/**
 * Late binding (`bindTool`): a specification joined, at run time, to the tool of the
 * same name in a library, after checking that they agree on the name, the description and the
 * argument schema (and the output schema, when the tool declares one). Schemas are compared
 * structurally: key order is ignored, `required` and `type` arrays are sets.
 *
 * A bound tool carries the specification, the tool and the compiled validators (compiled on the
 * first call, not at bind time). `invoke` runs it.
 */
import type { Either } from 'fp-ts/lib/Either.js';
import { type Diagnostic, error as diagnostic } from '../core/diagnostic.js';
import type { JsonSchema } from '../core/json-schema.js';
import type { ToolSpecification } from '../spec/tool-spec.js';
import { type CompiledSchema, compileSchema, type SchemaCompileError } from '../spec/validate.js';
import type { InvocationObserver } from './events.js';
import { diffJson, formatDifferences, type JsonDifference, schemaDiffOptions } from './json-diff.js';
import { NEVER } from './never-signal.js';
import { type InvocationContext, type Tool, validateTool } from './tool.js';
import { lookupTool, type ToolLibrary, toolNames } from './tool-library.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/**
 * Why a specification could not be bound:
 * - `TOOL_NOT_FOUND`: the library has no tool of that name (`suggestions` holds close names);
 * - `TOOL_MISMATCH`: the tool disagrees with the specification (`mismatches` says where and how);
 * - `INVALID_TOOL`: the library entry is not a usable tool (`problems`);
 * - `DUPLICATE_SPECIFICATION`: `bindAll` got two specifications of one name.
 */
export type BindErrorCode = 'TOOL_NOT_FOUND' | 'TOOL_MISMATCH' | 'INVALID_TOOL' | 'DUPLICATE_SPECIFICATION';

export type MismatchCode = 'NAME_MISMATCH' | 'DESCRIPTION_MISMATCH' | 'SCHEMA_MISMATCH' | 'OUTPUT_SCHEMA_MISMATCH';

export interface Mismatch {
  readonly code: MismatchCode;
  /** One line: what differs, e.g. `the argument schema differs in 2 places`. */
  readonly message: string;
  /** The differences, spec side as `expected`, tool side as `actual` (JSON pointers for schemas). */
  readonly differences: ReadonlyArray<JsonDifference>;
}

export interface BindError {
  readonly code: BindErrorCode;
  /** The specification's name. */
  readonly toolName: string;
  /** One line a person or a model can act on. */
  readonly message: string;
  readonly mismatches: ReadonlyArray<Mismatch>;
  /** For `INVALID_TOOL`: what is wrong with the entry. */
  readonly problems: ReadonlyArray<Diagnostic>;
  /** For `TOOL_NOT_FOUND`: names in the library close to the one asked for. */
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
  readonly validators: () => Either<SchemaCompileError, CompiledValidators>;
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

/** Keywords that only annotate: a schema made of these alone accepts every value. */
const ANNOTATIONS = new Set(['$schema', '$id', '$comment', 'title', 'description', 'examples', 'default', 'deprecated', 'readOnly', 'writeOnly']);

/** Whether a schema accepts every value (`true`, `{}`, or annotations only). */
export const acceptsAnything = (schema: JsonSchema | undefined): boolean =>
  schema === undefined || schema === true || (typeof schema === 'object' && schema !== null && !Array.isArray(schema) && Object.keys(schema).every((k) => ANNOTATIONS.has(k)));

const right = <A>(a: A): Either<never, A> => ({ _tag: 'Right', right: a });
const left = <E>(e: E): Either<E, never> => ({ _tag: 'Left', left: e });

const never = (): boolean => false;

/** Marks the instances of `BoundToolImpl` (a property load: cheaper than `instanceof` on the hot path). */
export const BOUND: unique symbol = Symbol('gramkit.BoundTool');

/** The implementation behind `BoundTool`; `invoke` reads its cache directly. */
export class BoundToolImpl implements BoundTool {
  readonly [BOUND] = true;
  readonly name: string;
  /** Cached on first use by `validators()`. */
  compiled: Either<SchemaCompileError, CompiledValidators> | undefined = undefined;
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

  validators(): Either<SchemaCompileError, CompiledValidators> {
    if (this.compiled !== undefined) return this.compiled;
    const args = compileSchema(this.spec.schema);
    let result: Either<SchemaCompileError, CompiledValidators>;
    if (args._tag === 'Left') {
      result = left({ code: 'INVALID_SCHEMA', message: `the argument schema of "${this.name}" is not valid: ${args.left.message}` });
    } else if (acceptsAnything(this.spec.outputSchema)) {
      result = right({ args: args.right, output: undefined });
    } else {
      const output = compileSchema(this.spec.outputSchema);
      result =
        output._tag === 'Left'
          ? left({ code: 'INVALID_SCHEMA', message: `the output schema of "${this.name}" is not valid: ${output.left.message}` })
          : right({ args: args.right, output: output.right });
    }
    this.compiled = result;
    if (result._tag === 'Right') {
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

const mismatchesOf = (spec: ToolSpecification, tool: Tool): Mismatch[] => {
  const out: Mismatch[] = [];
  if (tool.name !== spec.name) {
    out.push({
      code: 'NAME_MISMATCH',
      message: `the library entry "${spec.name}" holds a tool named "${tool.name}"`,
      differences: [{ pointer: '', kind: 'changed', expected: spec.name, actual: tool.name }],
    });
  }
  const sd = normalizeDescription(spec.description);
  const td = normalizeDescription(tool.description);
  if (sd !== td) {
    out.push({ code: 'DESCRIPTION_MISMATCH', message: `the descriptions differ: ${showTextDifference(sd, td)}`, differences: [descriptionDifference(spec.description, tool.description)] });
  }
  const schemaDiffs = diffJson(spec.schema, tool.schema, schemaDiffOptions, MAX_DIFFS);
  if (schemaDiffs.length > 0) {
    out.push({
      code: 'SCHEMA_MISMATCH',
      message: `the argument schemas differ in ${schemaDiffs.length >= MAX_DIFFS ? `${MAX_DIFFS} or more places` : plural(schemaDiffs.length, 'place')}`,
      differences: schemaDiffs,
    });
  }
  if (tool.outputSchema !== undefined) {
    const outDiffs = diffJson(spec.outputSchema, tool.outputSchema, schemaDiffOptions, MAX_DIFFS);
    if (outDiffs.length > 0) {
      out.push({
        code: 'OUTPUT_SCHEMA_MISMATCH',
        message: `the output schemas differ in ${outDiffs.length >= MAX_DIFFS ? `${MAX_DIFFS} or more places` : plural(outDiffs.length, 'place')}`,
        differences: outDiffs,
      });
    }
  }
  return out;
};

const MISMATCH_WORDS: Record<MismatchCode, string> = {
  NAME_MISMATCH: 'name',
  DESCRIPTION_MISMATCH: 'description',
  SCHEMA_MISMATCH: 'argument schema',
  OUTPUT_SCHEMA_MISMATCH: 'output schema',
};

const bindError = (
  code: BindErrorCode,
  toolName: string,
  message: string,
  extra: { readonly mismatches?: ReadonlyArray<Mismatch>; readonly problems?: ReadonlyArray<Diagnostic>; readonly suggestions?: ReadonlyArray<string> } = {},
): BindError => ({ code, toolName, message, mismatches: extra.mismatches ?? [], problems: extra.problems ?? [], suggestions: extra.suggestions ?? [] });

/**
 * Binds a specification to the tool of the same name in `library`. `Right` when the tool exists
 * and agrees with the specification on name, description (whitespace-normalized) and argument
 * schema (structurally), and on the output schema when the tool declares one; `Left` says what
 * differs and shows it.
 */
export const bindTool = (spec: ToolSpecification, library: ToolLibrary, options: BindOptions = {}): Either<BindError, BoundTool> => {
  const tool = lookupTool(spec.name, library);
  if (tool === undefined) {
    const suggestions = closeNames(spec.name, toolNames(library));
    return left(
      bindError(
        'TOOL_NOT_FOUND',
        spec.name,
        `no tool "${spec.name}" in the library${suggestions.length > 0 ? ` (did you mean ${suggestions.map((s) => `"${s}"`).join(' or ')}?)` : ''}`,
        { suggestions },
      ),
    );
  }
  const problems = validateTool(tool);
  if (problems.length > 0) {
    return left(bindError('INVALID_TOOL', spec.name, `the library entry "${spec.name}" is not a usable tool: ${problems.map((p) => p.message).join('; ')}`, { problems }));
  }
  const mismatches = mismatchesOf(spec, tool);
  if (mismatches.length > 0) {
    const words = mismatches.map((m) => MISMATCH_WORDS[m.code]);
    const what = words.length === 1 ? `its ${words[0]} differs` : `its ${words.slice(0, -1).join(', ')} and ${words[words.length - 1]} differ`;
    return left(bindError('TOOL_MISMATCH', spec.name, `the tool "${spec.name}" does not match its specification: ${what}`, { mismatches }));
  }
  return right(new BoundToolImpl(spec, tool, options));
};

/**
 * Binds every specification (an agent's tools), reporting every failure, not only the first.
 * Two specifications with one name are a `DUPLICATE_SPECIFICATION` error.
 */
export const bindAll = (specs: ReadonlyArray<ToolSpecification>, library: ToolLibrary, options: BindOptions = {}): Either<ReadonlyArray<BindError>, BoundTools> => {
  const errors: BindError[] = [];
  const tools: BoundTool[] = [];
  const byName = new Map<string, BoundTool>();
  const seen = new Set<string>();
  for (const spec of specs) {
    if (seen.has(spec.name)) {
      errors.push(bindError('DUPLICATE_SPECIFICATION', spec.name, `two tool specifications are named "${spec.name}"; tool names must be unique within an agent`));
      continue;
    }
    seen.add(spec.name);
    const r = bindTool(spec, library, options);
    if (r._tag === 'Left') errors.push(r.left);
    else {
      tools.push(r.right);
      byName.set(spec.name, r.right);
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
 *       SCHEMA_MISMATCH: the argument schemas differ in 1 place
 *         /properties/city/type: spec "string", tool "integer"
 */
export const formatBindError = (e: BindError): string => {
  const lines = [`error[${e.code}]: ${e.message}`];
  for (const m of e.mismatches) {
    lines.push(`  ${m.code}: ${m.message}`);
    if (m.code === 'SCHEMA_MISMATCH' || m.code === 'OUTPUT_SCHEMA_MISMATCH') {
      for (const l of formatDifferences(m.differences).split('\n')) lines.push(`    ${l}`);
    }
  }
  for (const p of e.problems) lines.push(`  ${p.code}: ${p.message}`);
  return lines.join('\n');
};

/** A bind error as a diagnostic (code, message, and the differences as a hint). */
export const bindErrorDiagnostic = (e: BindError): Diagnostic => {
  const details = formatBindError(e).split('\n').slice(1).map((l) => l.trim());
  return diagnostic(e.code, e.message, details.length > 0 ? { hint: details.join('; ') } : {});
};

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Edit distance, bounded: returns `max + 1` as soon as the distance exceeds `max`. */
const distance = (a: string, b: string, max: number): number => {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min((prev[j] as number) + 1, (cur[j - 1] as number) + 1, (prev[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
      cur.push(v);
      if (v < best) best = v;
    }
    if (best > max) return max + 1;
    prev = cur;
  }
  return prev[b.length] as number;
};

/** Up to three names close to `name` (same letters ignoring case and `_`/`-`, or at most two edits away). */
const closeNames = (name: string, names: ReadonlyArray<string>): ReadonlyArray<string> => {
  const norm = (s: string) => s.toLowerCase().replace(/[_-]/g, '');
  const n = norm(name);
  const max = name.length <= 4 ? 1 : 2;
  return names
    .map((c) => ({ c, d: norm(c) === n ? 0 : distance(name, c, max) }))
    .filter((x) => x.d <= max)
    .sort((x, y) => x.d - y.d || (x.c < y.c ? -1 : 1))
    .slice(0, 3)
    .map((x) => x.c);
};
