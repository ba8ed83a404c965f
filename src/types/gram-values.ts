/**
 * gram values ⇄ JSON values, as the specification layer reads and writes them.
 *
 * Reading (gram → JSON): strings, numbers, booleans, arrays and maps map directly; the bare symbol
 * `null` is JSON `null` (gram has no null literal) and any other bare symbol is its name as a
 * string. Where JSON has no equivalent (tagged strings, measurements, ranges), `lenient` mode uses
 * gram's canonical JSON objects (`{"type":"tagged","tag":..,"content":..}`, as gram-hs writes them),
 * which print back to the same gram; `strict` mode (signature keywords) reports them.
 *
 * Fenced strings lose their incidental indentation (`trimFenced`): the indentation of the closing
 * fence and the common indentation of the lines are layout, not text.
 *
 * Writing (JSON → gram): the shortest gram that reads back to the same JSON.
 */
import { SpecCodes } from './codes.js';
import { type Diagnostic, error } from '../core/diagnostic.js';
import type { MapValue, StringValue, Value } from '../gram/ast.js';
import { isFenceable, isSymbol, quote } from '../gram/strings.js';
import { isJsonObject, plainNumber, setOwn } from '../core/json.js';
import type { JsonValue } from '../core/json-schema.js';
import { spanOf } from '../core/span.js';

// -------------------------------------------------------------------------------------------------
// reading
// -------------------------------------------------------------------------------------------------

export type ValueMode = 'strict' | 'lenient';

export interface ValueContext {
  readonly file?: string;
  readonly mode: ValueMode;
  /** What the value is, for messages (`the default of "age"`). */
  readonly what: string;
}

/**
 * Removes the layout of a fenced string: a last line of only spaces (the closing fence's
 * indentation) and the common leading indentation of the other lines, then one final line break.
 */
export const trimFenced = (content: string): string => {
  let text = content;
  const lastBreak = text.lastIndexOf('\n');
  if (lastBreak >= 0 && /^[ \t]*$/.test(text.slice(lastBreak + 1))) text = text.slice(0, lastBreak + 1);
  const lines = text.split('\n');
  let indent = Number.POSITIVE_INFINITY;
  for (const l of lines) {
    if (l.trim() === '') continue;
    const m = /^[ \t]*/.exec(l);
    indent = Math.min(indent, m === null ? 0 : m[0].length);
  }
  if (indent !== Number.POSITIVE_INFINITY && indent > 0) text = lines.map((l) => (l.trim() === '' ? l.replace(/^[ \t]*/, '') : l.slice(indent))).join('\n');
  if (text.endsWith('\r\n')) text = text.slice(0, -2);
  else if (text.endsWith('\n')) text = text.slice(0, -1);
  return text;
};

/** The text of a string value (fenced strings trimmed of their layout). */
export const stringText = (v: StringValue): string => (v.style === 'fenced' ? trimFenced(v.value) : v.value);

/** A gram value as JSON; `undefined` after reporting when it has none (strict mode). */
export const gramToJson = (v: Value, ctx: ValueContext, out: Diagnostic[]): JsonValue | undefined => {
  switch (v.kind) {
    case 'String':
      return stringText(v);
    case 'Boolean':
      return v.value;
    case 'Integer':
    case 'Decimal':
    case 'Hexadecimal':
    case 'Octal':
      return v.value;
    case 'Symbol':
      return v.name === 'null' ? null : v.name;
    case 'Array': {
      const items: JsonValue[] = [];
      let ok = true;
      for (const i of v.items) {
        const j = gramToJson(i, ctx, out);
        if (j === undefined) ok = false;
        else items.push(j);
      }
      return ok ? items : undefined;
    }
    case 'Map':
      return mapToJson(v, ctx, out);
    case 'TaggedString':
      if (ctx.mode === 'lenient') return { type: 'tagged', tag: v.tag, content: v.content };
      return reject(v, ctx, out, 'a tagged string', 'write a plain string');
    case 'Measurement':
      if (ctx.mode === 'lenient') return { type: 'measurement', unit: v.unit, value: v.value };
      return reject(v, ctx, out, `the measurement ${v.raw}`, 'write a plain number');
    case 'Range':
      if (ctx.mode === 'lenient') return { type: 'range', lower: v.lower?.value ?? null, upper: v.upper?.value ?? null };
      return reject(v, ctx, out, 'a range', 'ranges are accepted by the `range` property only');
  }
};

const mapToJson = (v: MapValue, ctx: ValueContext, out: Diagnostic[]): JsonValue | undefined => {
  const o: Record<string, JsonValue> = {};
  let ok = true;
  for (const e of v.entries) {
    const j = gramToJson(e.value, ctx, out);
    if (j === undefined) ok = false;
    else setOwn(o, e.key, j);
  }
  return ok ? o : undefined;
};

