/**
 * Validation of values against JSON Schemas with ajv 8.
 *
 * - One ajv instance per dialect (2020-12 by default; draft-07 when a schema says so), created on
 *   first use. A 2020-12 schema is checked against its meta-schema by ajv's code for it generated
 *   ahead of time (meta-validator.ts), not by the validator ajv would compile for it on the first
 *   schema of every process (≈ 0.15 s of a CLI command's start-up).
 * - Each schema is compiled once, lazily, on first use, and cached: by object identity (a WeakMap,
 *   the fast path), then by content (so equal schemas loaded twice share one validator).
 *   Compiling costs about 1 ms and 17 KB per schema, so loading 1,000 specifications compiles
 *   nothing until a tool is called.
 * - Errors are mapped to `{path, code, message}` that a model can act on:
 *   `argument "age" must be an integer, got "ten"`.
 * - Defaults are applied to a copy, never to the caller's value (ajv's `useDefaults` would mutate).
 * - `validateToolArgs(schema, args)`: validation, then defaults on a copy, in one call, at ajv's
 *   speed on the valid path (a benchmark compares them).
 */
import { plural } from '../core/plural.js';
import { type ArgCode, ArgCodes, SpecCodes } from '../types/codes.js';
import { pointerSegments, refSegments, valueAt } from '../core/json-pointer.js';
import { isRecord } from '../core/json.js';
import { stableStringify } from '../core/stable-json.js';
import { type Either, isLeft, left, right } from '../core/either.js';
import AjvDraft07, { type AnySchema, type ErrorObject, type ValidateFunction } from 'ajv';
import { linearRegex } from '../core/linear-regex.js';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { JsonSchema, JsonValue } from '../core/json-schema.js';
import { didYouMean } from '../core/suggest.js';
import { describeValue, displayPath } from '../types/describe-value.js';
import { validate as generatedMeta2020 } from './meta-validator.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** What is wrong with the value at a path (`SPEC_ARG_REQUIRED`, `SPEC_ARG_TYPE`, ...). */
export type ValidationIssueCode = ArgCode;

export interface ValidationIssue {
  /** Where, as a path a person reads: `` (the whole value), `age`, `user.tags[2]`. */
  readonly path: string;
  readonly code: ValidationIssueCode;
  readonly message: string;
}

/** A compiled schema. `check` is the hot path; `issues` explains the last failure of a value. */
export interface CompiledSchema {
  readonly schema: JsonSchema;
  /** True when the value validates. */
  readonly check: (value: unknown) => boolean;
  /** The issues of a value that does not validate (empty when it does). */
  readonly issues: (value: unknown) => ReadonlyArray<ValidationIssue>;
  /** Whether `applyDefaults` can change anything (the schema declares `default` somewhere it applies). */
  readonly hasDefaults: boolean;
  /** A copy of `value` with the schema's defaults filled in (the value itself when nothing applies). */
  readonly applyDefaults: (value: unknown) => unknown;
}

export interface SchemaCompileError {
  readonly code: typeof SpecCodes.INVALID_SCHEMA;
  readonly message: string;
}

// -------------------------------------------------------------------------------------------------
// ajv instances (lazy)
// -------------------------------------------------------------------------------------------------

type AjvLike = { compile(schema: AnySchema): ValidateFunction };
type AjvClass = new (options: object) => AjvLike;

/** ajv is CommonJS with a `default` property; ESM loaders may or may not unwrap it. */
const interop = (m: unknown): AjvClass => ((m as { default?: unknown }).default ?? m) as AjvClass;

let ajv2020: AjvLike | undefined;
let ajv07: AjvLike | undefined;

