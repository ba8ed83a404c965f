/**
 * `json_parse` (the default nucleus's `tool_json_parse`): parses JSON given as text or read from a
 * workspace file, optionally selects parts of it with a JSONPath query (jsonpath-plus, with its
 * safe evaluator for filters), and returns the value and its pretty-printed text. Invalid JSON
 * fails with `INVALID_JSON` and the line and column of the first error.
 */
import { ToolCodes } from '../../library/codes.js';
import { BuiltinCodes } from './codes.js';
import type * as JsonpathPlus from 'jsonpath-plus';
import type { InvocationContext } from '../../library/tool.js';
import { ToolFailure } from '../../library/result.js';
import { argsRecord, stringArg, type BuiltinFactory } from './builtin.js';
import { locateJsonError } from './json-locate.js';
import { readFile } from './read-file.js';
import { lazyModule } from '../../core/lazy-module.js';

/** jsonpath-plus, loaded on the first JSONPath (a program that uses none never parses it). */
const jsonpath = lazyModule<typeof JsonpathPlus>('jsonpath-plus');

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface JsonParseResult {
  /** The parsed value, or with `query` the array of every match. */
  readonly value: unknown;
  /** The same value as indented JSON text. */
  readonly pretty: string;
}

// -------------------------------------------------------------------------------------------------
// tool
// -------------------------------------------------------------------------------------------------

export const jsonParse: BuiltinFactory = (options) => {
  const reader = readFile({ ...options, limits: { ...options.limits, readMaxBytes: options.limits.jsonMaxBytes } });
  return {
    name: 'json_parse',
    annotations: { permissions: ['fs:read'], safetyLevel: 'low', approval: 'auto' },
    implementation: async (args: unknown, ctx: InvocationContext): Promise<JsonParseResult> => {
      const a = argsRecord(args);
      const text = stringArg(a, 'text');
      const path = stringArg(a, 'path');
      const query = stringArg(a, 'query');
      if ((text === undefined) === (path === undefined)) {
        throw new ToolFailure(ToolCodes.INVALID_ARGUMENTS, 'give exactly one of "text" (JSON text) and "path" (a JSON file in the workspace)');
      }
      let source: string;
      if (text !== undefined) {
        if (text.length > options.limits.jsonMaxBytes) {
          throw new ToolFailure(BuiltinCodes.TOO_LARGE, `the text is longer than the ${options.limits.jsonMaxBytes}-byte limit of json_parse`);
        }
        source = text;
      } else source = ((await reader.implementation({ path, encoding: 'utf-8' }, ctx)) as { content: string }).content;
      const value = parseJson(source, path);
      const result = query === undefined ? value : select(value, query);
      // pretty-printing indents every level: deep nesting (or a query like $..*) grows quadratically
      const size = prettySizeWithin(result, options.limits.jsonMaxOutputBytes);
      if (size === undefined) {
        throw new ToolFailure(
          BuiltinCodes.TOO_LARGE,
          `the result would be more than the ${options.limits.jsonMaxOutputBytes}-byte output limit of json_parse once pretty-printed; select a part of it with a narrower query`,
          { details: { limit: options.limits.jsonMaxOutputBytes } },
        );
      }
      return { value: result, pretty: JSON.stringify(result, null, 2) };
    },
  };
};

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

/** Parses JSON (a leading byte-order mark is allowed); `INVALID_JSON` with a location otherwise. */
export const parseJson = (source: string, file?: string): unknown => {
  const text = source.startsWith('\uFEFF') ? source.slice(1) : source;
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    const where = locateJsonError(text);
    const name = file !== undefined ? JSON.stringify(file) : 'the text';
    if (where === undefined) throw new ToolFailure(BuiltinCodes.INVALID_JSON, `${name} is not valid JSON: ${(e as Error).message}`);
    throw new ToolFailure(BuiltinCodes.INVALID_JSON, `${name} is not valid JSON: line ${where.line}, column ${where.column}: ${where.problem}`, {
      details: { line: where.line, column: where.column, offset: where.offset },
    });
  }
};

/**
 * The length of `JSON.stringify(value, null, 2)` (of a JSON value), or undefined as
 * soon as it passes `limit`: the walk stops there, so its cost is bounded by the limit too.
 */
export const prettySizeWithin = (value: unknown, limit: number): number | undefined => {
  let total = 0;
  // two stacks side by side (a value, its depth): no object or entry list made per node
  const values: unknown[] = [value];
  const depths: number[] = [0];
  while (values.length > 0) {
    const v = values.pop();
    const depth = depths.pop() as number;
    if (v === null || typeof v !== 'object') total += v === undefined ? 4 : (JSON.stringify(v) ?? 'null').length;
    else if (Array.isArray(v)) {
      // brackets, and per item a newline, its indentation and a comma
      total += 2 + (v.length > 0 ? 2 * depth : 0);
      for (const x of v) {
        total += 2 + 2 * (depth + 1);
        values.push(x);
        depths.push(depth + 1);
        if (total > limit) return undefined;
      }
    } else {
      // braces, and per member a newline, its indentation, a comma, its key, a colon and a space
      const o = v as Record<string, unknown>;
      const keys = Object.keys(o);
      total += 2 + (keys.length > 0 ? 2 * depth : 0);
      for (const k of keys) {
        total += 2 + 2 * (depth + 1) + JSON.stringify(k).length + 2;
        values.push(o[k]);
        depths.push(depth + 1);
        if (total > limit) return undefined;
      }
    }
    if (total > limit) return undefined;
  }
  return total;
};

const select = (value: unknown, query: string): unknown[] => {
  try {
    const out = jsonpath().JSONPath({ path: query, json: value as object, wrap: true, eval: 'safe' }) as unknown;
    return Array.isArray(out) ? out : [];
  } catch (e) {
    throw new ToolFailure(ToolCodes.INVALID_ARGUMENTS, `the JSONPath query ${JSON.stringify(query)} is invalid: ${(e as Error).message}`);
  }
};