const reject = (v: Value, ctx: ValueContext, out: Diagnostic[], what: string, hint: string): undefined => {
  out.push(
    error(SpecCodes.INVALID_VALUE, `${ctx.what} cannot be ${what}: it has no JSON form here`, {
      span: spanOf(v),
      hint,
      ...(ctx.file !== undefined ? { file: ctx.file } : {}),
    }),
  );
  return undefined;
};

/**
 * For a one-line string value, the source offset of each character of its decoded text (so that
 * diagnostics inside a type expression written in a string point at the right column).
 */
export const stringOffsets = (source: string, v: StringValue): ((i: number) => number) => {
  if (v.style === 'fenced') {
    const nl = source.indexOf('\n', v.start + 3);
    const base = nl < 0 ? v.start + 3 : nl + 1;
    return (i) => Math.min(base + i, v.end);
  }
  const start = v.start + 1;
  const end = Math.max(start, v.end - 1);
  const map: number[] = [];
  for (let p = start; p < end; p++) {
    map.push(p);
    if (source.charCodeAt(p) === 92 && p + 1 < end) p++;
  }
  return (i) => (i < map.length ? (map[i] as number) : end);
};

// -------------------------------------------------------------------------------------------------
// writing
// -------------------------------------------------------------------------------------------------

/** A key of a record or map: a symbol when it can be, else double-quoted. */
export const keyText = (k: string): string => (isPlainSymbol(k) ? k : quote(k, '"'));

/** A symbol that no gram reader could take for a keyword (`true`, `false`). */
export const isPlainSymbol = (s: string): boolean => isSymbol(s) && s !== 'true' && s !== 'false';

const isTagged = (o: { readonly [k: string]: JsonValue }): boolean =>
  Object.keys(o).length === 3 &&
  o['type'] === 'tagged' &&
  typeof o['tag'] === 'string' &&
  isSymbol(o['tag']) &&
  typeof o['content'] === 'string' &&
  !o['content'].includes('\n');

const isMeasurement = (o: { readonly [k: string]: JsonValue }): boolean =>
  Object.keys(o).length === 3 &&
  o['type'] === 'measurement' &&
  typeof o['unit'] === 'string' &&
  /^[a-zA-Z]+$/.test(o['unit']) &&
  typeof o['value'] === 'number' &&
  Number.isSafeInteger(o['value']) &&
  !/^e/i.test(o['unit']);

const isBound = (v: JsonValue | undefined): boolean => v === null || (typeof v === 'number' && Number.isFinite(v));

const isRange = (o: { readonly [k: string]: JsonValue }): boolean =>
  Object.keys(o).length === 3 && o['type'] === 'range' && isBound(o['lower']) && isBound(o['upper']) && !(o['lower'] === null && o['upper'] === null);

/**
 * JSON as gram value text that reads back with `gramToJson` to the same JSON. With `canonical`
 * (the default; for lenient reading, as metadata is read) objects in gram's canonical JSON shapes
 * are written as the gram values they stand for (`url\`https://…\``, `1..10`, `168cm`); without,
 * every object is written as a map (for strict reading, as signature keywords are read).
 */
export const jsonToGram = (v: JsonValue, canonical = true): string => {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') return plainNumber(v);
  if (typeof v === 'string') return quote(v, '"');
  if (Array.isArray(v)) return `[${v.map((x) => jsonToGram(x, canonical)).join(', ')}]`;
  if (isJsonObject(v)) {
    if (canonical && isTagged(v)) return `${v['tag'] as string}${quote(v['content'] as string, '`')}`;
    if (canonical && isMeasurement(v)) return `${String(v['value'])}${v['unit'] as string}`;
    if (canonical && isRange(v)) {
      const lo = v['lower'] === null ? '' : plainNumber(v['lower'] as number);
      const hi = v['upper'] === null ? '' : plainNumber(v['upper'] as number);
      return lo === '' ? `...${hi}` : hi === '' ? `${lo}...` : `${lo}..${hi}`;
    }
    const entries = Object.entries(v);
    if (entries.length === 0) return '{}';
    return `{${entries.map(([k, x]) => `${keyText(k)}: ${jsonToGram(x, canonical)}`).join(', ')}}`;
  }
  return 'null';
};

/**
 * A long text as gram: fenced (indented by `indent`) when it spans lines and reads back unchanged,
 * else double-quoted.
 */
export const textToGram = (text: string, indent: string): string => {
  if (text.includes('\n') && !text.includes('\r')) {
    const body = text
      .split('\n')
      .map((l) => (l === '' ? '' : indent + l))
      .join('\n');
    const fenced = `\`\`\`\n${body}\n${indent}\`\`\``;
    const content = `${body}\n${indent}`;
    if (isFenceable(content) && trimFenced(content) === text) return fenced;
  }
  return quote(text, '"');
};
