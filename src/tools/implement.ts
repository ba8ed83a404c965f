/**
 * `implement(source, handlers)`: a library from a specification file and plain functions by tool
 * name. Each tool takes its name, description and schemas from the specification, so the library
 * always binds to it; the handlers restate nothing.
 *
 *   export default await implement<Tools>(new URL('./greeter.gram', import.meta.url), {
 *     greet: ({ name }) => `Hello, ${name}!`,
 *   });
 *
 * A tool of the file without a handler, or a handler for no tool, is an error naming both lists
 * (with the `Tools` map `gramkit types` writes, a compile error too). Tools that declare their
 * implementation in data (`http`, `command`) need no handler; given one, it is used instead.
 *
 * Building a library is a program's start-up, not a call a model makes: a problem throws (or
 * rejects) an `ImplementError` carrying the diagnostics, rather than returning an `Either` each
 * user would unwrap.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { isAbsolute, resolve, dirname } from 'node:path';
import { ImplCodes } from './codes.js';
import { declaresImplementation } from './declared-kind.js';
import { type Diagnostic, error, hasErrors } from '../core/diagnostic.js';
import { formatDiagnostics } from '../core/format-diagnostic.js';
import { closeNames } from '../core/suggest.js';
import { loadSpecifications } from '../specification/load.js';
import type { Specifications } from '../specification/specifications.js';
import type { ToolSpecification } from '../specification/tool-spec.js';
import type { InvocationContext, Tool, ToolAnnotations, ToolLimits } from '../library/tool.js';
import { defineTool } from '../library/define-tool.js';
import { toolLibrary, type ToolLibrary } from '../library/tool-library.js';
import { isLeft } from '../core/either.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** What `gramkit types` writes as `Tools`: per tool name, the arguments a handler receives and its result. */
export type ToolTypes<T> = { readonly [K in keyof T]: { readonly args: unknown; readonly result: unknown } };

/** A handler: a plain function of the validated arguments (defaults filled in) and the call's context. */
export type Handler<A = any, R = unknown> = (args: A, ctx: InvocationContext) => R | Promise<R>;

/**
 * The handlers of a file's tools, one per tool name. With the `Tools` map of `gramkit types`,
 * each handler's arguments and result are checked, a missing one and an extra one are compile errors.
 */
export type Handlers<T = Record<string, { args: any; result: unknown }>> = {
  readonly [K in keyof T]: T[K] extends { readonly args: infer A; readonly result: infer R } ? Handler<A, R> : never;
};

/** Where the specifications come from: a file (URL or path), gram text, or specifications already loaded. */
export type ImplementSource = URL | string | Specifications | ReadonlyArray<ToolSpecification>;

export interface ImplementOptions {
  /** What a relative path is resolved against: a module's `import.meta.url` or a folder (default: the working directory). */
  readonly base?: string | URL;
  /** Strict gram conformance. */
  readonly strict?: boolean;
  /** Per tool name: limits and annotations (permissions, safety level, approval) of its tool. */
  readonly tools?: Readonly<Record<string, { readonly limits?: ToolLimits; readonly annotations?: ToolAnnotations }>>;
}

/** Why a library could not be made: `diagnostics` lists every problem; the message shows them all. */
export class ImplementError extends Error {
  readonly code: string;
  readonly diagnostics: ReadonlyArray<Diagnostic>;
  constructor(diagnostics: ReadonlyArray<Diagnostic>, source?: string) {
    super(formatDiagnostics(diagnostics, source));
    this.name = 'ImplementError';
    this.code = diagnostics[0]?.code ?? ImplCodes.HANDLERS_MISMATCH;
    this.diagnostics = diagnostics;
  }
}

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

/**
 * The library of a specification file's tools, each running its handler. `source`: a `.gram` (or
 * `.json`) file as a URL (`new URL('./greeter.gram', import.meta.url)`) or a path (relative to
 * `options.base`), gram text, or loaded specifications. Rejects with an `ImplementError` when the
 * file does not load or the handlers do not match its tools.
 */
