/**
 * Type ADT → JSON Schema (draft 2020-12). Deterministic: keys are written in a fixed order (`type`,
 * `title`, `description`, the structure, then the other keywords in the order of `keywords.ts`),
 * properties and `required` in field order, so the same type always gives the same bytes.
 */
import type { JsonObject, JsonValue } from '../core/json-schema.js';
import { setOwn } from '../core/json.js';
import { KEYWORDS } from '../types/keywords.js';
import type { Keywords, ObjectType, Type, TypeKind, TypeSignature } from '../types/types.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** The JSON Schemas of a signature: the arguments (`"type":"object"` at the root) and the result. */
export interface SignatureSchemas {
  readonly schema: JsonObject;
  readonly outputSchema: JsonObject;
}

const JSON_TYPE: Readonly<Record<TypeKind, string | undefined>> = {
  String: 'string',
  Integer: 'integer',
  Number: 'number',
  Boolean: 'boolean',
  Null: 'null',
  Any: undefined,
  Array: 'array',
  Tuple: 'array',
  Object: 'object',
  Union: undefined,
};

const TRAILING = KEYWORDS.filter((k) => k.name !== 'title' && k.name !== 'description').map((k) => k.name);

// -------------------------------------------------------------------------------------------------
// emitter
// -------------------------------------------------------------------------------------------------

/** The JSON Schema of a type. */
export const toJsonSchema = (t: Type): JsonObject => emit(t, false);

/** The JSON Schema of a signature's arguments (always with `properties`, even when empty). */
export const argumentsSchema = (s: TypeSignature): JsonObject => emit(s.args, true);

/** Both schemas of a signature. */
export const signatureSchemas = (s: TypeSignature): SignatureSchemas => ({
  schema: emit(s.args, true),
  outputSchema: emit(s.returns.type, false),
});

const isBarePrimitive = (t: Type): boolean =>
  (t.kind === 'String' || t.kind === 'Integer' || t.kind === 'Number' || t.kind === 'Boolean' || t.kind === 'Null') && Object.keys(t.meta).length === 0;

/** Whether a union is written as a `type` array (bare primitives of distinct kinds) rather than `anyOf`. */
export const unionAsTypeArray = (members: ReadonlyArray<Type>): boolean =>
  members.every(isBarePrimitive) && new Set(members.map((m) => m.kind)).size === members.length;

const emit = (t: Type, root: boolean): JsonObject => {
  const out: Record<string, JsonValue> = {};
  const jt = JSON_TYPE[t.kind];
  if (t.kind === 'Union' && unionAsTypeArray(t.members)) {
    out['type'] = t.members.map((m) => JSON_TYPE[m.kind] as string);
  } else if (jt !== undefined) {
    out['type'] = jt;
  }
  head(out, t.meta);
  switch (t.kind) {
    case 'Object':
      object(out, t, root);
      break;
    case 'Array':
      if (!(t.items.kind === 'Any' && Object.keys(t.items.meta).length === 0)) out['items'] = emit(t.items, false);
      break;
    case 'Tuple':
      out['prefixItems'] = t.items.map((i) => emit(i, false));
      out['minItems'] = t.items.length;
      out['maxItems'] = t.items.length;
      break;
    case 'Union':
      if (!unionAsTypeArray(t.members)) out['anyOf'] = t.members.map((m) => emit(m, false));
      break;
    default:
      break;
  }
  tail(out, t.meta);
  return out;
};

const head = (out: Record<string, JsonValue>, meta: Keywords): void => {
  if (meta.title !== undefined) out['title'] = meta.title;
  if (meta.description !== undefined) out['description'] = meta.description;
};

const tail = (out: Record<string, JsonValue>, meta: Keywords): void => {
  for (const k of TRAILING) {
    const v = meta[k];
    if (v !== undefined) out[k] = v as JsonValue;
  }
};

const object = (out: Record<string, JsonValue>, t: ObjectType, root: boolean): void => {
  if (t.fields.length > 0 || root) {
    const props: Record<string, JsonValue> = {};
    const required: string[] = [];
    for (const f of t.fields) {
      setOwn(props, f.name, emit(f.type, false));
      if (!f.optional) required.push(f.name);
    }
    out['properties'] = props;
    if (required.length > 0) out['required'] = required;
  }
  if (t.additional === false) out['additionalProperties'] = false;
  else if (t.additional !== undefined) out['additionalProperties'] = emit(t.additional, false);
};
