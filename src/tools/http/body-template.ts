/**
 * Request body templates of HTTP tools, in three encodings. Each placeholder is encoded for where
 * it lands, so a value can never change the body's structure:
 * - `json`: inside a JSON string (`{"q": "${city}"}`) the value is JSON-escaped, so a quote or a
 *   backslash in it cannot close the string; outside a string (`{"limit": ${limit}}`) the value is
 *   written as a JSON value (a string gets its quotes, an object stays an object, absent is `null`).
 *   The template must be valid JSON once values are in place (checked when the tool is made).
 * - `form` (`application/x-www-form-urlencoded`): values form-encoded; a pair that is exactly
 *   `name=${p}` is dropped when the value is absent and repeated for an array.
 * - `text`: values inserted as they are (the body is opaque bytes; its length is computed).
 */
import { HttpCodes } from './codes.js';
import { left, right, type Either, isLeft } from '../../core/either.js';
import { error, type Diagnostic } from '../../core/diagnostic.js';
import { parseTemplate, type TemplatePart } from '../template.js';
import { scalarText, type RenderProblem } from './url-template.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export type BodyEncoding = 'json' | 'form' | 'text';

export type JsonBodyPart =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'placeholder'; readonly name: string; readonly inString: boolean };

export type BodyTemplate =
  | { readonly encoding: 'json'; readonly parts: ReadonlyArray<JsonBodyPart>; readonly names: ReadonlyArray<string> }
  | { readonly encoding: 'form'; readonly pairs: ReadonlyArray<ReadonlyArray<TemplatePart>>; readonly names: ReadonlyArray<string> }
  | { readonly encoding: 'text'; readonly parts: ReadonlyArray<TemplatePart>; readonly names: ReadonlyArray<string> };

export const CONTENT_TYPES: Readonly<Record<BodyEncoding, string>> = {
  json: 'application/json',
  form: 'application/x-www-form-urlencoded',
  text: 'text/plain; charset=utf-8',
};

// -------------------------------------------------------------------------------------------------
// parsing
// -------------------------------------------------------------------------------------------------

/** The encoding of a body: the one given, else from `content-type`, else JSON when the template starts like JSON. */
export const inferBodyEncoding = (source: string, contentType: string | undefined, given?: BodyEncoding): BodyEncoding => {
  if (given !== undefined) return given;
  const ct = (contentType ?? '').toLowerCase();
  if (/[/+]json\b/.test(ct)) return 'json';
  if (ct.includes('x-www-form-urlencoded')) return 'form';
  if (ct !== '') return 'text';
  return /^\s*[{[]/.test(source) ? 'json' : 'text';
};

export const parseBodyTemplate = (source: string, encoding: BodyEncoding, where = 'bodyTemplate'): Either<ReadonlyArray<Diagnostic>, BodyTemplate> => {
  const parsed = parseTemplate(source, where);
  if (isLeft(parsed)) return parsed;
  const parts = parsed.right;
  const names = parts.flatMap((p) => (p.kind === 'placeholder' ? [p.name] : []));
  switch (encoding) {
    case 'text':
      return right({ encoding, parts, names });
    case 'form':
      return right({ encoding, pairs: splitPairs(parts), names });
    case 'json': {
      const jsonParts: JsonBodyPart[] = [];
      let inString = false;
      let escaped = false;
      for (const p of parts) {
        if (p.kind === 'placeholder') {
          jsonParts.push({ kind: 'placeholder', name: p.name, inString });
          continue;
        }
        for (const ch of p.text) {
          if (escaped) escaped = false;
          else if (inString && ch === '\\') escaped = true;
          else if (ch === '"') inString = !inString;
        }
        jsonParts.push({ kind: 'text', text: p.text });
      }
      const sample = jsonParts.map((p) => (p.kind === 'text' ? p.text : p.inString ? 'x' : '0')).join('');
      try {
        JSON.parse(sample);
      } catch (e) {
        return left([
          error(HttpCodes.BODY_TEMPLATE_INVALID, `${where} is not valid JSON once values are in place: ${(e as Error).message}`, {
            hint: 'write string placeholders inside quotes ("${name}") and other values bare (${count})',
          }),
        ]);
      }
      return right({ encoding, parts: jsonParts, names });
    }
  }
};

const splitPairs = (parts: ReadonlyArray<TemplatePart>): TemplatePart[][] => {
  const pairs: TemplatePart[][] = [[]];
  for (const p of parts) {
    if (p.kind === 'placeholder') {
      pairs[pairs.length - 1]!.push(p);
      continue;
    }
    const pieces = p.text.split('&');
    pieces.forEach((piece, i) => {
      if (i > 0) pairs.push([]);
      if (piece !== '') pairs[pairs.length - 1]!.push({ kind: 'text', text: piece, offset: p.offset });
    });
  }
  return pairs;
};

// -------------------------------------------------------------------------------------------------
// rendering
// -------------------------------------------------------------------------------------------------

export const renderBody = (t: BodyTemplate, lookup: (name: string) => unknown): Either<RenderProblem, string> => {
  switch (t.encoding) {
    case 'text':
      return right(t.parts.map((p) => (p.kind === 'text' ? p.text : (scalarText(lookup(p.name), ',') ?? ''))).join(''));
    case 'json': {
      let out = '';
      for (const p of t.parts) {
        if (p.kind === 'text') out += p.text;
        else if (p.inString) out += JSON.stringify(scalarText(lookup(p.name), ',') ?? '').slice(1, -1);
        else out += jsonValue(lookup(p.name));
      }
      return right(out);
    }
    case 'form': {
      const pairs: string[] = [];
      for (const pair of t.pairs) {
        const [first, second] = pair;
        const sole =
          pair.length === 2 && first?.kind === 'text' && first.text.endsWith('=') && second?.kind === 'placeholder'
            ? { prefix: first.text, name: second.name }
            : undefined;
        if (sole !== undefined) {
          const value = lookup(sole.name);
          if (value === undefined || value === null) continue;
          if (Array.isArray(value)) {
            for (const e of value) pairs.push(sole.prefix + formEncode(scalarText(e, ',') ?? ''));
            continue;
          }
        }
        pairs.push(pair.map((p) => (p.kind === 'text' ? p.text : formEncode(scalarText(lookup(p.name), ',') ?? ''))).join(''));
      }
      return right(pairs.filter((p) => p !== '').join('&'));
    }
  }
};

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

const jsonValue = (v: unknown): string => {
  if (v === undefined) return 'null';
  try {
    return JSON.stringify(v) ?? 'null';
  } catch {
    return 'null';
  }
};

/** application/x-www-form-urlencoded, as URLSearchParams writes it. */
const formEncode = (s: string): string => new URLSearchParams([['', s]]).toString().slice(1);
