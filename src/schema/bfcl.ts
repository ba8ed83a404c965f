/**
 * BFCL's dialect of JSON Schema (the Berkeley Function-Calling Leaderboard's tool definitions), as
 * the importer reads it with `dialect: "bfcl"`: its type names (`dict`, `float`, `tuple`, `any`,
 * ...) and `optional` (a list of property names on an object, or `true` on a property), which
 * `required` overrules, as validators read only `required`.
 */
import { ImportCodes } from '../types/codes.js';
import { escapePointer } from '../core/json-pointer.js';
import { isJsonObject } from '../core/json.js';
import type { JsonObject } from '../core/json-schema.js';
import { type ImportContext, warn } from './import-context.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** BFCL's type names (its converter's table), with the JSON Schema type each stands for. */
export const BFCL_TYPES: Readonly<Record<string, string | undefined>> = {
  dict: 'object',
  float: 'number',
  tuple: 'array',
  any: undefined,
  list: 'array',
  bool: 'boolean',
  int: 'integer',
  str: 'string',
  double: 'number',
  long: 'integer',
  short: 'integer',
  byte: 'integer',
  char: 'string',
};

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

/** Whether `name` is one of BFCL's type names. */
export const isBfclType = (name: string): boolean => Object.prototype.hasOwnProperty.call(BFCL_TYPES, name);

/** BFCL's `optional: true` (also written `"True"` or `"true"`). */
export const isTruthyOptional = (v: unknown): boolean => v === true || v === 'True' || v === 'true';

/** Whether an object schema without `type` is an object by BFCL's `optional` list. */
export const hasOptionalList = (s: JsonObject): boolean => Array.isArray(s['optional']);

/** A property's `optional` that contradicts `required` is reported; `required` decides. */
export const checkPropertyOptional = (ctx: ImportContext, sub: unknown, ptr: string, name: string, optional: boolean): void => {
  if (!isJsonObject(sub) || sub['optional'] === undefined) return;
  if (isTruthyOptional(sub['optional']) === !optional) {
    warn(
      ctx,
      ImportCodes.BFCL_OPTIONAL,
      `${ptr}/properties/${escapePointer(name)}/optional`,
      `BFCL \`optional: ${JSON.stringify(sub['optional'])}\` contradicts \`required\`; \`required\` decides (it is what validators read)`,
    );
  }
};

/** An object's `optional` list: names also in `required` are reported (`required` decides); anything but a list or a boolean is dropped. */
export const checkObjectOptional = (ctx: ImportContext, s: JsonObject, ptr: string, required: ReadonlySet<string>): void => {
  const list = s['optional'];
  if (list === undefined) return;
  if (Array.isArray(list)) {
    const conflict = list.filter((n) => typeof n === 'string' && required.has(n));
    if (conflict.length > 0) {
      warn(
        ctx,
        ImportCodes.BFCL_OPTIONAL,
        `${ptr}/optional`,
        `BFCL \`optional\` lists ${conflict.map((c) => `"${String(c)}"`).join(', ')}, also in \`required\`; \`required\` decides`,
      );
    }
  } else if (typeof list !== 'boolean' && typeof list !== 'string') {
    warn(ctx, ImportCodes.KEYWORD_DROPPED, `${ptr}/optional`, 'BFCL `optional` must be a list of property names or a boolean; dropped');
  }
};