/** ajv's regular-expression engine: RE2JS (patterns it cannot run make the schema invalid, with the reason). */
function linearEngine(pattern: string, flags: string): { test: (s: string) => boolean; toString: () => string } {
  const r = linearRegex(pattern, flags);
  if (isLeft(r)) throw new Error(`the pattern "${pattern}" cannot be used: ${r.left} (patterns run on a linear-time engine)`);
  // ajv caches compiled patterns by their toString()
  const key = `/${pattern}/${flags}`;
  return { test: r.right.test, toString: () => key };
}
linearEngine.code = 'linearRegex';
const AJV_OPTIONS = {
  allErrors: true,
  strict: false,
  validateFormats: true,
  // tool schemas from the wild carry unknown keywords and formats: accept them, ignore them quietly
  logger: false,
  // `pattern` and `patternProperties` run on a linear-time engine: no argument can stall validation
  code: { regExp: linearEngine },
} as const;

// ajv-formats is CommonJS: its default export arrives wrapped or not depending on the loader
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (a: unknown) => void;

const withFormats = <A>(ajv: A): A => {
  addFormats(ajv);
  return ajv;
};

const META_2020 = 'https://json-schema.org/draft/2020-12/schema';
/** ajv's standalone validator (the generated module is not type-checked): a `ValidateFunction`. */
const validateMeta2020 = generatedMeta2020 as unknown as ValidateFunction;

/**
 * Checks a 2020-12 schema against its meta-schema as ajv does before it compiles (the instance
 * has `validateSchema: false`): the same validator, the same message (`schema is invalid: …`).
 * A schema naming another meta-schema is checked by ajv itself.
 */
const validateSchema2020 = (ajv: Ajv2020Like, schema: JsonSchema): void => {
  if (typeof schema !== 'object' || schema === null) return;
  const meta = schema['$schema'];
  if (meta !== undefined && meta !== META_2020 && meta !== `${META_2020}#`) {
    ajv.validateSchema(schema as AnySchema, true);
    return;
  }
  if (!validateMeta2020(schema)) throw new Error(`schema is invalid: ${ajv.errorsText(validateMeta2020.errors)}`);
};

type Ajv2020Like = AjvLike & {
  validateSchema(schema: AnySchema, throwOrLogError: boolean): boolean;
  errorsText(errors: ReadonlyArray<ErrorObject> | null | undefined): string;
};

const instanceFor = (schema: JsonSchema): AjvLike => {
  const dialect = typeof schema === 'object' && schema !== null ? schema['$schema'] : undefined;
  if (typeof dialect === 'string' && /draft-0[4-7]/.test(dialect)) {
    ajv07 ??= withFormats(new (interop(AjvDraft07))(AJV_OPTIONS));
    return ajv07;
  }
  if (ajv2020 === undefined) {
    const ajv = withFormats(new (interop(Ajv2020))({ ...AJV_OPTIONS, validateSchema: false })) as Ajv2020Like;
    ajv2020 = {
      compile: (s: AnySchema) => {
        validateSchema2020(ajv, s as JsonSchema);
        return ajv.compile(s);
      },
    };
  }
  return ajv2020;
};

// -------------------------------------------------------------------------------------------------
// compile (cached)
// -------------------------------------------------------------------------------------------------

const byIdentity = new WeakMap<object, Either<SchemaCompileError, CompiledSchema>>();
const byContent = new Map<string, Either<SchemaCompileError, CompiledSchema>>();

/**
 * The compiled form of a schema, compiled on first use and cached. A schema ajv cannot compile
 * gives `INVALID_SCHEMA` (cached too).
 */
export const compileSchema = (schema: JsonSchema): Either<SchemaCompileError, CompiledSchema> => {
  if (typeof schema === 'object' && schema !== null) {
    const hit = byIdentity.get(schema);
    if (hit !== undefined) return hit;
  }
  const key = typeof schema === 'boolean' ? String(schema) : stableStringify(schema);
  let result = byContent.get(key);
  if (result === undefined) {
    result = build(schema);
    byContent.set(key, result);
  }
  if (typeof schema === 'object' && schema !== null) byIdentity.set(schema, result);
  return result;
};

let compilations = 0;

/** How many schemas ajv has compiled in this process (compiling is lazy: loading specifications compiles none). */
export const compiledSchemaCount = (): number => compilations;

