/**
 * The values a schema holds (`enum`, `const`, `default`, `examples`), checked by the importer
 * against the types they belong to: values that no value of the type can be are dropped with a
 * warning (a `const` that does not fit is an error: the schema accepts nothing), recursively.
 */
import { ImportCodes } from '../types/codes.js';
import { escapePointer } from '../core/json-pointer.js';
import type { JsonValue } from '../core/json-schema.js';
import { err, type ImportContext, warn } from './import-context.js';
import { repairEnum } from './import-repair.js';
import type { KeywordName, Keywords, Type } from '../types/types.js';
import { checkValue, explainProblems } from '../types/value-check.js';

// -------------------------------------------------------------------------------------------------
// values (enum, const, default, examples) checked against the types they belong to
// -------------------------------------------------------------------------------------------------

const withoutValues = (t: Type, keep: ReadonlyArray<KeywordName>): Type => {
  const m: Record<string, unknown> = { ...t.meta };
  for (const k of ['enum', 'const', 'default', 'examples'] as const) if (!keep.includes(k)) delete m[k];
  return { ...t, meta: m as Keywords } as Type;
};

/** Drops (with a warning) enum members, defaults and examples that no value of the type can be; recursively. */
export const sanitize = (t: Type, ptr: string, ctx: ImportContext): Type => {
  let out: Type = t;
  switch (t.kind) {
    case 'Array':
      out = { ...t, items: sanitize(t.items, `${ptr}/items`, ctx) };
      break;
    case 'Tuple':
      out = { ...t, items: t.items.map((i, n) => sanitize(i, `${ptr}/prefixItems/${n}`, ctx)) };
      break;
    case 'Union':
      out = { ...t, members: t.members.map((m, n) => sanitize(m, `${ptr}/anyOf/${n}`, ctx)) };
      break;
    case 'Object':
      out = {
        ...t,
        fields: t.fields.map((f) => ({ ...f, type: sanitize(f.type, `${ptr}/properties/${escapePointer(f.name)}`, ctx) })),
        ...(t.additional !== undefined && t.additional !== false ? { additional: sanitize(t.additional, `${ptr}/additionalProperties`, ctx) } : {}),
      };
      break;
    default:
      break;
  }
  if (ctx.repair && Array.isArray(out.meta.enum)) out = repairEnum(out, out.meta.enum, ptr, ctx);
  const m: Record<string, unknown> = { ...out.meta };
  let changed = false;
  if (Array.isArray(m['enum'])) {
    const base = withoutValues(out, ['const']);
    const list = m['enum'] as JsonValue[];
    const keep = list.filter((v) => checkValue(base, v).length === 0);
    if (keep.length !== list.length) {
      const dropped = list.filter((v) => !keep.includes(v));
      warn(
        ctx,
        ImportCodes.VALUE_DROPPED,
        `${ptr}/enum`,
        `enum value${dropped.length === 1 ? '' : 's'} ${dropped.map((d) => JSON.stringify(d)).join(', ')} can never validate against the type and ${dropped.length === 1 ? 'was' : 'were'} dropped`,
      );
      m['enum'] = keep;
      changed = true;
      if (keep.length === 0) err(ctx, ImportCodes.UNSATISFIABLE, `${ptr}/enum`, 'no value of `enum` fits the type, so the schema accepts nothing');
    }
  }
  if (m['const'] !== undefined) {
    const problems = checkValue(withoutValues(out, []), m['const']);
    if (problems.length > 0)
      err(ctx, ImportCodes.UNSATISFIABLE, `${ptr}/const`, `\`const\` does not fit the type (${explainProblems(problems)}), so the schema accepts nothing`);
  }
  const full = changed ? ({ ...out, meta: m } as Type) : out;
  if (m['default'] !== undefined) {
    const problems = checkValue(withoutValues(full, ['enum', 'const']), m['default']);
    if (problems.length > 0) {
      warn(
        ctx,
        ImportCodes.DEFAULT_DROPPED,
        `${ptr}/default`,
        `default ${JSON.stringify(m['default'])} does not validate against its own schema (${explainProblems(problems)}) and was dropped`,
        'gram defaults must be valid values (gramkit fills them in before calling the tool)',
      );
      delete m['default'];
      changed = true;
    }
  }
  if (Array.isArray(m['examples'])) {
    const base = withoutValues(full, ['enum', 'const']);
    const list = m['examples'] as JsonValue[];
    const keep = list.filter((v) => checkValue(base, v).length === 0);
    if (keep.length !== list.length) {
      warn(ctx, ImportCodes.VALUE_DROPPED, `${ptr}/examples`, `${list.length - keep.length} example(s) that do not validate against the schema were dropped`);
      if (keep.length === 0) delete m['examples'];
      else m['examples'] = keep;
      changed = true;
    }
  }
  return changed ? ({ ...out, meta: m } as Type) : out;
};
