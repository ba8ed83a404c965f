/**
 * Whether the tool calls a model asked for match an input's `expectedToolCalls`, given in the form
 * of the Berkeley Function Calling Leaderboard's possible answers: a list of calls
 * `{"<tool>": {"<param>": [allowed values…]}}`, where `""` in a list means the parameter may be
 * left out. The semantics are those of BFCL's AST checker (Python), so that a number from gramkit
 * and one from BFCL agree:
 *
 * - the number of calls must equal the number of expected calls; expected calls are taken in
 *   order, each matched to the first call not matched yet that satisfies it (calls in any order);
 * - a call satisfies an expected call when: its tool is the expected one (a `.` in the expected
 *   name may be written `_`, as providers that refuse dots do); every parameter the tool's schema
 *   requires is present; every parameter present is in the schema and in the expected call
 *   (else "unexpected parameter"); each value has the schema's type (an integer is accepted for a
 *   number; a value of the type the expected values have is accepted as a "variable" and compared
 *   as is); and every expected parameter without `""` among its values is present;
 * - strings compare after standardizing: spaces and `,./-_*^` removed, lower case, `'` as `"`;
 *   strings in lists and in objects too; objects key by key (no unexpected key, no missing key
 *   unless `""` allows it), lists of objects object by object in order; anything else by Python's
 *   equality (`true == 1`, `1 == 1.0`).
 *
 * One difference is JSON's: JSON does not tell `5` from `5.0`, so an integral number is an integer.
 */
import { isJsonObject } from '../core/json.js';
import type { JsonObject } from '../core/json-schema.js';
import { BFCL_TYPES, isBfclType } from '../schema/bfcl.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** One expected call: `{"<tool>": {"<param>": [allowed values…]}}`. */
export type ExpectedToolCall = Readonly<Record<string, Readonly<Record<string, ReadonlyArray<unknown>>>>>;

/** A call the model asked for. `arguments` is what it sent (an object, or its text when not JSON). */
export interface AskedToolCall {
  readonly name: string;
  readonly arguments: unknown;
}

/** Why calls do not match, in BFCL's words (`kind` is BFCL's error type). */
export type ToolCallMatch = { readonly match: true } | { readonly match: false; readonly kind: string; readonly reason: string };

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

type PyType = 'str' | 'int' | 'float' | 'bool' | 'list' | 'dict' | 'NoneType';

const SCHEMA_TYPES: Readonly<Record<string, PyType>> = { string: 'str', integer: 'int', number: 'float', boolean: 'bool', array: 'list', object: 'dict' };

/** The Python type BFCL expects for a JSON Schema, or a schema in BFCL's dialect (`any`, or no type, is a string as in BFCL). */
const schemaType = (schema: unknown): PyType => {
  if (!isJsonObject(schema)) return 'str';
  const t = schema['type'];
  const name = Array.isArray(t) ? t.find((x) => x !== 'null') : t;
  if (typeof name !== 'string') return 'str';
  const json = isBfclType(name) ? BFCL_TYPES[name] : name;
  return json === undefined ? 'str' : (SCHEMA_TYPES[json] ?? 'str');
};

const pyType = (v: unknown): PyType => {
  if (typeof v === 'string') return 'str';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  if (Array.isArray(v)) return 'list';
  if (v === null || v === undefined) return 'NoneType';
  return 'dict';
};

const numeric = (v: unknown): number | undefined => (typeof v === 'number' ? v : typeof v === 'boolean' ? Number(v) : undefined);

/** Python's `==` on JSON values (`True == 1`, `1 == 1.0`, lists and dicts deeply). */
export const pyEquals = (a: unknown, b: unknown): boolean => {
  const na = numeric(a);
  const nb = numeric(b);
  if (na !== undefined || nb !== undefined) return na !== undefined && nb !== undefined && na === nb;
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => pyEquals(x, b[i]));
  if (a === null || b === null || a === undefined || b === undefined) return a === b || (a == null && b == null);
  if (isJsonObject(a) && isJsonObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && pyEquals(a[k], b[k]));
  }
  return false;
};

const pyIn = (v: unknown, list: ReadonlyArray<unknown>): boolean => list.some((x) => pyEquals(v, x));