/**
 * A property named `__proto__` that a schema declares or requires: validators (ajv among them)
 * read it through the prototype and skip it, so such a schema is refused rather than half-checked.
 */
const protoProperty = (schema: unknown): string | undefined => {
  const stack: Array<{ v: unknown; path: string }> = [{ v: schema, path: '' }];
  let seen = 0;
  while (stack.length > 0 && seen++ < 100_000) {
    const { v, path } = stack.pop() as { v: unknown; path: string };
    if (typeof v !== 'object' || v === null) continue;
    if (Array.isArray(v)) {
      v.forEach((x, i) => stack.push({ v: x, path: `${path}/${i}` }));
      continue;
    }
    const o = v as Record<string, unknown>;
    for (const key of ['properties', 'patternProperties', 'dependentRequired', 'dependentSchemas']) {
      const p = o[key];
      if (typeof p === 'object' && p !== null && Object.prototype.hasOwnProperty.call(p, '__proto__')) return `${path}/${key}`;
    }
    if (Array.isArray(o['required']) && o['required'].includes('__proto__')) return `${path}/required`;
    for (const [k, x] of Object.entries(o)) stack.push({ v: x, path: `${path}/${k}` });
  }
  return undefined;
};

const build = (schema: JsonSchema): Either<SchemaCompileError, CompiledSchema> => {
  let fn: ValidateFunction;
  compilations++;
  const proto = protoProperty(schema);
  if (proto !== undefined)
    return left({
      code: SpecCodes.INVALID_SCHEMA,
      message: `invalid JSON Schema: ${proto === '' ? '' : `at ${proto}, `}a property is named "__proto__", which JavaScript reads as the object's prototype, so it cannot be validated; rename it`,
    });
  try {
    fn = instanceFor(schema).compile(schema as AnySchema);
  } catch (e) {
    return left({ code: SpecCodes.INVALID_SCHEMA, message: `invalid JSON Schema: ${(e as Error).message}` });
  }
  // an `$async` schema validates through a promise, which `check` would take for "valid"
  if ((fn as { $async?: unknown }).$async === true) {
    return left({ code: SpecCodes.INVALID_SCHEMA, message: 'invalid JSON Schema: "$async" schemas are not supported; remove "$async": true' });
  }
  const defaults = defaultsPlan(schema);
  const validate = fn as (value: unknown) => boolean;
  return right({
    schema,
    // ajv's own function: no wrapper on the hot path (it returns a boolean for synchronous schemas),
    // except where ajv compares whole values (enum, const, uniqueItems): its deep equality calls a
    // value's own `valueOf`/`toString`, so `{"valueOf": ""}` would throw instead of failing
    check: comparesValues(schema) ? guarded(validate) : validate,
    issues: (value: unknown) => {
      try {
        return fn(value) ? [] : mapErrors(fn.errors ?? [], value, schema);
      } catch (e) {
        return [{ path: '', code: ArgCodes.INVALID, message: uncomparable(e) }];
      }
    },
    hasDefaults: defaults !== undefined,
    applyDefaults: defaults === undefined ? (v: unknown) => v : (v: unknown) => defaults(v),
  });
};

const COMPARING_KEYWORDS = /"(?:enum|const|uniqueItems)"\s*:/;

/** Whether ajv may compare whole values under this schema (its deep equality is not safe on every JSON value). */
const comparesValues = (schema: JsonSchema): boolean => typeof schema === 'object' && COMPARING_KEYWORDS.test(JSON.stringify(schema));

const guarded =
  (validate: (value: unknown) => boolean) =>
  (value: unknown): boolean => {
    try {
      return validate(value);
    } catch {
      return false;
    }
  };

const uncomparable = (e: unknown): string =>
  `the value cannot be compared with the schema's enum, const or uniqueItems (${e instanceof Error ? e.message : String(e)}): ` +
  'an object whose "valueOf" or "toString" key is not a function is not supported there';

