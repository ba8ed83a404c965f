/**
 * Type ADT → gram signature text: the gram printer. Whatever it prints, `parseTypeSignature` reads
 * back to the same signature (a property test holds it to that).
 *
 * A type is written as a label when its kind says everything (`(age::Integer)`), as a type
 * expression in `type` when nothing below its top level carries keywords
 * (`(tags::Array {type: "[String]"})`), and else in the structured form, with
 * `fields`, `elementType`, `elementTypes`, `anyOf` and `additionalProperties` holding type maps
 * (`{name: "city", type: "String", description: "..."}`). The type's own keywords always go into the
 * node's record.
 */
import { isSymbol, quote } from '../gram/strings.js';
import { jsonToGram, keyText, isPlainSymbol } from './gram-values.js';
import { orderedKeywords } from './keywords.js';
import { isExpressible, isSimpleName, kindLabel, printTypeExpression } from './type-expr.js';
import type { Field, Type, TypeSignature } from './types.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export type NameStyle = 'identifier' | 'paramName';

export interface SignaturePrintOptions {
  /**
   * How parameter names are written: `(name::T)` or `(::T {paramName: "name"})`. By default the
   * identifier form when the name is a gram symbol (`paramName` otherwise: `"first name"`,
   * `"x-id"`). A function decides per name.
   */
  readonly names?: NameStyle | ((name: string) => NameStyle);
  /** `inline` (default): one line. Or one node per line, continuation lines starting with `indent`. */
  readonly layout?: 'inline' | { readonly indent: string };
}

/** The label of the leading node that carries the keywords of the arguments object. */
export const ARGUMENTS_LABEL = 'Arguments';

type Entry = readonly [string, string];

// -------------------------------------------------------------------------------------------------
// printer
// -------------------------------------------------------------------------------------------------

const record = (entries: ReadonlyArray<Entry>): string => (entries.length === 0 ? '' : `{${entries.map(([k, v]) => `${keyText(k)}: ${v}`).join(', ')}}`);

const keywordEntries = (t: Type): Entry[] => orderedKeywords(t.meta).map(([k, v]) => [k, jsonToGram(v, false)] as const);

/** The entries that describe a type's structure (beyond its label or `type`), for the structured form. */
const structureEntries = (t: Type): Entry[] => {
  switch (t.kind) {
    case 'Object': {
      const out: Entry[] = [];
      if (t.fields.length > 0) out.push(['fields', `[${t.fields.map(fieldMap).join(', ')}]`]);
      if (t.additional === false) out.push(['additionalProperties', 'false']);
      else if (t.additional !== undefined) out.push(['additionalProperties', typeValue(t.additional)]);
      return out;
    }
    case 'Array':
      return [['elementType', typeValue(t.items)]];
    case 'Tuple':
      return [['elementTypes', `[${t.items.map(typeValue).join(', ')}]`]];
    case 'Union':
      return [['anyOf', `[${t.members.map(typeValue).join(', ')}]`]];
    default:
      return [];
  }
};

/** How a type is written in a node: its label and the record entries that complete it. */
const typeParts = (t: Type): { readonly label: string; readonly entries: Entry[] } => {
  if (isExpressible(t)) {
    if (isSimpleName(t)) return { label: t.kind, entries: keywordEntries(t) };
    return { label: kindLabel(t), entries: [['type', quote(printTypeExpression(t), '"')], ...keywordEntries(t)] };
  }
  return { label: kindLabel(t), entries: [...structureEntries(t), ...keywordEntries(t)] };
};

/** A type inside a record: a type-expression string when it has no keywords, else a type map. */
const typeValue = (t: Type): string => {
  if (isExpressible(t) && Object.keys(t.meta).length === 0) return quote(printTypeExpression(t), '"');
  return typeMap(t, []);
};

const typeMap = (t: Type, before: ReadonlyArray<Entry>, after: ReadonlyArray<Entry> = []): string => {
  const parts = typeParts(t);
  const typeEntry: Entry[] = parts.entries.some(([k]) => k === 'type') ? [] : [['type', quote(parts.label, '"')]];
  return record([...before, ...typeEntry, ...parts.entries, ...after]);
};

const optionalEntries = (optional: boolean, t: Type): Entry[] => {
  const hasDefault = t.meta.default !== undefined;
  if (optional && !hasDefault) return [['optional', 'true']];
  if (!optional && hasDefault) return [['optional', 'false']];
  return [];
};

const fieldMap = (f: Field): string => typeMap(f.type, [['name', quote(f.name, '"')]], optionalEntries(f.optional, f.type));

const node = (identifier: string | undefined, t: Type, leading: ReadonlyArray<Entry>, trailing: ReadonlyArray<Entry>): string => {
  const parts = typeParts(t);
  const rec = record([...leading, ...parts.entries, ...trailing]);
  return `(${identifier ?? ''}::${parts.label}${rec === '' ? '' : ` ${rec}`})`;
};

const styleOf = (options: SignaturePrintOptions, name: string): NameStyle => {
  const s = options.names;
  const wanted = s === undefined ? 'identifier' : typeof s === 'function' ? s(name) : s;
  return wanted === 'identifier' && isPlainSymbol(name) && isSymbol(name) ? 'identifier' : 'paramName';
};

/** A parameter node: `(name::Type {...})`. */
export const printParameter = (f: Field, options: SignaturePrintOptions = {}): string => {
  const byId = styleOf(options, f.name) === 'identifier';
  return node(byId ? f.name : undefined, f.type, byId ? [] : [['paramName', quote(f.name, '"')]], optionalEntries(f.optional, f.type));
};

/** The gram text of a signature. */
export const printSignature = (s: TypeSignature, options: SignaturePrintOptions = {}): string => {
  const nodes: string[] = [];
  const argsEntries: Entry[] = [];
  // the arguments object is closed unless said otherwise
  if (s.args.additional === undefined) argsEntries.push(['additionalProperties', 'true']);
  else if (s.args.additional !== false) argsEntries.push(['additionalProperties', typeValue(s.args.additional)]);
  argsEntries.push(...keywordEntries(s.args));
  if (argsEntries.length > 0) nodes.push(`(::${ARGUMENTS_LABEL} ${record(argsEntries)})`);
  for (const f of s.args.fields) nodes.push(printParameter(f, options));
  if (nodes.length === 0) nodes.push('()');
  const rname = s.returns.name;
  const rId = rname !== undefined && isPlainSymbol(rname) ? rname : undefined;
  nodes.push(node(rId, s.returns.type, rname !== undefined && rId === undefined ? [['paramName', quote(rname, '"')]] : [], []));
  const layout = options.layout ?? 'inline';
  return layout === 'inline' ? nodes.join('==>') : nodes.join(` ==>\n${layout.indent}`);
};