/** BFCL's string standardization: no spaces or `,./-_*^`, lower case, `'` as `"`. */
export const standardizeString = (s: string): string =>
  s
    .replace(/[ ,./\-_*^]/g, '')
    .toLowerCase()
    .replace(/'/g, '"');

const std = (v: unknown): unknown => (typeof v === 'string' ? standardizeString(v) : v);

const show = (v: unknown): string => JSON.stringify(v) ?? String(v);

type Check = ToolCallMatch;
const OK: Check = { match: true };
const fail = (kind: string, reason: string): Check => ({ match: false, kind, reason });

/** The type of the first expected value that is not `""` (BFCL's "possible answer type"). */
const answerType = (values: ReadonlyArray<unknown>): PyType | undefined => {
  for (const v of values) if (v !== '') return v === undefined ? undefined : pyType(v);
  return undefined;
};

type TypeChecked = { readonly ok: boolean; readonly variable: boolean; readonly reason?: string };
/** The two passing verdicts of `typeCheck`, shared (most values pass: a run allocates none). */
const A_VALUE: TypeChecked = { ok: true, variable: false };
const A_VARIABLE: TypeChecked = { ok: true, variable: true };

/** BFCL's type check: Right when the value has the type (or is a "variable"), with whether it is a variable. */
const typeCheck = (param: string, value: unknown, values: ReadonlyArray<unknown>, expected: PyType, nested: PyType | undefined): TypeChecked => {
  const possible = answerType(values);
  const variable = possible !== undefined && possible !== expected;
  // Python converts an int to a float where a float is expected
  const valueType = expected === 'float' && pyType(value) === 'int' ? 'float' : pyType(value);
  if (valueType === expected) {
    if (nested === undefined) return variable ? A_VARIABLE : A_VALUE;
    const itemsFit = values.some(
      (answer) => !Array.isArray(answer) || (value as ReadonlyArray<unknown>).every((item) => typeCheck(param, item, answer, nested, undefined).ok),
    );
    if (itemsFit) return variable ? A_VARIABLE : A_VALUE;
  }
  if (possible !== undefined && valueType === possible) return A_VARIABLE;
  return {
    ok: false,
    variable: false,
    reason: `Incorrect type for parameter "${param}". Expected type ${expected}${nested !== undefined ? ` of ${nested}` : ''}, got ${valueType}. Parameter value: ${show(value)}.`,
  };
};

const dictCheck = (param: string, value: unknown, answers: ReadonlyArray<unknown>): Check => {
  let result: Check = fail('dict_checker:unclear', `Invalid value for parameter "${param}": ${show(value)}.`);
  if (!isJsonObject(value)) return result;
  for (const answer of answers) {
    if (answer === '' || !isJsonObject(answer)) continue;
    result = OK;
    for (const [key, v] of Object.entries(value)) {
      const allowed = answer[key];
      if (!Array.isArray(allowed)) {
        result = fail('value_error:dict_key', `Unexpected dict key parameter: "${key}".`);
        break;
      }
      if (!pyIn(std(v), allowed.map(std))) {
        result = fail('value_error:dict_value', `Invalid value for parameter "${key}": ${show(v)}. Expected one of ${show(allowed)}.`);
        break;
      }
    }
    if (result.match) {
      for (const [key, allowed] of Object.entries(answer)) {
        if (!(key in value) && !(Array.isArray(allowed) && allowed.includes(''))) {
          result = fail('value_error:dict_key', `Missing dict key parameter: "${key}".`);
          break;
        }
      }
    }
    if (result.match) return OK;
  }
  return result;
};

const listDictCheck = (param: string, value: ReadonlyArray<unknown>, answers: ReadonlyArray<unknown>): Check => {
  let result: Check = fail('list_dict_checker:unclear', `Invalid value for parameter "${param}": ${show(value)}.`);
  for (const answer of answers) {
    const list = Array.isArray(answer) ? answer : [];
    if (value.length !== list.length) {
      result = fail('value_error:list_dict_count', 'Wrong number of dictionaries in the list.');
      continue;
    }
    let all = true;
    for (const [i, item] of value.entries()) {
      result = dictCheck(param, item, [list[i]]);
      if (!result.match) {
        all = false;
        break;
      }
    }
    if (all) return OK;
  }
  return result;
};

const listCheck = (param: string, value: ReadonlyArray<unknown>, answers: ReadonlyArray<unknown>): Check => {
  const mine = value.map(std);
  // a `""` among a list's answers iterates as no element in Python: it allows the empty list
  const allowed = answers.map((a) => (Array.isArray(a) ? a.map(std) : []));
  return allowed.some((a) => pyEquals(mine, a))
    ? OK
    : fail('value_error:list/tuple', `Invalid value for parameter "${param}": ${show(value)}. Expected one of ${show(answers)}.`);
};

const sameTool = (asked: string, expected: string): boolean => asked === expected || asked === expected.replace(/\./g, '_');

/** BFCL's `simple_function_checker`: one call against one expected call, with the tool's JSON Schema. */
const checkCall = (
  schema: JsonObject | undefined,
  call: AskedToolCall,
  expectedName: string,
  expected: Readonly<Record<string, ReadonlyArray<unknown>>>,
): Check => {
  if (!sameTool(call.name, expectedName))
    return fail('simple_function_checker:wrong_func_name', `Function name "${expectedName}" not found in model output (it called "${call.name}").`);
  if (!isJsonObject(call.arguments))
    return fail('simple_function_checker:unclear', `The arguments of "${call.name}" are not a JSON object: ${show(call.arguments)}.`);
  const args = call.arguments;
  const properties = isJsonObject(schema?.['properties']) ? (schema?.['properties'] as JsonObject) : {};
  const required = Array.isArray(schema?.['required']) ? (schema?.['required'] as ReadonlyArray<unknown>) : [];
  for (const p of required)
    if (typeof p === 'string' && !(p in args)) return fail('simple_function_checker:missing_required', `Missing required parameter: "${p}".`);
  for (const param in args) {
    if (!Object.hasOwn(args, param)) continue;
    const raw = args[param];
    const values = expected[param];
    if (!(param in properties) || !Array.isArray(values)) return fail('simple_function_checker:unexpected_param', `Unexpected parameter: "${param}".`);
    const prop = properties[param];
    const type = schemaType(prop);
    const nested = type === 'list' && isJsonObject(prop) && isJsonObject(prop['items']) ? schemaType(prop['items']) : undefined;
    const typed = typeCheck(param, raw, values, type, nested);
    if (!typed.ok) return fail('type_error:simple', typed.reason ?? `Incorrect type for parameter "${param}".`);
    if (!typed.variable) {
      if (type === 'dict') {
        const r = dictCheck(param, raw, values);
        if (!r.match) return r;
        continue;
      }
      if (type === 'list' && nested === 'dict') {
        const r = listDictCheck(param, raw as ReadonlyArray<unknown>, values);
        if (!r.match) return r;
        continue;
      }
      if (type === 'str') {
        // a value given exactly as one of the answers matches without standardizing either
        if (
          !values.includes(raw) &&
          !values
            .filter((v) => typeof v === 'string')
            .map((v) => standardizeString(v as string))
            .includes(standardizeString(raw as string))
        ) {
          return fail('value_error:string', `Invalid value for parameter "${param}": ${show(raw)}. Expected one of ${show(values)}. Case insensitive.`);
        }
        continue;
      }
      if (type === 'list') {
        const r = listCheck(param, raw as ReadonlyArray<unknown>, values);
        if (!r.match) return r;
        continue;
      }
    }
    if (!pyIn(raw, values)) return fail('value_error:others', `Invalid value for parameter "${param}": ${show(raw)}. Expected one of ${show(values)}.`);
  }
  for (const param in expected) {
    if (!Object.hasOwn(expected, param)) continue;
    if (!(param in args) && !(expected[param] as ReadonlyArray<unknown>).includes(''))
      return fail('simple_function_checker:missing_optional', `Optional parameter "${param}" not provided and not marked as optional.`);
  }
  return OK;
};

// -------------------------------------------------------------------------------------------------
// the check
// -------------------------------------------------------------------------------------------------

/**
 * Whether `calls` match `expected` (BFCL's AST checker, calls in any order). `schemaOf` gives the
 * JSON Schema of a tool's arguments by name (the types and required parameters are the tool's).
 */
export const matchToolCalls = (
  expected: ReadonlyArray<ExpectedToolCall>,
  calls: ReadonlyArray<AskedToolCall>,
  schemaOf: (tool: string) => JsonObject | undefined,
): ToolCallMatch => {
  if (calls.length !== expected.length)
    return fail('wrong_count', `Wrong number of functions: ${calls.length} call${calls.length === 1 ? '' : 's'}, ${expected.length} expected.`);
  const matched: boolean[] = [];
  for (let i = 0; i < expected.length; i++) {
    const answer = expected[i] as ExpectedToolCall;
    // the call's one key, the tool's name
    let name = '';
    for (const k in answer)
      if (Object.hasOwn(answer, k)) {
        name = k;
        break;
      }
    const params = answer[name] ?? {};
    const schema = schemaOf(name);
    let last: Check | undefined;
    let found = false;
    for (let j = 0; j < calls.length; j++) {
      if (matched[j] === true) continue;
      last = checkCall(schema, calls[j] as AskedToolCall, name, params);
      if (last.match) {
        matched[j] = true;
        found = true;
        break;
      }
    }
    if (!found) {
      if (last === undefined || last.match) return fail('cannot_find_match', `No call matches expected call ${i + 1} ("${name}").`);
      return calls.length === 1 ? last : fail(last.kind, `expected call ${i + 1} ("${name}"): ${last.reason}`);
    }
  }
  return OK;
};

/** The problem with an `expectedToolCalls` value, if it is not a list of `{"<tool>": {"<param>": [values…]}}`. */
export const checkExpectedToolCalls = (v: unknown): string | undefined => {
  const shape = '"expectedToolCalls" must be a list of calls {"<tool>": {"<param>": [allowed values…]}}';
  if (!Array.isArray(v)) return shape;
  for (const [i, c] of v.entries()) {
    if (!isJsonObject(c) || Object.keys(c).length !== 1) return `${shape} (call ${i + 1} is not an object with one key, the tool's name)`;
    const params = Object.values(c)[0];
    if (!isJsonObject(params)) return `${shape} (call ${i + 1}: the parameters are not an object)`;
    for (const [p, values] of Object.entries(params)) if (!Array.isArray(values)) return `${shape} (call ${i + 1}: "${p}" is not a list of allowed values)`;
  }
  return undefined;
};