/** Validates a value; `Right(value)` when it validates, `Left(issues)` otherwise. */
export const validateValue = (schema: JsonSchema, value: unknown): Either<ReadonlyArray<ValidationIssue>, unknown> => {
  const compiled = compileSchema(schema);
  if (isLeft(compiled)) return left([{ path: '', code: ArgCodes.INVALID, message: compiled.left.message }]);
  const c = compiled.right;
  return c.check(value) ? right(value) : left(c.issues(value));
};

// -------------------------------------------------------------------------------------------------
// defaults (copy-on-write along the paths that declare them)
// -------------------------------------------------------------------------------------------------

type Filler = (value: unknown) => unknown;

const cloneJson = (v: unknown): unknown => (typeof v === 'object' && v !== null ? structuredClone(v) : v);

/**
 * A function filling the defaults that `schema` declares, or undefined when it declares none where
 * they apply (`properties` of objects, `items`/`prefixItems` of arrays, recursively). Defaults
 * inside `anyOf`/`oneOf` are not applied: which branch applies is not known before validation.
 */
const defaultsPlan = (schema: JsonSchema, depth = 0): Filler | undefined => {
  if (typeof schema !== 'object' || schema === null || depth > 32) return undefined;
  const props = schema['properties'];
  const propFillers: Array<[string, JsonValue | undefined, Filler | undefined]> = [];
  if (isRecord(props)) {
    for (const [k, sub] of Object.entries(props)) {
      if (typeof sub !== 'object' || sub === null) continue;
      const d = (sub as Record<string, JsonValue>)['default'];
      const inner = defaultsPlan(sub as JsonSchema, depth + 1);
      if (d !== undefined || inner !== undefined) propFillers.push([k, d, inner]);
    }
  }
  const items = schema['items'];
  const itemFiller = typeof items === 'object' && items !== null && !Array.isArray(items) ? defaultsPlan(items as JsonSchema, depth + 1) : undefined;
  const prefix = schema['prefixItems'];
  const prefixFillers = Array.isArray(prefix) ? prefix.map((p) => defaultsPlan(p as JsonSchema, depth + 1)) : [];
  const hasPrefix = prefixFillers.some((f) => f !== undefined);
  if (propFillers.length === 0 && itemFiller === undefined && !hasPrefix) return undefined;

  return (value: unknown): unknown => {
    if (isRecord(value) && propFillers.length > 0) {
      let out: Record<string, unknown> | undefined;
      for (const [k, d, inner] of propFillers) {
        const current = Object.prototype.hasOwnProperty.call(value, k) ? value[k] : undefined;
        let next = current;
        if (current === undefined && d !== undefined) next = cloneJson(d);
        if (next !== undefined && inner !== undefined) next = inner(next);
        if (next !== current) {
          // Object.assign, not a spread: V8 makes a spread copy slow to extend (about 2 µs here)
          out ??= Object.assign({}, value);
          out[k] = next;
        }
      }
      return out ?? value;
    }
    if (Array.isArray(value) && (itemFiller !== undefined || hasPrefix)) {
      let out: unknown[] | undefined;
      value.forEach((el, i) => {
        const f = i < prefixFillers.length ? prefixFillers[i] : itemFiller;
        if (f === undefined) return;
        const next = f(el);
        if (next !== el) {
          out ??= [...value];
          out[i] = next;
        }
      });
      return out ?? value;
    }
    return value;
  };
};

// -------------------------------------------------------------------------------------------------
// error mapping
// -------------------------------------------------------------------------------------------------

const valueAtPath = (root: unknown, instancePath: string): unknown => valueAt(root, pointerSegments(instancePath) ?? []);

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'a boolean (true or false)',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

const subject = (path: string): string => (path === '' ? 'the arguments' : `argument "${path}"`);

const listValues = (vs: ReadonlyArray<unknown>): string => {
  const shown = vs
    .slice(0, 12)
    .map((v) => JSON.stringify(v))
    .join(', ');
  return vs.length > 12 ? `${shown}, … (${vs.length} in all)` : shown;
};

/**
 * The properties the object at a schema path declares (the parent of its `additionalProperties`).
 * ajv writes the path as a URI fragment (`#/properties/my%20field/additionalProperties`).
 */