export const implement = async <T extends ToolTypes<T> = Record<string, { args: any; result: unknown }>>(
  source: ImplementSource,
  handlers: NoInfer<Handlers<T>>,
  options: ImplementOptions = {},
): Promise<ToolLibrary> => {
  const file = filePathOf(source, options.base);
  if (file === undefined) return implementSync<T>(source as Exclude<ImplementSource, URL>, handlers, options);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw new ImplementError([
      error(ImplCodes.SOURCE_UNREADABLE, `cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, { file }),
    ]);
  }
  return fromText(text, file, handlers as Readonly<Record<string, unknown>>, options);
};

/** `implement` for gram text or loaded specifications, without IO: throws an `ImplementError`. */
export const implementSync = <T extends ToolTypes<T> = Record<string, { args: any; result: unknown }>>(
  source: string | Specifications | ReadonlyArray<ToolSpecification>,
  handlers: NoInfer<Handlers<T>>,
  options: ImplementOptions = {},
): ToolLibrary => {
  const h = handlers as Readonly<Record<string, unknown>>;
  if (typeof source === 'string') return fromText(source, undefined, h, options);
  return build(isToolArray(source) ? source : source.tools, h, options);
};

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

const isToolArray = (s: Specifications | ReadonlyArray<ToolSpecification>): s is ReadonlyArray<ToolSpecification> => Array.isArray(s);

/** The file a source names, or undefined for text and specifications. A string is a path when it is one line ending in `.gram` or `.json`. */
const filePathOf = (source: ImplementSource, base: string | URL | undefined): string | undefined => {
  if (source instanceof URL) return fileURLToPath(source);
  if (typeof source !== 'string' || /[\n[]/.test(source) || !/\.(gram|json)$/i.test(source.trim())) return undefined;
  const p = source.trim();
  if (isAbsolute(p) || base === undefined) return p;
  const b = base instanceof URL || base.startsWith('file:') ? dirname(fileURLToPath(base)) : base;
  return resolve(b, p);
};

const fromText = (text: string, file: string | undefined, handlers: Readonly<Record<string, unknown>>, options: ImplementOptions): ToolLibrary => {
  const loaded = loadSpecifications(
    [{ text, ...(file !== undefined ? { filename: file } : {}) }],
    options.strict !== undefined ? { strict: options.strict } : {},
  );
  if (isLeft(loaded))
    throw new ImplementError(
      loaded.left.filter((d) => d.severity === 'error'),
      text,
    );
  return build(loaded.right.tools, handlers, options, file);
};

const list = (names: ReadonlyArray<string>): string => (names.length === 0 ? '(none)' : names.join(', '));

/** The library, or every problem of the handlers at once. */
const build = (tools: ReadonlyArray<ToolSpecification>, handlers: Readonly<Record<string, unknown>>, options: ImplementOptions, file?: string): ToolLibrary => {
  const where = file !== undefined ? { file } : {};
  const names = tools.map((t) => t.name);
  const given = Object.keys(handlers);
  const missing = tools.filter((t) => !Object.hasOwn(handlers, t.name) && !declaresImplementation(t)).map((t) => t.name);
  const extra = given.filter((n) => !names.includes(n));
  const problems: Diagnostic[] = [];
  if (missing.length > 0 || extra.length > 0) {
    const parts = [
      ...(missing.length > 0 ? [`no handler for ${missing.map((n) => `"${n}"`).join(', ')}`] : []),
      ...(extra.length > 0
        ? [`${extra.map((n) => `"${n}"`).join(', ')} ${extra.length === 1 ? 'is' : 'are'} no tool of the ${file !== undefined ? 'file' : 'specifications'}`]
        : []),
    ];
    const guesses = extra.flatMap((n) => {
      const g = closeNames(n, missing.length > 0 ? missing : names)[0];
      return g !== undefined ? [`"${n}": did you mean "${g}"?`] : [];
    });
    problems.push(
      error(ImplCodes.HANDLERS_MISMATCH, `the handlers do not match the tools: ${parts.join('; ')}. The tools: ${list(names)}. The handlers: ${list(given)}`, {
        ...where,
        hint: guesses.length > 0 ? guesses.join('; ') : 'give one handler per tool of the file, named as the tool',
      }),
    );
  }
  for (const n of given) {
    if (names.includes(n) && typeof handlers[n] !== 'function') {
      problems.push(
        error(ImplCodes.HANDLER_NOT_FUNCTION, `the handler of "${n}" is ${handlers[n] === null ? 'null' : typeof handlers[n]}, not a function`, {
          ...where,
          hint: 'give a function (args, ctx) => result',
        }),
      );
    }
  }
  if (hasErrors(problems)) throw new ImplementError(problems);
  return toolLibrary(
    tools.flatMap((spec) => {
      const fn = handlers[spec.name];
      return typeof fn === 'function' ? [toolOf(spec, fn as Handler, options.tools?.[spec.name])] : [];
    }),
  );
};

const toolOf = (spec: ToolSpecification, fn: Handler, extra: { readonly limits?: ToolLimits; readonly annotations?: ToolAnnotations } | undefined): Tool =>
  defineTool(spec, fn, {
    ...(extra?.limits !== undefined ? { limits: extra.limits } : {}),
    ...(extra?.annotations !== undefined ? { annotations: extra.annotations } : {}),
  });
