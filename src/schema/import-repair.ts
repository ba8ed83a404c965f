/**
 * `gramkit import --repair`: schemas whose intent is clear but whose letter accepts nothing, read
 * as their authors meant them. Each repair is an `SPEC_IMPORT_REPAIRED` warning with the JSON
 * Pointer of the place; without `--repair` the same schemas are `SPEC_IMPORT_UNSATISFIABLE`.
 *
 * - an `enum` none of whose members is an array, on an array: the enum of its items;
 * - an `enum` of strings on an integer or a number: those numbers when every string is a numeral,
 *   else a string among them (the type becomes string, its documentation kept);
 * - an `enum` of strings on a boolean (`"True"`, `"False"`, `"dontcare"`, as in BFCL's live
 *   sets): a string among them (a boolean default becomes the member that spells it).
 */
import { ImportCodes } from '../types/codes.js';
import type { JsonValue } from '../core/json-schema.js';
import { type ImportContext, warn } from './import-context.js';
import { type Keywords, stringType, type Type } from '../types/types.js';
import { checkValue } from '../types/value-check.js';

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

const DOC_KEYWORDS = ['title', 'description', 'deprecated'] as const;

/** The documentation keywords of a type (what survives a change of type). */
const docsOf = (t: Type): Keywords => {
  const out: Record<string, unknown> = {};
  for (const k of DOC_KEYWORDS) if (t.meta[k] !== undefined) out[k] = t.meta[k];
  return out as Keywords;
};

/** `t` without the keywords that hold values (`enum`, `const`, `default`, `examples`). */
const bare = (t: Type): Type => {
  const m: Record<string, unknown> = { ...t.meta };
  for (const k of ['enum', 'const', 'default', 'examples']) delete m[k];
  return { ...t, meta: m as Keywords } as Type;
};

const NUMERAL = /^\s*-?\d+(\.\d+)?\s*$/;

// -------------------------------------------------------------------------------------------------
// the repair
// -------------------------------------------------------------------------------------------------

/** The type its author meant, when no member of `list` fits `t` and the intent is clear; else `t`. */
export const repairEnum = (t: Type, list: ReadonlyArray<JsonValue>, ptr: string, ctx: ImportContext): Type => {
  const base = bare(t);
  if (list.length === 0 || list.some((v) => checkValue(base, v).length === 0)) return t;
  const shown =
    list.length > 4
      ? `${list
          .slice(0, 4)
          .map((v) => JSON.stringify(v))
          .join(', ')}, …`
      : list.map((v) => JSON.stringify(v)).join(', ');
  if (t.kind === 'Array') {
    // the members are items: the enum is the items'
    const items = t.items.kind === 'Any' && Object.keys(t.items.meta).length === 0 && list.every((v) => typeof v === 'string') ? stringType() : t.items;
    const itemBase = bare(items);
    if (!list.every((v) => checkValue(itemBase, v).length === 0)) return t;
    const { enum: _enum, ...meta } = t.meta;
    warn(ctx, ImportCodes.REPAIRED, `${ptr}/enum`, `an \`enum\` of ${shown} on an array means its items: moved to ${ptr}/items/enum`);
    return { ...t, meta: meta as Keywords, items: { ...items, meta: { ...items.meta, enum: [...list] } } as Type };
  }
  if ((t.kind === 'Integer' || t.kind === 'Number') && list.every((v) => typeof v === 'string')) {
    const what = t.kind === 'Integer' ? 'an integer' : 'a number';
    const numbers = list.map((v) => (NUMERAL.test(v as string) ? Number(v) : undefined));
    if (numbers.every((n): n is number => n !== undefined && checkValue(base, n).length === 0)) {
      warn(ctx, ImportCodes.REPAIRED, `${ptr}/enum`, `an \`enum\` of the strings ${shown} on ${what} means those numbers: written as numbers`);
      return { ...t, meta: { ...t.meta, enum: numbers } } as Type;
    }
    const def = t.meta.default;
    warn(ctx, ImportCodes.REPAIRED, `${ptr}/type`, `an \`enum\` of the strings ${shown} on ${what} means a string among them: the type is now string`);
    return stringType({ ...docsOf(t), enum: [...list], ...(typeof def === 'string' && list.includes(def) ? { default: def } : {}) } as Keywords);
  }
  if (t.kind === 'Boolean' && list.every((v) => typeof v === 'string')) {
    // BFCL's live sets: `"enum": ["True", "False", "dontcare"]` on a boolean
    const def = t.meta.default;
    const shownDefault =
      typeof def === 'boolean'
        ? list.find((v) => (v as string).toLowerCase() === String(def))
        : typeof def === 'string' && list.includes(def)
          ? def
          : undefined;
    warn(ctx, ImportCodes.REPAIRED, `${ptr}/type`, `an \`enum\` of the strings ${shown} on a boolean means a string among them: the type is now string`);
    return stringType({ ...docsOf(t), enum: [...list], ...(shownDefault !== undefined ? { default: shownDefault } : {}) } as Keywords);
  }
  return t;
};