const declaredAt = (schema: JsonSchema | undefined, schemaPath: string): ReadonlyArray<string> => {
  const keys = refSegments(schemaPath);
  const node = keys === undefined || keys.length === 0 ? undefined : valueAt(schema, keys.slice(0, -1));
  const props = isRecord(node) ? node['properties'] : undefined;
  return isRecord(props) ? Object.keys(props) : [];
};

/** `is not allowed here (unknown property; did you mean `query`?)`. */
const unknownProperty = (name: string, declared: ReadonlyArray<string>): string => {
  const hint = didYouMean(name, declared);
  return `is not allowed here (unknown property${hint !== undefined ? `; ${hint}` : declared.length > 0 ? `; the arguments are ${declared.join(', ')}` : ''})`;
};

const mapError = (e: ErrorObject, root: unknown, schema?: JsonSchema): ValidationIssue | undefined => {
  const p = e.params as Record<string, unknown>;
  const here = displayPath(e.instancePath);
  const got = () => describeValue(valueAtPath(root, e.instancePath));
  switch (e.keyword) {
    case 'required': {
      const name = String(p['missingProperty']);
      const path = here === '' ? name : `${here}.${name}`;
      return { path, code: ArgCodes.REQUIRED, message: `${subject(path)} is required` };
    }
    case 'type': {
      const t = String(p['type']);
      const want = t
        .split(',')
        .map((x) => TYPE_WORDS[x] ?? x)
        .join(' or ');
      return { path: here, code: ArgCodes.TYPE, message: `${subject(here)} must be ${want}, got ${got()}` };
    }
    case 'enum':
      return {
        path: here,
        code: ArgCodes.ENUM,
        message: `${subject(here)} must be one of ${listValues((p['allowedValues'] as unknown[]) ?? [])}, got ${got()}`,
      };
    case 'const':
      return { path: here, code: ArgCodes.CONST, message: `${subject(here)} must be ${JSON.stringify(p['allowedValue'])}, got ${got()}` };
    case 'additionalProperties': {
      const name = String(p['additionalProperty']);
      const path = here === '' ? name : `${here}.${name}`;
      return { path, code: ArgCodes.UNKNOWN, message: `${subject(path)} ${unknownProperty(name, declaredAt(schema, e.schemaPath))}` };
    }
    case 'unevaluatedProperties': {
      const name = String(p['unevaluatedProperty']);
      const path = here === '' ? name : `${here}.${name}`;
      return { path, code: ArgCodes.UNKNOWN, message: `${subject(path)} is not allowed here (unknown property)` };
    }
    case 'format':
      return { path: here, code: ArgCodes.FORMAT, message: `${subject(here)} must be a valid ${String(p['format'])}, got ${got()}` };
    case 'pattern':
      return { path: here, code: ArgCodes.PATTERN, message: `${subject(here)} must match the pattern ${String(p['pattern'])}, got ${got()}` };
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum': {
      const words: Record<string, string> = {
        minimum: 'at least',
        maximum: 'at most',
        exclusiveMinimum: 'greater than',
        exclusiveMaximum: 'less than',
      };
      return { path: here, code: ArgCodes.RANGE, message: `${subject(here)} must be ${words[e.keyword]} ${String(p['limit'])}, got ${got()}` };
    }
    case 'multipleOf':
      return { path: here, code: ArgCodes.RANGE, message: `${subject(here)} must be a multiple of ${String(p['multipleOf'])}, got ${got()}` };
    case 'minLength':
    case 'maxLength': {
      const w = e.keyword === 'minLength' ? 'at least' : 'at most';
      return { path: here, code: ArgCodes.LENGTH, message: `${subject(here)} must have ${w} ${plural(Number(p['limit']), 'character')}, got ${got()}` };
    }
    case 'minItems':
    case 'maxItems': {
      const w = e.keyword === 'minItems' ? 'at least' : 'at most';
      return { path: here, code: ArgCodes.ITEMS, message: `${subject(here)} must have ${w} ${plural(Number(p['limit']), 'item')}, got ${got()}` };
    }
    case 'minProperties':
    case 'maxProperties': {
      const w = e.keyword === 'minProperties' ? 'at least' : 'at most';
      return { path: here, code: ArgCodes.ITEMS, message: `${subject(here)} must have ${w} ${plural(Number(p['limit']), 'property')}` };
    }
    case 'uniqueItems':
      return {
        path: here,
        code: ArgCodes.ITEMS,
        message: `${subject(here)} must not repeat items (items ${String(p['j'])} and ${String(p['i'])} are equal)`,
      };
    case 'anyOf':
    case 'oneOf':
      return { path: here, code: ArgCodes.NO_MATCH, message: `${subject(here)} matches none of the allowed forms, got ${got()}` };
    case 'if':
    case 'not':
    case 'false schema':
    default:
      return { path: here, code: ArgCodes.INVALID, message: `${subject(here)} ${e.message ?? 'is invalid'}` };
  }
};

/** The most issues reported for one value. */
export const MAX_ISSUES = 100;

/**
 * Maps ajv errors to issues (at most `MAX_ISSUES`, then one that counts the rest), most useful first: when a value failed `anyOf`/`oneOf`, the errors of
 * each branch are noise, so only the summary is kept for that path.
 */
const mapErrors = (errors: ReadonlyArray<ErrorObject>, root: unknown, schema?: JsonSchema): ReadonlyArray<ValidationIssue> => {
  const unionPaths = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf').map((e) => e.schemaPath.replace(/\/(anyOf|oneOf)$/, ''));
  const out: ValidationIssue[] = [];
  const seen = new Set<string>();
  for (const [index, e] of errors.entries()) {
    if (out.length === MAX_ISSUES) {
      // a value with thousands of problems (60,000 unknown names) gets a bounded answer, and costs a bounded amount of work
      out.push({ path: '', code: ArgCodes.INVALID, message: `and up to ${errors.length - index} more problems (only the first ${MAX_ISSUES} are listed)` });
      break;
    }
    if (
      e.keyword !== 'anyOf' &&
      e.keyword !== 'oneOf' &&
      unionPaths.some((u) => e.schemaPath.startsWith(`${u}/anyOf/`) || e.schemaPath.startsWith(`${u}/oneOf/`))
    )
      continue;
    const issue = mapError(e, root, schema);
    if (issue === undefined) continue;
    const key = `${issue.path}\u0000${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(issue);
  }
  return out;
};

/** One line per issue, for a model or a terminal. */
export const formatIssues = (issues: ReadonlyArray<ValidationIssue>): string => issues.map((i) => i.message).join('; ');

// -------------------------------------------------------------------------------------------------
// tool arguments
// -------------------------------------------------------------------------------------------------

// the schema validated last and its compiled form: an agent calls one tool many times in a row,
// and an identity check is cheaper than the WeakMap lookup of `compileSchema`
let lastSchema: JsonSchema | undefined;
let lastCompiled: CompiledSchema | undefined;

/**
 * Validates a tool's arguments against its schema (compiled on first use, cached). `Right`: the
 * arguments with the schema's defaults filled in, on a copy (the caller's value is never changed;
 * without defaults to fill, the value itself). `Left`: the issues, in words a model can act on.
 */
export const validateToolArgs = (schema: JsonSchema, args: unknown): Either<ReadonlyArray<ValidationIssue>, unknown> => {
  let c: CompiledSchema;
  if (schema === lastSchema && lastCompiled !== undefined) {
    c = lastCompiled;
  } else {
    const compiled = compileSchema(schema);
    if (isLeft(compiled)) return left([{ path: '', code: ArgCodes.INVALID, message: compiled.left.message }]);
    c = compiled.right;
    lastSchema = schema;
    lastCompiled = c;
  }
  if (!c.check(args)) return left(c.issues(args));
  return right(c.hasDefaults ? c.applyDefaults(args) : args);
};
